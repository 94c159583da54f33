import type { RecipientEvent } from '../../contracts/events/recipient';
import type { Decider } from '../decider';
import { decideRecipient, type RecipientCommand } from './decide';
import { evolveRecipient, initialRecipientState, type RecipientSubscriptionState } from './recipient';

export const recipientDecider: Decider<RecipientSubscriptionState, RecipientCommand, RecipientEvent> = {
  decide: decideRecipient,
  evolve: evolveRecipient,
  initialState: initialRecipientState,
};
