import { z } from 'zod';
import { EntityId } from '../events/values';
import { BillingPlan, PaymentMethod, PaymentStatus } from '../events/billing';
import {
  BusinessModel,
  Currency,
  DisableReason,
  IanaTimeZone,
  LogoContentType,
  LogoReviewDecision,
  ReportingSettings,
  RetentionPeriod,
  TenantClassification,
  UsageType,
} from '../events/tenant';
import { MembershipClassification, TenantRole } from '../events/user';
import { QueryFlag, Text } from './common';

const IndustryInput = z
  .object({
    FreeForm: Text(200),
    NAICS2017: z.string().trim().max(6).nullable().optional(),
    // The description of the chosen NAICS 2017 industry, as GET /api/industries gives it: the longest
    // runs to 5,401 characters.
    Description: Text(6000).nullable().optional(),
  })
  .strict();

/** The Tenant entity (portal.md and admin.md section 3). */
export const Tenant = z.object({
  Id: z.number(),
  Name: z.string(),
  FriendlyName: z.string().nullable(),
  Classification: TenantClassification,
  UsageType,
  BusinessModel: BusinessModel.nullable(),
  Industry: z
    .object({ FreeForm: z.string(), NAICS2017: z.string().nullable(), Description: z.string().nullable() })
    .nullable(),
  PartnerId: z.number().nullable(),
  Referrer: z.string().nullable(),
  ReferrerIdentifier: z.string().nullable(),
  LandingPage: z.string().nullable(),
  /** The company's account in the marketing-automation tool: the admin table links to it. */
  ActiveCampaignId: z.string().nullable().optional(),
  PlanIdentifier: z.string().nullable(),
  AdvisoryPartner: z.object({ Id: z.number(), Name: z.string() }).nullable(),
  ClientsPartner: z
    .object({
      Id: z.number(),
      Name: z.string(),
      LogoURL: z.string().nullable(),
      WeeklyDay: z.number().nullable(),
      MonthlyDay: z.number().nullable(),
      ClientPlanIdentifier: z.string(),
    })
    .nullable(),
  Settings: z.object({
    Reporting: ReportingSettings,
    Partner: z.object({ Logo: z.string().nullable() }),
    PlanIdentifier: z.string().nullable(),
  }),
  Logo: z.object({
    URL: z.string().nullable(),
    PendingURL: z.string().nullable(),
    PendingContentType: LogoContentType.nullable(),
    SubmittedAt: z.string().nullable(),
    LastDecision: LogoReviewDecision.nullable(),
    ReviewedAt: z.string().nullable(),
  }),
  Subscription: z
    .object({
      Id: z.number(),
      BillingTenantId: z.number(),
      Plan: BillingPlan,
      StartedAt: z.string(),
      PaymentStatus,
      PaymentMethod: PaymentMethod.nullable(),
    })
    .nullable(),
  CreatedBy: z.number().nullable(),
  createdAt: z.string(),
  status: z.enum(['active', 'disabled', 'purged']),
  deletedAt: z.string().nullable(),
  DisableReason: DisableReason.nullable(),
  purged: z.boolean(),
  purgedAt: z.string().nullable(),
});
export type Tenant = z.infer<typeof Tenant>;

/** One of the caller's companies (the tenant switcher). */
export const MyTenant = z.object({
  Id: z.number(),
  Name: z.string(),
  FriendlyName: z.string().nullable(),
  Classification: TenantClassification,
  UsageType,
  Role: TenantRole,
  MembershipClassification,
});

/** GET /api/tenants: the caller's active companies, by name. */
export const MyTenantsResponse = z.object({ tenants: z.array(MyTenant) });

export const TenantListRow = Tenant.extend({ userCount: z.number(), activeSellerCount: z.number() });

