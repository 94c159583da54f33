import { z } from 'zod';
import { EntityId, IsoDateTime, type PersonalDataFields } from './values';

/**
 * A partner belongs to a tenant (usually an advisory firm: its ClientsPartner) and gathers the client
 * tenants linked to it (their AdvisoryPartner). Clients get its plan and, when set, its report days.
 */
export const PartnerCreated = z.object({
  type: z.literal('PartnerCreated'),
  data: z.object({
    PartnerId: EntityId,
    TenantId: EntityId,
    Name: z.string().min(1),
    ClientPlanIdentifier: z.string().min(1),
    LogoURL: z.string().nullable(),
    CreatedAt: IsoDateTime,
  }),
});

export const PartnerRenamed = z.object({
  type: z.literal('PartnerRenamed'),
  data: z.object({ PartnerId: EntityId, Name: z.string().min(1) }),
});

export const PartnerClientPlanChanged = z.object({
  type: z.literal('PartnerClientPlanChanged'),
  data: z.object({ PartnerId: EntityId, ClientPlanIdentifier: z.string().min(1) }),
});

export const PartnerLogoChanged = z.object({
  type: z.literal('PartnerLogoChanged'),
  data: z.object({ PartnerId: EntityId, LogoURL: z.string().nullable() }),
});

/** The client defaults a firm sets for its clients' reports (ClientsPartner.WeeklyDay, MonthlyDay). */
export const PartnerClientReportDaysChanged = z.object({
  type: z.literal('PartnerClientReportDaysChanged'),
  data: z.object({
    PartnerId: EntityId,
    WeeklyDay: z.number().int().min(0).max(6).nullable(),
    MonthlyDay: z.number().int().min(1).max(28).nullable(),
  }),
});

export const PartnerEvent = z.discriminatedUnion('type', [
  PartnerCreated,
  PartnerRenamed,
  PartnerClientPlanChanged,
  PartnerLogoChanged,
  PartnerClientReportDaysChanged,
]);
export type PartnerEvent = z.infer<typeof PartnerEvent>;

export const partnerEventVersions = {
  PartnerCreated: 1,
  PartnerRenamed: 1,
  PartnerClientPlanChanged: 1,
  PartnerLogoChanged: 1,
  PartnerClientReportDaysChanged: 1,
} as const satisfies Record<PartnerEvent['type'], number>;

/** A partner is a firm's public face: its name and logo are shown to clients, not personal data. */
export const partnerPersonalDataFields = {
  PartnerCreated: [],
  PartnerRenamed: [],
  PartnerClientPlanChanged: [],
  PartnerLogoChanged: [],
  PartnerClientReportDaysChanged: [],
} as const satisfies PersonalDataFields<PartnerEvent>;
