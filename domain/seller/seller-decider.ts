import type { SellerEvent } from '../../contracts/events/seller';
import type { Decider } from '../decider';
import { decideSeller, type SellerCommand } from './decide';
import { evolveSeller, initialSellerState, type SellerState } from './seller';

export const sellerDecider: Decider<SellerState, SellerCommand, SellerEvent> = {
  decide: decideSeller,
  evolve: evolveSeller,
  initialState: initialSellerState,
};
