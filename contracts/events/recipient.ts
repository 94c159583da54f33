import { z } from 'zod';
import { EntityId, IsoDateTime, type PersonalDataFields } from './values';

/** STATE of a report subscription (portal.md section 3). */
export const RecipientState = z.enum(['ACTIVE', 'ADMIN', 'INACTIVE', 'DEACTIVATED']);
export type RecipientState = z.infer<typeof RecipientState>;

export const RecipientSendFlag = z.enum(['SendWeekly', 'SendMonthly']);
export type RecipientSendFlag = z.infer<typeof RecipientSendFlag>;

export const TrackedReport = z.enum(['welcome', 'weekly', 'monthly']);
export type TrackedReport = z.infer<typeof TrackedReport>;

/**
 * The subscriber is a user (subscriberUserId, whose name and email live with the user) or a contact of
 * its own. Personal fields are plain strings: a later layer stores them encrypted.
 */
export const RecipientSubscribed = z.object({
  type: z.literal('RecipientSubscribed'),
  data: z.object({
    recipientId: EntityId,
    tenantId: EntityId,
    sellerId: EntityId,
    subscriberUserId: EntityId.nullable(),
    subscriberEmail: z.string().nullable(),
    subscriberGivenName: z.string().nullable(),
    subscriberFamilyName: z.string().nullable(),
    subscriberJobTitle: z.string().nullable(),
    state: RecipientState.extract(['ACTIVE', 'ADMIN']),
    sendWeekly: z.boolean(),
    sendMonthly: z.boolean(),
    subscribedAt: IsoDateTime,
  }),
});

/** INACTIVE when someone deactivates it; DEACTIVATED when the subscriber's access to the tenant was disabled. */
export const RecipientDeactivated = z.object({
  type: z.literal('RecipientDeactivated'),
  data: z.object({
    recipientId: EntityId,
    state: RecipientState.extract(['INACTIVE', 'DEACTIVATED']),
    deactivatedAt: IsoDateTime,
  }),
});

export const RecipientActivated = z.object({
  type: z.literal('RecipientActivated'),
  data: z.object({ recipientId: EntityId, activatedAt: IsoDateTime }),
});

export const RecipientSendFlagSet = z.object({
  type: z.literal('RecipientSendFlagSet'),
  data: z.object({ recipientId: EntityId, field: RecipientSendFlag, value: z.boolean(), setAt: IsoDateTime }),
});

/** A report was sent: TrackWelcomeDate, TrackWeeklyDate or TrackMonthlyDate. */
export const RecipientReportTracked = z.object({
  type: z.literal('RecipientReportTracked'),
  data: z.object({ recipientId: EntityId, report: TrackedReport, trackedAt: IsoDateTime }),
});

export const RecipientDeleted = z.object({
  type: z.literal('RecipientDeleted'),
  data: z.object({ recipientId: EntityId, deletedAt: IsoDateTime }),
});

export const RecipientEvent = z.discriminatedUnion('type', [
  RecipientSubscribed,
  RecipientDeactivated,
  RecipientActivated,
  RecipientSendFlagSet,
  RecipientReportTracked,
  RecipientDeleted,
]);
export type RecipientEvent = z.infer<typeof RecipientEvent>;
export type RecipientEventType = RecipientEvent['type'];

export const recipientEventVersions = {
  RecipientSubscribed: 1,
  RecipientDeactivated: 1,
  RecipientActivated: 1,
  RecipientSendFlagSet: 1,
  RecipientReportTracked: 1,
  RecipientDeleted: 1,
} satisfies Record<RecipientEventType, number>;

export const recipientPersonalDataFields = {
  RecipientSubscribed: [
    'subscriberEmail',
    'subscriberGivenName',
    'subscriberFamilyName',
    'subscriberJobTitle',
  ],
  RecipientDeactivated: [],
  RecipientActivated: [],
  RecipientSendFlagSet: [],
  RecipientReportTracked: [],
  RecipientDeleted: [],
} satisfies PersonalDataFields<RecipientEvent>;
