import type { RecordedEvent } from '../../contracts/events/envelope';
import type { InviteEvent, InviteRole, InviteWorkflow } from '../../contracts/events/invite';
import { defineProjection, type ReadModelWrite } from '../framework/projection';

export type InviteStatus = 'pending' | 'sent' | 'cancelled' | 'joined';

/** One document per invitation (`_id` = its Uuid, the id in the invitation link). */
export type InviteDocument = {
  _id: string;
  position: number;
  /** `invite-<tenantId>-<digest>`: what the command layer appends to when the link is followed. */
  streamId: string;
  tenantId: number;
  Email: string;
  Name: string;
  Role: InviteRole;
  JobTitle: string | null;
  SubscribeToReports: boolean;
  ClassifyAsAdvisor: boolean;
  Workflow: InviteWorkflow;
  status: InviteStatus;
  createdAt: Date;
  /**
   * The link stops working then (absent in rows projected before invitations expired). The token's
   * hash is not copied here: only the invite stream has it.
   */
  expiresAt?: Date;
  lastSentAt: Date | null;
  /** When it was cancelled or accepted. */
  closedAt: Date | null;
  joinedUserId: number | null;
};

type Collections = 'invites';

export const INVITES = 'invites';

const setInvite = (id: string, fields: Partial<Omit<InviteDocument, '_id' | 'position'>>) =>
  ({ kind: 'set', collection: 'invites', id, fields }) as const;

const inviteWrites = (event: InviteEvent, streamId: string): ReadModelWrite<Collections>[] => {
  switch (event.type) {
    case 'InviteCreated': {
      const { data } = event;
      return [
        setInvite(data.InviteId, {
          streamId,
          tenantId: data.TenantId,
          Email: data.Email,
          Name: data.Name,
          Role: data.Role,
          JobTitle: data.JobTitle,
          SubscribeToReports: data.SubscribeToReports,
          ClassifyAsAdvisor: data.ClassifyAsAdvisor,
          Workflow: data.Workflow,
          status: 'pending',
          createdAt: new Date(data.CreatedAt),
          expiresAt: new Date(data.ExpiresAt),
          lastSentAt: null,
          closedAt: null,
          joinedUserId: null,
        }),
      ];
    }
    case 'InviteSent':
      return [setInvite(event.data.InviteId, { status: 'sent', lastSentAt: new Date(event.data.SentAt) })];
    case 'InviteCancelled':
      return [
        setInvite(event.data.InviteId, { status: 'cancelled', closedAt: new Date(event.data.CancelledAt) }),
      ];
    case 'InviteJoined':
      return [
        setInvite(event.data.InviteId, {
          status: 'joined',
          closedAt: new Date(event.data.JoinedAt),
          joinedUserId: event.data.UserId,
        }),
      ];
  }
};

const writesFor = (event: RecordedEvent): ReadModelWrite<Collections>[] | undefined => {
  if (event.type === 'TenantPurged') {
    // Every purge, permanent or not, erases the tenant's key (the invitee's address and name with it):
    // its invitations go, in live processing and in a rebuild alike (docs/adr/0005-personal-data.md).
    const data = event.data as { TenantId: number };
    return [{ kind: 'delete', collection: 'invites', filter: { tenantId: data.TenantId } }];
  }
  if (!event.type.startsWith('Invite')) return [];
  // Validated when appended and upcast by the decoder, so typed, not parsed again: after an erasure
  // an address reads back as the erased marker, which z.email() (and so parseEvent) would refuse.
  return inviteWrites({ type: event.type, data: event.data } as InviteEvent, event.streamId);
};

/** Invitations by tenant (the team page's pending invites) and by Uuid (the invitation link). */
export const invitesProjection = defineProjection<Collections>({
  name: INVITES,
  collections: { invites: 'invites' },
  indexes: { invites: [{ key: { tenantId: 1, status: 1 }, name: 'tenant_status' }] },
  filter: { categories: ['invite', 'tenant'] },
  // Unknown types (written by a newer version) are skipped rather than stalling the read model.
  project: (event) => writesFor(event) ?? [],
});
