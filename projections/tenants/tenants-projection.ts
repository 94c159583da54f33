import type { RecordedEvent } from '../../contracts/events/envelope';
import type {
  BusinessModel,
  DisableReason,
  Industry,
  LogoContentType,
  LogoReviewDecision,
  ReportingSettings,
  TenantClassification,
  TenantEvent,
  UsageType,
} from '../../contracts/events/tenant';
import type { TenantLifecycle } from '../../domain/tenant/tenant';
import { erasePersonalFields } from '../framework/erase-personal-fields';
import { defineProjection, type ReadModelWrite } from '../framework/projection';

export type { TenantLifecycle } from '../../domain/tenant/tenant';

/**
 * One document per tenant (`_id` = TenantId), with the Tenant entity's fields as the events carry
 * them. Joins (AdvisoryPartner and ClientsPartner from the partners read model, user and seller
 * counts) are made at query time: a pure `project` cannot read another stream's state.
 */
export type TenantDocument = {
  _id: number;
  position: number;
  Name: string;
  /** Lower-case Name, for sorting and search without collation (FerretDB has none). */
  sortName: string;
  FriendlyName: string | null;
  Classification: TenantClassification;
  UsageType: UsageType;
  BusinessModel: BusinessModel | null;
  Industry: Industry | null;
  PartnerId: number | null;
  Referrer: string | null;
  ReferrerIdentifier: string | null;
  LandingPage: string | null;
  /** Absent on documents written before the field existed. */
  ActiveCampaignId?: string | null;
  PlanIdentifier: string | null;
  /** Settings.Reporting as last saved; queries fill missing fields with the spec's defaults. */
  Reporting: ReportingSettings;
  /** The approved logo (Settings.Partner.Logo). */
  LogoURL: string | null;
  /** An upload waiting for staff review. */
  PendingLogoURL: string | null;
  PendingLogoContentType: LogoContentType | null;
  LogoSubmittedAt: Date | null;
  LastLogoDecision: LogoReviewDecision | null;
  LogoReviewedAt: Date | null;
  CreatedBy: number | null;
  createdAt: Date;
  status: TenantLifecycle;
  /** DisabledAt: set while disabled. */
  deletedAt: Date | null;
  disableReason: DisableReason | null;
  purged: boolean;
  purgedAt: Date | null;
};

type Collections = 'tenants';

/** The document's copies of the tenant's personal data (contracts/events/tenant.ts), sortName derived from Name. */
const tenantPersonalFields = [
  'Name',
  'sortName',
  'FriendlyName',
  'Referrer',
  'ReferrerIdentifier',
  'LandingPage',
] as const satisfies readonly (keyof TenantDocument)[];

export const TENANTS = 'tenants';

type TenantFields = Partial<Omit<TenantDocument, '_id' | 'position'>>;

const setTenant = (id: number, fields: TenantFields) =>
  ({ kind: 'set', collection: 'tenants', id, fields }) as const;

