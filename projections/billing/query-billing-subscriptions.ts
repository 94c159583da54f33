import type { Db, Filter } from 'mongodb';
import type {
  AdminBillingSubscription,
  BillingSubscription,
  SubscriptionProduct,
} from '../../contracts/api/billing';
import { AppError } from '../../contracts/errors';
import type { PaymentStatus, StripeSubscriptionItem } from '../../contracts/events/billing';
import type { TenantClassification } from '../../contracts/events/tenant';
import {
  countingProducts,
  isTrialEndEditable,
  trialDaysRemaining,
} from '../../domain/billing/subscription-rules';
import { currentCollection } from '../framework/read-model-versions';
import { waitUntilRead, type ReadAfter } from '../read-after';
import { containsText, hasSearch, idInSearch } from '../search-pattern';
import { tenantIdsWhere, tenantSummaries } from '../tenant-lookup';
import {
  BILLING_SUBSCRIPTIONS,
  billingSubscriptionsProjection,
  type BillingSubscriptionDoc,
  type ProductDoc,
} from './billing-projection';

export type SubscriptionProductView = SubscriptionProduct;

/**
 * A billing subscription as the billing page and admin list show it (portal.md and admin.md section
 * 3): the API's BillingSubscription, its trial figures computed at query time from `now`.
 */
export type BillingSubscriptionView = BillingSubscription;

export type AdminBillingSubscriptionView = AdminBillingSubscription;

const iso = (value: Date | null) => value?.toISOString() ?? null;

const productView = (
  product: ProductDoc,
  billed: ReadonlyMap<string, StripeSubscriptionItem>,
): SubscriptionProductView => {
  const item = billed.get(product.identifier);
  return {
    Identifier: product.identifier,
    Quantity: product.quantity,
    Active: product.active,
    ExpiresAt: iso(product.expiresAt),
    StripePriceId: item?.stripePriceId ?? null,
    StripeSubscriptionItemId: item?.stripeSubscriptionItemId ?? null,
    BillingPeriod: item ? 'month' : null,
  };
};

/** Products by identifier, so the order does not depend on the order of the changes. */
const productsOf = (doc: BillingSubscriptionDoc): SubscriptionProductView[] => {
  const billed = new Map((doc.stripeItems ?? []).map((item) => [item.identifier, item]));
  return Object.values(doc.products ?? {})
    .flatMap((product) => (product ? [productView(product, billed)] : []))
    .sort((a, b) => (a.Identifier < b.Identifier ? -1 : a.Identifier > b.Identifier ? 1 : 0));
};

const counting = (products: readonly SubscriptionProductView[], now: Date) =>
  countingProducts(
    products.map((view) => ({ view, active: view.Active, expiresAt: view.ExpiresAt })),
    now,
  ).map(({ view }) => view);

export const toSubscriptionView = (doc: BillingSubscriptionDoc, now: Date): BillingSubscriptionView => {
  const all = productsOf(doc);
  const trial = { paymentStatus: doc.paymentStatus, startedAt: doc.startedAt.toISOString() };
  return {
    Id: doc._id,
    TenantId: doc.tenantId,
    BillingTenantId: doc.billingTenantId,
    Direct: doc.billingTenantId === doc.tenantId,
    Plan: { Id: doc.planId, Name: doc.planName, Identifier: doc.planIdentifier },
    StartedAt: doc.startedAt.toISOString(),
    ResumesAt: iso(doc.resumesAt),
    InactiveAt: iso(doc.inactiveAt),
    PaymentStatus: doc.paymentStatus,
    PaymentMethod: doc.paymentMethod,
    StripeCustomerId: doc.stripeCustomerId,
    StripeMonthlySubscriptionId: doc.stripeSubscriptionId ?? null,
    SubscriptionProducts: counting(all, now),
    AllProducts: all,
    ScheduledCancellation:
      doc.cancellationIntent === null
        ? null
        : {
            Intent: doc.cancellationIntent,
            Reason: doc.cancellationReason ?? '',
            Details: doc.cancellationDetails,
            DowngradeTo: doc.cancellationDowngradeTo,
            EffectiveAt: iso(doc.cancellationEffectiveAt) ?? '',
          },
    TrialDaysRemaining: trialDaysRemaining(trial, now),
    TrialEndEditable: isTrialEndEditable(trial, now),
    createdAt: doc.createdAt.toISOString(),
  };
};

