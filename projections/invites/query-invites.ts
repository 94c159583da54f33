import type { Db } from 'mongodb';
import type { PendingInvite } from '../../contracts/api/users';
import { invitationValidityMs } from '../../contracts/events/invite';
import { currentCollection } from '../framework/read-model-versions';
import { waitForReadModels, type Consistency } from '../wait-for-read-models';
import { INVITES, invitesProjection, type InviteDocument, type InviteStatus } from './invites-projection';

/**
 * An invitation as queries return it: the API's PendingInvite (contracts/api/users.ts) with every status
 * and the fields the gateway's use-cases need besides, so a field renamed in the contract fails here.
 */
export type InviteView = Omit<PendingInvite, 'status'> & {
  /** The Uuid in the invitation link and in DELETE /api/auth/invite/{id}. */
  Uuid: string;
  TenantId: number;
  SubscribeToReports: boolean;
  ClassifyAsAdvisor: boolean;
  status: InviteStatus;
  expiresAt: string;
  streamId: string;
};

const invitesCollection = (db: Db) =>
  currentCollection<'invites', InviteDocument>(db, invitesProjection, 'invites');

const toInviteView = (invite: InviteDocument): InviteView => ({
  Uuid: invite._id,
  TenantId: invite.tenantId,
  Email: invite.Email,
  Name: invite.Name,
  Role: invite.Role,
  JobTitle: invite.JobTitle,
  SubscribeToReports: invite.SubscribeToReports,
  ClassifyAsAdvisor: invite.ClassifyAsAdvisor,
  Workflow: invite.Workflow,
  status: invite.status,
  createdAt: invite.createdAt.toISOString(),
  // Rows projected before invitations expired have none: they count as expired a week after creation.
  expiresAt: (invite.expiresAt ?? new Date(invite.createdAt.getTime() + invitationValidityMs)).toISOString(),
  lastSentAt: invite.lastSentAt ? invite.lastSentAt.toISOString() : null,
  streamId: invite.streamId,
});

/** Not yet cancelled or accepted: an invitation that was emailed is still pending. */
const open: InviteStatus[] = ['pending', 'sent'];

/** The team page's pending invites (GET /api/users?pending=1), newest first; expired ones are not pending. */
export const queryPendingInvites = async (
  db: Db,
  query: Consistency & { tenantId: number; now: Date },
): Promise<{ invites: InviteView[]; stale: boolean }> => {
  const stale = await waitForReadModels(db, [INVITES], query);
  const docs = await (
    await invitesCollection(db)
  )
    .find({ tenantId: query.tenantId, status: { $in: open } })
    .sort({ createdAt: -1, _id: 1 })
    .toArray();
  const invites = docs.map(toInviteView).filter((invite) => new Date(invite.expiresAt) > query.now);
  return { invites, stale };
};

/**
 * The invitation behind a link, whatever its status: a cancelled or accepted one is how the page knows
 * to show "Oops! It seems that this invitation is no longer valid."; null for an unknown id.
 */
export const queryInvite = async (
  db: Db,
  query: Consistency & { inviteId: string },
): Promise<{ invite: InviteView | null; stale: boolean }> => {
  const stale = await waitForReadModels(db, [INVITES], query);
  const doc = await (await invitesCollection(db)).findOne({ _id: query.inviteId });
  return { invite: doc ? toInviteView(doc) : null, stale };
};
