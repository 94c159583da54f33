import type { Db } from 'mongodb';
import type { Tenant } from '../../contracts/api/tenants';
import { defaultReportingSettings, type ReportingSettings } from '../../contracts/events/tenant';
import type { BillingSubscriptionDoc } from '../billing/billing-projection';
import { latestSubscriptionsByTenant } from '../billing/query-billing-subscriptions';
import { currentCollection } from '../framework/read-model-versions';
import { partnersProjection, type PartnerDoc } from '../partners/partners-projection';
import { tenantsProjection, type TenantDocument } from './tenants-projection';

/**
 * The Tenant entity as the admin and portal screens read it (admin.md and portal.md, section 3): the
 * API's Tenant. AdvisoryPartner is the partner this tenant belongs to (PartnerId joined with the
 * partner streams); ClientsPartner the partner it owns, when it is an advisory firm with clients.
 */
export type TenantView = Tenant;

type Collections = keyof typeof tenantsProjection.collections;

export const tenantsCollection = (db: Db) =>
  currentCollection<Collections, TenantDocument>(db, tenantsProjection, 'tenants');
/** Partners come from the partners read model (projections/partners/). */
export const partnersCollection = (db: Db) =>
  currentCollection<keyof typeof partnersProjection.collections, PartnerDoc>(
    db,
    partnersProjection,
    'partners',
  );

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** Settings.Reporting with the spec's defaults for anything missing (older documents, partial saves). */
const withDefaults = (reporting: Partial<ReportingSettings> | undefined): ReportingSettings => ({
  ...defaultReportingSettings,
  ...Object.fromEntries(Object.entries(reporting ?? {}).filter(([, value]) => value !== null)),
});

/**
 * The partners and subscriptions of some tenants, fetched in three queries (no $lookup on FerretDB).
 * Subscriptions come from the billing read model, the one place billing events are projected.
 */
export type TenantJoins = {
  partnersById: Map<number, PartnerDoc>;
  partnersByTenant: Map<number, PartnerDoc>;
  subscriptionsByTenant: Map<number, BillingSubscriptionDoc>;
};

export const loadTenantJoins = async (db: Db, tenants: readonly TenantDocument[]): Promise<TenantJoins> => {
  const ids = tenants.map((tenant) => tenant._id);
  const partnerIds = [
    ...new Set(tenants.flatMap((tenant) => (tenant.PartnerId === null ? [] : [tenant.PartnerId]))),
  ];
  const partners = await partnersCollection(db);
  const [advisory, owned, subscriptionsByTenant] = await Promise.all([
    partnerIds.length === 0 ? [] : partners.find({ _id: { $in: partnerIds } }).toArray(),
    ids.length === 0
      ? []
      : partners
          .find({ tenantId: { $in: ids } })
          .sort({ _id: 1 })
          .toArray(),
    latestSubscriptionsByTenant(db, ids),
  ]);
  const partnersByTenant = new Map<number, PartnerDoc>();
  // A firm normally has one partner; with several, the first created is its ClientsPartner.
  for (const partner of owned)
    if (!partnersByTenant.has(partner.tenantId)) partnersByTenant.set(partner.tenantId, partner);
  return {
    partnersById: new Map(advisory.map((partner) => [partner._id, partner])),
    partnersByTenant,
    subscriptionsByTenant,
  };
};

export const toTenantView = (tenant: TenantDocument, joins: TenantJoins): TenantView => {
  const advisory = tenant.PartnerId === null ? undefined : joins.partnersById.get(tenant.PartnerId);
  const owned = joins.partnersByTenant.get(tenant._id);
  const subscription = joins.subscriptionsByTenant.get(tenant._id);
  return {
    Id: tenant._id,
    Name: tenant.Name,
    FriendlyName: tenant.FriendlyName,
    Classification: tenant.Classification,
    UsageType: tenant.UsageType,
    BusinessModel: tenant.BusinessModel,
    Industry: tenant.Industry,
    PartnerId: tenant.PartnerId,
    Referrer: tenant.Referrer,
    ReferrerIdentifier: tenant.ReferrerIdentifier,
    LandingPage: tenant.LandingPage,
    ActiveCampaignId: tenant.ActiveCampaignId ?? null,
    PlanIdentifier: tenant.PlanIdentifier,
    AdvisoryPartner: advisory ? { Id: advisory._id, Name: advisory.name } : null,
    ClientsPartner: owned
      ? {
          Id: owned._id,
          Name: owned.name,
          LogoURL: owned.logoUrl,
          WeeklyDay: owned.clientWeeklyDay,
          MonthlyDay: owned.clientMonthlyDay,
          ClientPlanIdentifier: owned.clientPlanIdentifier,
        }
      : null,
    Settings: {
      Reporting: withDefaults(tenant.Reporting),
      Partner: { Logo: tenant.LogoURL },
      PlanIdentifier: tenant.PlanIdentifier,
    },
    Logo: {
      URL: tenant.LogoURL,
      PendingURL: tenant.PendingLogoURL,
      PendingContentType: tenant.PendingLogoContentType,
      SubmittedAt: iso(tenant.LogoSubmittedAt),
      LastDecision: tenant.LastLogoDecision,
      ReviewedAt: iso(tenant.LogoReviewedAt),
    },
    Subscription: subscription
      ? {
          Id: subscription._id,
          BillingTenantId: subscription.billingTenantId,
          Plan: {
            id: subscription.planId,
            name: subscription.planName,
            identifier: subscription.planIdentifier,
          },
          StartedAt: subscription.startedAt.toISOString(),
          PaymentStatus: subscription.paymentStatus,
          PaymentMethod: subscription.paymentMethod,
        }
      : null,
    CreatedBy: tenant.CreatedBy,
    createdAt: tenant.createdAt.toISOString(),
    status: tenant.status,
    deletedAt: iso(tenant.deletedAt),
    DisableReason: tenant.disableReason,
    purged: tenant.purged,
    purgedAt: iso(tenant.purgedAt),
  };
};

/** Tenant documents to views, with their joins. */
export const toTenantViews = async (db: Db, tenants: readonly TenantDocument[]): Promise<TenantView[]> => {
  const joins = await loadTenantJoins(db, tenants);
  return tenants.map((tenant) => toTenantView(tenant, joins));
};
