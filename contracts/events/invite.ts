import { z } from 'zod';
import { MembershipClassification, TenantRole } from './user';
import { EntityId, IsoDateTime, type PersonalDataFields } from './values';

/** ADVISOR is offered by businesses (not firms) and becomes an ADMIN membership classified advisor. */
export const InviteRole = z.enum(['ADMIN', 'USER', 'ADVISOR']);
export type InviteRole = z.infer<typeof InviteRole>;

/** ACCOUNTING_ADMIN: an invitation with connection instructions for the company's accountant. */
export const InviteWorkflow = z.enum(['STANDARD', 'ACCOUNTING_ADMIN']);
export type InviteWorkflow = z.infer<typeof InviteWorkflow>;

export const InviteCreated = z.object({
  type: z.literal('InviteCreated'),
  data: z.object({
    /** The Uuid in the invitation link and in DELETE /api/auth/invite/{id}. */
    InviteId: z.uuid(),
    TenantId: EntityId,
    /** Normalised: trimmed and lower-case. */
    Email: z.email(),
    Name: z.string().min(1),
    Role: InviteRole,
    JobTitle: z.string().nullable(),
    SubscribeToReports: z.boolean(),
    ClassifyAsAdvisor: z.boolean(),
    Workflow: InviteWorkflow,
    CreatedAt: IsoDateTime,
    /**
     * SHA-256 (base64url) of the secret token in the emailed link; the token itself is recorded nowhere.
     * null for invitations created before links carried a token (v1): they cannot be accepted.
     */
    TokenHash: z.string().min(20).max(100).nullable(),
    /** The link stops working at this time (7 days after CreatedAt, docs/adr/0020-invitation-tokens.md). */
    ExpiresAt: IsoDateTime,
  }),
});

/** The invitation email went out; sending again (a reminder) records another. */
export const InviteSent = z.object({
  type: z.literal('InviteSent'),
  data: z.object({ InviteId: z.uuid(), SentAt: IsoDateTime }),
});

export const InviteCancelled = z.object({
  type: z.literal('InviteCancelled'),
  data: z.object({ InviteId: z.uuid(), CancelledAt: IsoDateTime }),
});

/** Carries the membership the user gets, so the command layer copies it into JoinTenant as it is. */
export const InviteJoined = z.object({
  type: z.literal('InviteJoined'),
  data: z.object({
    InviteId: z.uuid(),
    UserId: EntityId,
    TenantId: EntityId,
    MembershipRole: TenantRole,
    MembershipClassification,
    JobTitle: z.string().nullable(),
    SendWeekly: z.boolean(),
    SendMonthly: z.boolean(),
    JoinedAt: IsoDateTime,
  }),
});

export const InviteEvent = z.discriminatedUnion('type', [
  InviteCreated,
  InviteSent,
  InviteCancelled,
  InviteJoined,
]);
export type InviteEvent = z.infer<typeof InviteEvent>;

export const inviteEventVersions = {
  InviteCreated: 2,
  InviteSent: 1,
  InviteCancelled: 1,
  InviteJoined: 1,
} as const satisfies Record<InviteEvent['type'], number>;

export const invitePersonalDataFields = {
  InviteCreated: ['Email', 'Name', 'JobTitle'],
  InviteSent: [],
  InviteCancelled: [],
  InviteJoined: ['JobTitle'],
} as const satisfies PersonalDataFields<InviteEvent>;

/** How long an invitation link works after the invitation is created. */
export const invitationValidityMs = 7 * 24 * 3_600_000;

/** v1 invitations were accepted by their Uuid alone: upcast without a token, so they open nothing. */
export const inviteEventUpcasters = {
  InviteCreated: {
    1: (data: unknown) => {
      const v1 = data as { CreatedAt: string };
      const expiresAt = new Date(new Date(v1.CreatedAt).getTime() + invitationValidityMs);
      return { ...v1, TokenHash: null, ExpiresAt: expiresAt.toISOString() };
    },
  },
} as const;