/** GET /api/tenants?scope=all: the admin tenants list; pagination is null while searching, filtering or sorting. */
export const TenantListResponse = z.object({
  rows: z.array(TenantListRow),
  total: z.number(),
  pagination: z.object({ page: z.number(), pageSize: z.number(), pageCount: z.number() }).nullable(),
  summary: z.object({ businesses: z.number(), firms: z.number(), sellers: z.number() }),
});

export const TenantsResponse = z.union([MyTenantsResponse, TenantListResponse]);

export const TenantSortField = z.enum([
  'Id',
  'Name',
  'Referrer',
  'LandingPage',
  'createdAt',
  'UsageType',
  'Classification',
  'userCount',
  'activeSellerCount',
]);

/** `usageType` may repeat or be comma separated: `?usageType=TEST,INTERNAL`. */
const UsageTypes = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).filter(Boolean))
  .pipe(z.array(UsageType));

export const TenantsQuery = z
  .object({
    scope: z.literal('all').optional(),
    search: Text(200).optional(),
    usageType: UsageTypes.optional(),
    classification: TenantClassification.optional(),
    hasUsers: QueryFlag.optional(),
    hasActiveSellers: QueryFlag.optional(),
    sort: TenantSortField.optional(),
    direction: z.enum(['asc', 'desc']).optional(),
    page: z.coerce.number().int().min(1).max(100_000).optional(),
  })
  .strict();
export type TenantsQuery = z.infer<typeof TenantsQuery>;

/**
 * POST /api/tenants: the welcome modal (Name, Industry.FreeForm, BusinessModel, Classification,
 * planIdentifier), the new-client modal, and the admin's new tenant (usage type, referral, partner,
 * skipUserTenant: the admin does not join it).
 */
export const CreateTenantRequest = z
  .object({
    Name: z
      .string({ error: 'Please enter company name' })
      .trim()
      .min(1, 'Please enter company name')
      .max(200),
    FriendlyName: Text(200).nullable().optional(),
    Classification: TenantClassification.optional(),
    BusinessModel: BusinessModel.optional(),
    Industry: IndustryInput.optional(),
    planIdentifier: Text(100).optional(),
    UsageType: UsageType.optional(),
    PartnerId: EntityId.nullable().optional(),
    Referrer: Text(200).nullable().optional(),
    ReferrerIdentifier: Text(200).nullable().optional(),
    LandingPage: Text(500).nullable().optional(),
    skipUserTenant: z.boolean().optional(),
  })
  .strict();
export type CreateTenantRequest = z.infer<typeof CreateTenantRequest>;

/** Settings.Reporting in an update: absent fields are unchanged (blank means no change). */
const ReportingInput = z
  .object({
    RetentionPeriod: RetentionPeriod.optional(),
    WeeklyDay: z.number().int().min(0).max(6).optional(),
    MonthlyDay: z.number().int().min(1).max(28).optional(),
    Currency: Currency.optional(),
    WeeklyEmailsDisabled: z.boolean().optional(),
    MonthlyEmailsDisabled: z.boolean().optional(),
    /** IANA name; the scheduled sends go out at 07:00 in it. */
    TimeZone: IanaTimeZone.optional(),
  })
  .strict();

/** The firm's client defaults (its partner): name, report days and logo on client reports. */
const ClientsPartnerInput = z
  .object({
    Name: Text(200).optional(),
    WeeklyDay: z.number().int().min(0).max(6).nullable().optional(),
    MonthlyDay: z.number().int().min(1).max(28).nullable().optional(),
    LogoURL: Text(500).nullable().optional(),
    ClientPlanIdentifier: Text(100).optional(),
  })
  .strict();

/**
 * PUT or PATCH /api/tenants/{id}: the Company and Reporting tabs; absent fields are unchanged. UsageType,
 * PartnerId, the referral fields, ActiveCampaignId and PlanIdentifier are platform admin fields
 * (portal.md section 6).
 */
