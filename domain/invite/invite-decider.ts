import type { InviteEvent } from '../../contracts/events/invite';
import type { Decider } from '../decider';
import { decideInvite, type InviteCommand } from './decide';
import { evolveInvite, initialInviteState, type InviteState } from './invite';

/**
 * Stream `invite-<TenantId>-<digest>`, where digest is a keyed hash (HMAC-SHA-256, hex) of
 * normaliseEmail(email), computed by the command layer. One stream per tenant and address makes
 * "no second pending invite" hold under concurrency: two racing invitations append at the same expected
 * revision and one loses, with no read model involved. The address is hashed because stream names
 * cannot be encrypted or erased like event data. The link's Uuid finds the stream through the
 * pending-invites read model.
 */
export const inviteDecider: Decider<InviteState, InviteCommand, InviteEvent> = {
  decide: decideInvite,
  evolve: evolveInvite,
  initialState: initialInviteState,
};
