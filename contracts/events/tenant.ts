import { z } from 'zod';
import { EntityId, IsoDateTime, type PersonalDataFields } from './values';

/** CLIENT is a plan classification only; a tenant is a business or an advisory firm. */
export const TenantClassification = z.enum(['BUSINESS', 'FIRM']);
export type TenantClassification = z.infer<typeof TenantClassification>;

/** TEST tenants are not billed; INTERNAL tenants cannot be disabled. */
export const UsageType = z.enum(['NORMAL', 'TEST', 'INTERNAL', 'DEMO']);
export type UsageType = z.infer<typeof UsageType>;

export const BusinessModel = z.enum(['B2B', 'HYBRID', 'B2C']);
export type BusinessModel = z.infer<typeof BusinessModel>;

export const Industry = z.object({
  FreeForm: z.string().min(1),
  /** The NAICS 2017 code chosen from the autocomplete, when one was chosen. */
  NAICS2017: z.string().nullable(),
  Description: z.string().nullable(),
});
export type Industry = z.infer<typeof Industry>;

export const RetentionPeriod = z.enum([
  'AUTO',
  'TRAILING24MONTHS',
  'TRAILING12MONTHS',
  'TRAILING3MONTHS',
  'TRAILING1MONTH',
]);
export type RetentionPeriod = z.infer<typeof RetentionPeriod>;

export const Currency = z.enum(['USD', 'GBP', 'EUR']);
export type Currency = z.infer<typeof Currency>;

