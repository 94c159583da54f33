import type { BillingEvent } from '../../contracts/events/billing';
import type { Decider } from '../decider';
import { evolveBilling, initialBillingState, type BillingSubscriptionState } from './billing-subscription';
import { decideBilling, type BillingCommand } from './decide';

export const billingDecider: Decider<BillingSubscriptionState, BillingCommand, BillingEvent> = {
  decide: decideBilling,
  evolve: evolveBilling,
  initialState: initialBillingState,
};