/** The billing read model's documents, also read by the tenants, clients and stats queries. */
export const billingSubscriptionsCollection = (db: Db) =>
  currentCollection<'subscriptions', BillingSubscriptionDoc>(
    db,
    billingSubscriptionsProjection,
    'subscriptions',
  );
const subscriptions = billingSubscriptionsCollection;

/**
 * The subscription of each of these tenants, for rows that join one (tenant record, clients page).
 * A tenant that has had several shows its latest, by creation; tenants without one are absent.
 */
export const latestSubscriptionsByTenant = async (
  db: Db,
  tenantIds: readonly number[],
): Promise<Map<number, BillingSubscriptionDoc>> => {
  if (tenantIds.length === 0) return new Map();
  const docs = await (
    await subscriptions(db)
  )
    .find({ tenantId: { $in: [...tenantIds] } })
    .sort({ createdAt: 1, _id: 1 })
    .toArray();
  // Ascending order, so the latest is the one the map keeps.
  return new Map(docs.map((doc) => [doc.tenantId, doc]));
};

/** GET /api/billing/subscriptions/{tenantId}: the tenant's subscription, or null without one. */
export const getTenantSubscription = async (
  db: Db,
  query: { tenantId: number; now: Date; readAfter?: ReadAfter },
): Promise<{ subscription: BillingSubscriptionView | null; stale: boolean }> => {
  // admin.md section 5: billing needs a numeric tenant id.
  if (!Number.isInteger(query.tenantId) || query.tenantId <= 0)
    throw new AppError('validation', 'Invalid subscription tenantId supplied.');
  const stale = await waitUntilRead(db, BILLING_SUBSCRIPTIONS, query.readAfter);
  const doc = await (await subscriptions(db)).findOne({ tenantId: query.tenantId }, { sort: { _id: -1 } });
  return { subscription: doc ? toSubscriptionView(doc, query.now) : null, stale };
};

/** What the last push to Stripe recorded for the subscription (its id and priced lines), if any. */
export const getPushedStripeSubscription = async (
  db: Db,
  query: { subscriptionId: number; readAfter?: ReadAfter },
): Promise<{ stripeSubscriptionId: string; items: StripeSubscriptionItem[] } | null> => {
  await waitUntilRead(db, BILLING_SUBSCRIPTIONS, query.readAfter);
  const doc = await (await subscriptions(db)).findOne({ _id: query.subscriptionId });
  return doc?.stripeSubscriptionId
    ? { stripeSubscriptionId: doc.stripeSubscriptionId, items: doc.stripeItems ?? [] }
    : null;
};

export type AdminSubscriptionsQuery = {
  now: Date;
  /** The tenant's classification (Business or Advisory Firm). */
  classification?: TenantClassification;
  planIdentifiers?: readonly string[];
  paymentStatuses?: readonly PaymentStatus[];
  /** Tenant or billing tenant name, plan name or Stripe customer id contains it; a number matches subscription and tenant ids. */
  search?: string;
  readAfter?: ReadAfter;
};

const adminFilter = async (
  db: Db,
  query: AdminSubscriptionsQuery,
): Promise<Filter<BillingSubscriptionDoc>> => {
  const and: Filter<BillingSubscriptionDoc>[] = [];
  if (query.classification !== undefined)
    and.push({ tenantId: { $in: await tenantIdsWhere(db, { classification: query.classification }) } });
  if (query.planIdentifiers && query.planIdentifiers.length > 0)
    and.push({ planIdentifier: { $in: [...query.planIdentifiers] } });
  if (query.paymentStatuses && query.paymentStatuses.length > 0)
    and.push({ paymentStatus: { $in: [...query.paymentStatuses] } });
  if (hasSearch(query.search)) {
    const pattern = containsText(query.search);
    const or: Filter<BillingSubscriptionDoc>[] = [{ planName: pattern }, { stripeCustomerId: pattern }];
    const named = await tenantIdsWhere(db, { nameContains: query.search });
    or.push({ tenantId: { $in: named } }, { billingTenantId: { $in: named } });
    const id = idInSearch(query.search);
    if (id !== null) or.push({ _id: id }, { tenantId: id }, { billingTenantId: id });
    and.push({ $or: or });
  }
  return and.length === 0 ? {} : { $and: and };
};