/** True when the runtime knows the IANA zone name (`Europe/London`, `UTC`). */
export const isTimeZone = (name: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

export const defaultTimeZone = 'UTC';

export const IanaTimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine(isTimeZone, { message: 'Choose a time zone from the list' });

/** Settings.Reporting; the report-send schedules are derived from WeeklyDay and MonthlyDay. */
export const ReportingSettings = z.object({
  RetentionPeriod,
  /** 0 = Sunday ... 6 = Saturday. */
  WeeklyDay: z.number().int().min(0).max(6),
  /** Day of the month; at most 28 so that every month has it. */
  MonthlyDay: z.number().int().min(1).max(28),
  Currency,
  WeeklyEmailsDisabled: z.boolean(),
  MonthlyEmailsDisabled: z.boolean(),
  /**
   * The IANA time zone whose morning the scheduled sends go out in (docs/adr/0038); absent in events
   * recorded before it existed, which means UTC.
   */
  TimeZone: IanaTimeZone.optional(),
});
export type ReportingSettings = z.infer<typeof ReportingSettings>;

export const defaultReportingSettings: ReportingSettings = {
  RetentionPeriod: 'AUTO',
  WeeklyDay: 2,
  MonthlyDay: 7,
  Currency: 'USD',
  WeeklyEmailsDisabled: false,
  MonthlyEmailsDisabled: false,
};

export const DisableReason = z.enum(['STOPPED_PAYING', 'DUPLICATE', 'TESTING']);
export type DisableReason = z.infer<typeof DisableReason>;

export const LogoContentType = z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/svg+xml']);
export type LogoContentType = z.infer<typeof LogoContentType>;

export const LogoReviewDecision = z.enum(['APPROVED', 'REJECTED']);
export type LogoReviewDecision = z.infer<typeof LogoReviewDecision>;

export const TenantCreated = z.object({
  type: z.literal('TenantCreated'),
  data: z.object({
    TenantId: EntityId,
    Name: z.string().min(1),
    /** The name shown to clients on reports; always set for a FIRM. */
    FriendlyName: z.string().min(1).nullable(),
    Classification: TenantClassification,
    UsageType,
    BusinessModel: BusinessModel.nullable(),
    Industry: Industry.nullable(),
    /** The advisory partner this business belongs to (AdvisoryPartner in the read model). */
    PartnerId: EntityId.nullable(),
    Referrer: z.string().nullable(),
    ReferrerIdentifier: z.string().nullable(),
    LandingPage: z.string().nullable(),
    PlanIdentifier: z.string().min(1).nullable(),
    Reporting: ReportingSettings,
    /** The signed-in user who created it, or null when an admin or the system did (skipUserTenant). */
    CreatedBy: EntityId.nullable(),
    CreatedAt: IsoDateTime,
  }),
});

export const TenantRenamed = z.object({
  type: z.literal('TenantRenamed'),
  data: z.object({ TenantId: EntityId, Name: z.string().min(1) }),
});

export const TenantFriendlyNameChanged = z.object({
  type: z.literal('TenantFriendlyNameChanged'),
  data: z.object({ TenantId: EntityId, FriendlyName: z.string().min(1).nullable() }),
});

export const TenantClassificationChanged = z.object({
  type: z.literal('TenantClassificationChanged'),
  data: z.object({ TenantId: EntityId, Classification: TenantClassification }),
});

export const TenantBusinessModelChanged = z.object({
  type: z.literal('TenantBusinessModelChanged'),
  data: z.object({ TenantId: EntityId, BusinessModel: BusinessModel.nullable() }),
});

export const TenantIndustryChanged = z.object({
  type: z.literal('TenantIndustryChanged'),
  data: z.object({ TenantId: EntityId, Industry: Industry.nullable() }),
});

export const TenantUsageTypeChanged = z.object({
  type: z.literal('TenantUsageTypeChanged'),
  data: z.object({ TenantId: EntityId, UsageType }),
});

/**
 * The read model's AdvisoryPartner {EntityId, Name} is this partner joined from the partner streams; its
 * ClientsPartner is the partner whose TenantId is this tenant. Neither is copied into tenant events.
 */
export const TenantPartnerChanged = z.object({
  type: z.literal('TenantPartnerChanged'),
  data: z.object({ TenantId: EntityId, PartnerId: EntityId.nullable() }),
});

export const TenantReferralChanged = z.object({
  type: z.literal('TenantReferralChanged'),
  data: z.object({
    TenantId: EntityId,
    Referrer: z.string().nullable(),
    ReferrerIdentifier: z.string().nullable(),
    LandingPage: z.string().nullable(),
  }),
});

/** The company's account in the marketing-automation tool (ActiveCampaign), for the admin table's link. */
export const TenantActiveCampaignIdChanged = z.object({
  type: z.literal('TenantActiveCampaignIdChanged'),
  data: z.object({ TenantId: EntityId, ActiveCampaignId: z.string().min(1).nullable() }),
});

/** Carries the whole resulting settings, so the schedule reactor needs no other event to act. */
export const TenantReportingSettingsChanged = z.object({
  type: z.literal('TenantReportingSettingsChanged'),
  data: z.object({ TenantId: EntityId, Reporting: ReportingSettings }),
});

/** The file itself lives in object storage; the event records where and what it is. */
export const TenantLogoSubmitted = z.object({
  type: z.literal('TenantLogoSubmitted'),
  data: z.object({
    TenantId: EntityId,
    LogoURL: z.string().min(1),
    ContentType: LogoContentType,
    SubmittedAt: IsoDateTime,
  }),
});

export const TenantLogoReviewed = z.object({
  type: z.literal('TenantLogoReviewed'),
  data: z.object({
    TenantId: EntityId,
    LogoURL: z.string().min(1),
    Decision: LogoReviewDecision,
    ReviewedAt: IsoDateTime,
  }),
});

export const TenantPlanChanged = z.object({
  type: z.literal('TenantPlanChanged'),
  data: z.object({ TenantId: EntityId, PlanIdentifier: z.string().min(1) }),
});

/** DisabledAt is the read model's deletedAt. */
export const TenantDisabled = z.object({
  type: z.literal('TenantDisabled'),
  data: z.object({ TenantId: EntityId, Reason: DisableReason.nullable(), DisabledAt: IsoDateTime }),
});

export const TenantRestored = z.object({
  type: z.literal('TenantRestored'),
  data: z.object({ TenantId: EntityId, RestoredAt: IsoDateTime }),
});

/** Permanent: also delete the tenant's streams and drop its personal-data keys, not only its synced data. */
export const TenantPurged = z.object({
  type: z.literal('TenantPurged'),
  data: z.object({ TenantId: EntityId, Permanent: z.boolean(), PurgedAt: IsoDateTime }),
});

export const TenantEvent = z.discriminatedUnion('type', [
  TenantCreated,
  TenantRenamed,
  TenantFriendlyNameChanged,
  TenantClassificationChanged,
  TenantBusinessModelChanged,
  TenantIndustryChanged,
  TenantUsageTypeChanged,
  TenantPartnerChanged,
  TenantReferralChanged,
  TenantActiveCampaignIdChanged,
  TenantReportingSettingsChanged,
  TenantLogoSubmitted,
  TenantLogoReviewed,
  TenantPlanChanged,
  TenantDisabled,
  TenantRestored,
  TenantPurged,
]);
export type TenantEvent = z.infer<typeof TenantEvent>;

export const tenantEventVersions = {
  TenantCreated: 1,
  TenantRenamed: 1,
  TenantFriendlyNameChanged: 1,
  TenantClassificationChanged: 1,
  TenantBusinessModelChanged: 1,
  TenantIndustryChanged: 1,
  TenantUsageTypeChanged: 1,
  TenantPartnerChanged: 1,
  TenantReferralChanged: 1,
  TenantActiveCampaignIdChanged: 1,
  TenantReportingSettingsChanged: 1,
  TenantLogoSubmitted: 1,
  TenantLogoReviewed: 1,
  TenantPlanChanged: 1,
  TenantDisabled: 1,
  TenantRestored: 1,
  TenantPurged: 1,
} as const satisfies Record<TenantEvent['type'], number>;

/**
 * Data fields holding personal data, encrypted per subject so a purge can erase them. A company name
 * often is its owner's name (sole traders), and referral fields can carry a person's email or code.
 */
export const tenantPersonalDataFields = {
  TenantCreated: ['Name', 'FriendlyName', 'Referrer', 'ReferrerIdentifier', 'LandingPage'],
  TenantRenamed: ['Name'],
  TenantFriendlyNameChanged: ['FriendlyName'],
  TenantClassificationChanged: [],
  TenantBusinessModelChanged: [],
  TenantIndustryChanged: [],
  TenantUsageTypeChanged: [],
  TenantPartnerChanged: [],
  TenantReferralChanged: ['Referrer', 'ReferrerIdentifier', 'LandingPage'],
  TenantActiveCampaignIdChanged: [],
  TenantReportingSettingsChanged: [],
  TenantLogoSubmitted: [],
  TenantLogoReviewed: [],
  TenantPlanChanged: [],
  TenantDisabled: [],
  TenantRestored: [],
  TenantPurged: [],
} as const satisfies PersonalDataFields<TenantEvent>;