const tenantWrites = (event: TenantEvent): ReadModelWrite<Collections>[] => {
  switch (event.type) {
    case 'TenantCreated': {
      const { data } = event;
      return [
        setTenant(data.TenantId, {
          Name: data.Name,
          sortName: data.Name.toLowerCase(),
          FriendlyName: data.FriendlyName,
          Classification: data.Classification,
          UsageType: data.UsageType,
          BusinessModel: data.BusinessModel,
          Industry: data.Industry,
          PartnerId: data.PartnerId,
          Referrer: data.Referrer,
          ReferrerIdentifier: data.ReferrerIdentifier,
          LandingPage: data.LandingPage,
          ActiveCampaignId: null,
          PlanIdentifier: data.PlanIdentifier,
          Reporting: data.Reporting,
          LogoURL: null,
          PendingLogoURL: null,
          PendingLogoContentType: null,
          LogoSubmittedAt: null,
          LastLogoDecision: null,
          LogoReviewedAt: null,
          CreatedBy: data.CreatedBy,
          createdAt: new Date(data.CreatedAt),
          status: 'active',
          deletedAt: null,
          disableReason: null,
          purged: false,
          purgedAt: null,
        }),
      ];
    }
    case 'TenantRenamed':
      return [
        setTenant(event.data.TenantId, { Name: event.data.Name, sortName: event.data.Name.toLowerCase() }),
      ];
    case 'TenantFriendlyNameChanged':
      return [setTenant(event.data.TenantId, { FriendlyName: event.data.FriendlyName })];
    case 'TenantClassificationChanged':
      return [setTenant(event.data.TenantId, { Classification: event.data.Classification })];
    case 'TenantBusinessModelChanged':
      return [setTenant(event.data.TenantId, { BusinessModel: event.data.BusinessModel })];
    case 'TenantIndustryChanged':
      return [setTenant(event.data.TenantId, { Industry: event.data.Industry })];
    case 'TenantUsageTypeChanged':
      return [setTenant(event.data.TenantId, { UsageType: event.data.UsageType })];
    case 'TenantPartnerChanged':
      return [setTenant(event.data.TenantId, { PartnerId: event.data.PartnerId })];
    case 'TenantActiveCampaignIdChanged':
      return [setTenant(event.data.TenantId, { ActiveCampaignId: event.data.ActiveCampaignId })];
    case 'TenantReferralChanged': {
      const { data } = event;
      return [
        setTenant(data.TenantId, {
          Referrer: data.Referrer,
          ReferrerIdentifier: data.ReferrerIdentifier,
          LandingPage: data.LandingPage,
        }),
      ];
    }
    case 'TenantReportingSettingsChanged':
      return [setTenant(event.data.TenantId, { Reporting: event.data.Reporting })];
    case 'TenantLogoSubmitted': {
      const { data } = event;
      return [
        setTenant(data.TenantId, {
          PendingLogoURL: data.LogoURL,
          PendingLogoContentType: data.ContentType,
          LogoSubmittedAt: new Date(data.SubmittedAt),
        }),
      ];
    }
    case 'TenantLogoReviewed': {
      const { data } = event;
      return [
        setTenant(data.TenantId, {
          // A rejected upload leaves the approved logo as it was.
          ...(data.Decision === 'APPROVED' ? { LogoURL: data.LogoURL } : {}),
          PendingLogoURL: null,
          PendingLogoContentType: null,
          LastLogoDecision: data.Decision,
          LogoReviewedAt: new Date(data.ReviewedAt),
        }),
      ];
    }
    case 'TenantPlanChanged':
      return [setTenant(event.data.TenantId, { PlanIdentifier: event.data.PlanIdentifier })];
    case 'TenantDisabled': {
      const { data } = event;
      return [
        setTenant(data.TenantId, {
          status: 'disabled',
          deletedAt: new Date(data.DisabledAt),
          disableReason: data.Reason,
        }),
      ];
    }
    case 'TenantRestored':
      return [setTenant(event.data.TenantId, { status: 'active', deletedAt: null, disableReason: null })];
    case 'TenantPurged': {
      const { data } = event;
      // Every purge erases the tenant's key: a kept record shows its name and referral as a rebuild would.
      if (!data.Permanent)
        return [
          setTenant(data.TenantId, { status: 'purged', purged: true, purgedAt: new Date(data.PurgedAt) }),
          ...erasePersonalFields<Collections>('tenants', { _id: data.TenantId }, tenantPersonalFields),
        ];
      // A permanent purge erases the tenant's key and may delete its streams: a rebuild then finds
      // nothing of it, so live processing removes its row too (the billing read model its subscriptions).
      return [{ kind: 'delete', collection: 'tenants', filter: { _id: data.TenantId } }];
    }
  }
};

const writesFor = (event: RecordedEvent): ReadModelWrite<Collections>[] | undefined => {
  // Stored events were validated against their contracts when appended, and the decoder upcasts them.
  const typed = { type: event.type, data: event.data };
  if (event.type.startsWith('Tenant')) return tenantWrites(typed as TenantEvent);
  return [];
};

/**
 * Tenants (admin tenants list, tenant edit, switcher, clients, stats). Their subscriptions are the
 * billing read model's (projections/billing/), joined at query time, so they are projected once.
 */
export const tenantsProjection = defineProjection<Collections>({
  name: TENANTS,
  collections: { tenants: 'tenants' },
  indexes: {
    tenants: [
      { key: { sortName: 1 }, name: 'sort_name' },
      { key: { Classification: 1, UsageType: 1 }, name: 'classification_usage' },
      // A partner's clients, and the admin filters by status (test/read-store/hot-query-plans.test.ts).
      { key: { PartnerId: 1 }, name: 'partner_id' },
      // The admin tenants page: listed tenants newest first, read from the index in order, and the
      // counts of the page and the summary from counters (docs/adr/0051-admin-table-counts-and-search.md).
      { key: { status: 1, _id: -1 }, name: 'status_id' },
      { key: { status: 1, Classification: 1 }, name: 'status_classification_counts', counted: true },
      // The admin search box: a name contains the text (a trigram index on the embedded store).
      { key: { Name: 1 }, name: 'name_search', search: true },
    ],
  },
  filter: { categories: ['tenant'] },
  // Unknown types (written by a newer version) are skipped rather than stalling the read model.
  project: (event) => writesFor(event) ?? [],
});
