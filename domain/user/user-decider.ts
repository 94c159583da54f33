import type { UserEvent } from '../../contracts/events/user';
import type { Decider } from '../decider';
import { decideUser, type UserCommand } from './decide';
import { evolveUser, initialUserState, type UserState } from './user';

/** Stream `user-<UserId>`: the account and all its tenant memberships. */
export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  decide: decideUser,
  evolve: evolveUser,
  initialState: initialUserState,
};
