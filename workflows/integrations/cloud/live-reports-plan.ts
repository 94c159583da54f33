import type { Db } from 'mongodb';
import type { ManagedReportType } from '../../../contracts/events/job';
import { getTenantSubscription } from '../../../projections/billing/query-billing-subscriptions';
import { getPlanByIdentifier } from '../../../projections/plans/query-plans';
import { tenantsCollection } from '../../../projections/tenants/tenant-view';

/** portal.md section 6: sync-to-cloud, and for the customer sheet the customer-sheet feature too. */
export const cloudSyncFeature = 'cloud/sync';
export const customerSheetFeature = 'reports/customer_sheet';

/**
 * The live reports the tenant's plan allows: none without sync-to-cloud; the AR forecast sheet with it;
 * the customer sheet when the plan also has the customer sheet. The plan's products and the active
 * products added to its subscription count, as for the connect cards (plan-features.ts); a demo
 * tenant has every feature, a canceled subscription none.
 */
export const liveReportTypesAllowed = async (
  db: Db,
  query: { tenantId: number; now: Date },
): Promise<ManagedReportType[]> => {
  const tenant = await (
    await tenantsCollection(db)
  ).findOne({ _id: query.tenantId }, { projection: { UsageType: 1 } });
  let features: Set<string>;
  if (tenant?.UsageType === 'DEMO') features = new Set([cloudSyncFeature, customerSheetFeature]);
  else {
    const { subscription } = await getTenantSubscription(db, { tenantId: query.tenantId, now: query.now });
    if (!subscription || subscription.PaymentStatus === 'canceled') return [];
    const plan = await getPlanByIdentifier(db, { identifier: subscription.Plan.Identifier });
    features = new Set([
      ...subscription.SubscriptionProducts.map((product) => product.Identifier),
      ...(plan?.Products.map((product) => product.Identifier) ?? []),
    ]);
  }
  if (!features.has(cloudSyncFeature)) return [];
  return features.has(customerSheetFeature) ? ['CUSTOMER_SHEET', 'AR_FORECAST_SHEET'] : ['AR_FORECAST_SHEET'];
};