/** The admin subscriptions list, newest first, with tenant and billing tenant. */
export const listAdminSubscriptions = async (
  db: Db,
  query: AdminSubscriptionsQuery,
): Promise<{ rows: AdminBillingSubscriptionView[]; total: number; filtered: number; stale: boolean }> => {
  const stale = await waitUntilRead(db, BILLING_SUBSCRIPTIONS, query.readAfter);
  const collection = await subscriptions(db);
  const filter = await adminFilter(db, query);
  const [docs, total, filtered] = await Promise.all([
    collection.find(filter).sort({ _id: -1 }).toArray(),
    collection.countDocuments({}),
    collection.countDocuments(filter),
  ]);
  const tenants = await tenantSummaries(
    db,
    docs.flatMap((doc) => [doc.tenantId, doc.billingTenantId]),
  );
  const rows = docs.map((doc): AdminBillingSubscriptionView => {
    const tenant = tenants.get(doc.tenantId);
    const billingTenant = tenants.get(doc.billingTenantId);
    return {
      ...toSubscriptionView(doc, query.now),
      Tenant: {
        Id: doc.tenantId,
        Name: tenant?.Name ?? null,
        Classification: tenant?.Classification ?? null,
      },
      BillingTenant: {
        Id: doc.billingTenantId,
        Name: billingTenant?.Name ?? null,
        UsageType: billingTenant?.UsageType ?? null,
      },
    };
  });
  return { rows, total, filtered, stale };
};

/**
 * Subscriptions per plan id (the plans table's Subscriptions column): those on the plan now, leaving
 * out canceled ones. Plans without any are absent from the map.
 */
export const countSubscriptionsByPlan = async (
  db: Db,
  planIds: readonly number[],
): Promise<Map<number, number>> => {
  if (planIds.length === 0) return new Map();
  const groups = await (
    await subscriptions(db)
  )
    .aggregate<{ _id: number; count: number }>([
      { $match: { planId: { $in: [...planIds] }, paymentStatus: { $ne: 'canceled' } } },
      { $group: { _id: '$planId', count: { $sum: 1 } } },
    ])
    .toArray();
  return new Map(groups.map((group) => [group._id, group.count]));
};

/** The Quickstart pack prefix of portal.md section 3. */
const quickstartPrefix = 'plans/business/client_nurturing/packaged';

/**
 * Quickstart counts of a paying tenant (portal.md section 3): purchased from its plan's licensed
 * quantity and its counting pack products, used as the Quickstart (free_client) clients it pays for.
 * Null when it has no packs.
 */
export const quickstartCounts = async (
  db: Db,
  query: {
    tenantId: number;
    subscription: BillingSubscriptionView;
    planProducts: readonly { Identifier: string; LicensedQuantity: number | null }[];
  },
): Promise<{ used: number; purchased: number } | null> => {
  const fromPlan = query.planProducts
    .filter((product) => product.Identifier.startsWith(quickstartPrefix))
    .reduce((sum, product) => sum + (product.LicensedQuantity ?? 0), 0);
  const packs = query.subscription.SubscriptionProducts.filter((product) =>
    product.Identifier.startsWith(quickstartPrefix),
  );
  const hasPacks =
    packs.length > 0 || query.planProducts.some((product) => product.Identifier.startsWith(quickstartPrefix));
  if (!hasPacks) return null;
  const purchased = fromPlan + packs.reduce((sum, product) => sum + product.Quantity, 0);
  const used = await (
    await subscriptions(db)
  ).countDocuments({
    billingTenantId: query.tenantId,
    tenantId: { $ne: query.tenantId },
    planIdentifier: 'free_client',
    paymentStatus: { $ne: 'canceled' },
  });
  return { used, purchased };
};
