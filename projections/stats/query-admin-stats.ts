import type { Db } from 'mongodb';
import type { PaymentStatus } from '../../contracts/events/billing';
import type { UsageType } from '../../contracts/events/tenant';
import { BILLING_SUBSCRIPTIONS } from '../billing/billing-projection';
import { billingSubscriptionsCollection } from '../billing/query-billing-subscriptions';
import { PARTNERS } from '../partners/partners-projection';
import { SELLERS } from '../sellers/sellers-projection';
import { queryTenantSummary } from '../tenants/query-tenants';
import { sellerTotals } from '../tenants/sellers-read-model';
import { partnersCollection, tenantsCollection } from '../tenants/tenant-view';
import { TENANTS } from '../tenants/tenants-projection';
import { waitForReadModels, type Consistency } from '../wait-for-read-models';

/**
 * Customers (T36M), invoices (T36M) and invoice revenue come from the ledger, whose read models arrive
 * with a later issue. Until then they are reported as 0, typed apart so callers can tell.
 */
export type LedgerTotals = { customers: 0; invoices: 0; invoiceRevenue: 0 };
const ledgerTotalsPending: LedgerTotals = { customers: 0, invoices: 0, invoiceRevenue: 0 };

/** The admin dashboard's counts (admin.md: Admin dashboard, Stats response). */
export type AdminStats = LedgerTotals & {
  partners: number;
  activeSellers: number;
  inactiveSellers: number;
  businesses: number;
  firms: number;
  /** Paid by the tenant itself, trials left out. */
  directSubscriptions: number;
  /** Paid by another tenant (an advisory firm paying for its client), trials left out. */
  channelSubscriptions: number;
  /** Trialing with a StartedAt still in the future. */
  trialSubscriptions: number;
};

/** Subscriptions that ended or never started count for nothing. */
const ended: PaymentStatus[] = ['canceled', 'incomplete_expired'];
/** TEST tenants are not billed, and the demo tenant's subscription is not a customer's. */
const notCustomers: UsageType[] = ['TEST', 'DEMO'];

type SubscriptionCounts = Pick<
  AdminStats,
  'directSubscriptions' | 'channelSubscriptions' | 'trialSubscriptions'
>;

/** Subscriptions of tenants that are active and billable, split into direct, channel and trial. */
const subscriptionCounts = async (db: Db, now: Date): Promise<SubscriptionCounts> => {
  const tenants = await (
    await tenantsCollection(db)
  )
    .find({ status: 'active', UsageType: { $nin: notCustomers } }, { projection: { _id: 1 } })
    .toArray();
  const billable = new Set(tenants.map((tenant) => tenant._id));
  // Direct or channel compares two fields of one document: counted here, not with $expr.
  const subscriptions = await (
    await billingSubscriptionsCollection(db)
  )
    .find(
      { paymentStatus: { $nin: ended } },
      { projection: { tenantId: 1, billingTenantId: 1, paymentStatus: 1, startedAt: 1 } },
    )
    .toArray();
  const counts: SubscriptionCounts = {
    directSubscriptions: 0,
    channelSubscriptions: 0,
    trialSubscriptions: 0,
  };
  for (const subscription of subscriptions) {
    if (!billable.has(subscription.tenantId)) continue;
    if (subscription.paymentStatus === 'trialing' && subscription.startedAt > now)
      counts.trialSubscriptions += 1;
    else if (subscription.billingTenantId === subscription.tenantId) counts.directSubscriptions += 1;
    else counts.channelSubscriptions += 1;
  }
  return counts;
};

/**
 * GET /api/stats. `now` tells trials from running subscriptions (a trial's StartedAt is its end);
 * it comes from the caller, so the answer is reproducible (and testable) for a given time.
 */
export const queryAdminStats = async (
  db: Db,
  query: Consistency & { now: Date },
): Promise<AdminStats & { stale: boolean }> => {
  const stale = await waitForReadModels(db, [TENANTS, SELLERS, PARTNERS, BILLING_SUBSCRIPTIONS], query);
  const [partners, sellers, summary, subscriptions] = await Promise.all([
    (await partnersCollection(db)).countDocuments({}),
    sellerTotals(db),
    queryTenantSummary(db),
    subscriptionCounts(db, query.now),
  ]);
  return {
    ...ledgerTotalsPending,
    partners,
    activeSellers: sellers.active,
    inactiveSellers: sellers.inactive,
    businesses: summary.businesses,
    firms: summary.firms,
    ...subscriptions,
    stale,
  };
};