export const UpdateTenantRequest = z
  .object({
    Name: Text(200).optional(),
    FriendlyName: Text(200).nullable().optional(),
    Classification: TenantClassification.optional(),
    BusinessModel: BusinessModel.nullable().optional(),
    Industry: IndustryInput.nullable().optional(),
    Settings: z.object({ Reporting: ReportingInput.optional() }).strict().optional(),
    ClientsPartner: ClientsPartnerInput.optional(),
    UsageType: UsageType.optional(),
    PartnerId: EntityId.nullable().optional(),
    Referrer: Text(200).nullable().optional(),
    ReferrerIdentifier: Text(200).nullable().optional(),
    LandingPage: Text(500).nullable().optional(),
    ActiveCampaignId: Text(64).nullable().optional(),
    PlanIdentifier: Text(100).optional(),
  })
  .strict();
export type UpdateTenantRequest = z.infer<typeof UpdateTenantRequest>;

/** PUT /api/tenants/batch: the clients page's bulk edit; at least one setting must be chosen. */
export const BatchUpdateTenantsRequest = z
  .object({
    Id: z.array(EntityId).min(1, 'Select at least one client').max(500),
    WeeklyDay: z.number().int().min(0).max(6).optional(),
    MonthlyDay: z.number().int().min(1).max(28).optional(),
    WeeklyEmailsDisabled: z.boolean().optional(),
    MonthlyEmailsDisabled: z.boolean().optional(),
    PlanIdentifier: Text(100).optional(),
    /** A user of the caller's current company (the firm) to add to each client as its advisor. */
    TeamMemberId: EntityId.optional(),
  })
  .strict();
export type BatchUpdateTenantsRequest = z.infer<typeof BatchUpdateTenantsRequest>;

export const BatchUpdateTenantsResponse = z.object({ tenants: z.array(Tenant) });

/** DELETE /api/tenants/{id}: disable (with a reason) or purge (optionally permanently). */
export const DeleteTenantQuery = z
  .object({
    reason: DisableReason.optional(),
    permanent: QueryFlag.optional(),
    purge: QueryFlag.optional(),
  })
  .strict();

/**
 * GET /api/tenants/{id}/details: the admin tenants list's expandable row (admin.md section 2): its
 * users, its sellers and the tenants linked to it through a partner (a firm's clients, a client's firm).
 */
export const TenantDetailsResponse = z.object({
  users: z.array(
    z.object({ Id: z.number(), Name: z.string(), Email: z.string().nullable(), Role: TenantRole }),
  ),
  sellers: z.array(
    z.object({
      Id: z.number(),
      CompanyName: z.string().nullable(),
      Provider: z.string(),
      Active: z.boolean(),
    }),
  ),
  linkedTenants: z.array(
    z.object({
      Id: z.number(),
      Name: z.string(),
      Classification: TenantClassification,
      /** client: a client of one of this tenant's partners; advisor: the firm this tenant is a client of. */
      link: z.enum(['client', 'advisor']),
    }),
  ),
});
export type TenantDetailsResponse = z.infer<typeof TenantDetailsResponse>;

export const TenantIdParam = z
  .object({
    tenantId: z.coerce
      .number()
      .int()
      .positive()
      .max(2 ** 31),
  })
  .strict();

/**
 * POST /api/tenants/{id}/logo takes one image of at most 2 MB (the gateway's multipart limit), which the
 * logo form also checks before sending.
 */
export const logoMaxBytes = 2 * 1024 * 1024;

/** GET /api/tenants/{id}/logo: `v` names one upload; without it, the approved logo. */
export const LogoQuery = z.object({ v: z.uuid().optional() }).strict();

/** portal.md section 8. */
export const tenantMessages = {
  updateFailed: 'There was an error while updating the company.',
  clientsUpdateFailed: 'There was an error while updating the selected clients.',
  logoFailed: 'There was an error while uploading your logo. Please contact support.',
  classificationRequired: 'Please select a classification',
  industryRequired: 'Please enter an industry',
} as const;
