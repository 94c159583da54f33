import type { Db } from 'mongodb';
import type { IntegrationProduct, IntegrationProvider } from '../../../contracts/events/integration';
import type { SellerProvider } from '../../../contracts/events/seller';
import { getTenantSubscription } from '../../../projections/billing/query-billing-subscriptions';
import { getPlanByIdentifier } from '../../../projections/plans/query-plans';
import { tenantsCollection } from '../../../projections/tenants/tenant-view';

/**
 * The plan-gated connections (portal.md section 6, "Upgrade plan to access"), as product identifiers
 * in the spec's group/feature form (docs/adr/0016-credential-vault.md records the names). A platform
 * missing here is open to every plan.
 */
const gatedFeatures: Partial<Record<string, string>> = {
  QBD: 'platforms/qbd_web_connector',
  SAGE: 'platforms/sage',
  HUBSPOT: 'integrations/hubspot',
  'HUBSPOT:REVOPS': 'integrations/hubspot_revops',
  SALESFORCE: 'integrations/salesforce',
  ACTIVE_CAMPAIGN: 'integrations/active_campaign',
};

export const featureOf = (
  provider: SellerProvider | IntegrationProvider,
  product: IntegrationProduct | null = null,
): string | null => gatedFeatures[product ? `${provider}:${product}` : provider] ?? null;

/**
 * portal.md section 6: "Demo tenants have all enabled" (what a demo may connect at all is decided
 * apart: connection is disabled on demo, HubSpot with its own hint). The Demo Client has no subscription.
 */
const isDemoTenant = async (db: Db, tenantId: number): Promise<boolean> => {
  const tenants = await tenantsCollection(db);
  const tenant = await tenants.findOne({ _id: tenantId }, { projection: { UsageType: 1 } });
  return tenant?.UsageType === 'DEMO';
};

/**
 * Every plan-gated feature the tenant has (GET /api/tenants/{id}/features), for the connect cards:
 * its plan's products and the active products added to its subscription; a demo tenant has them all.
 */
export const planFeatures = async (db: Db, query: { tenantId: number; now: Date }): Promise<string[]> => {
  const gated = new Set(Object.values(gatedFeatures));
  if (await isDemoTenant(db, query.tenantId)) return [...gated].filter((f) => f !== undefined).sort();
  const { subscription } = await getTenantSubscription(db, { tenantId: query.tenantId, now: query.now });
  // A canceled subscription (at its end date, or by Stripe) unlocks nothing any more.
  if (!subscription || subscription.PaymentStatus === 'canceled') return [];
  const plan = await getPlanByIdentifier(db, { identifier: subscription.Plan.Identifier });
  const identifiers = [
    ...subscription.SubscriptionProducts.map((product) => product.Identifier),
    ...(plan?.Products.map((product) => product.Identifier) ?? []),
  ];
  return [...new Set(identifiers.filter((identifier) => gated.has(identifier)))].sort();
};

/**
 * Whether the tenant's plan includes the platform: its plan's products, or a product added to its
 * subscription (counted only while active and not expired). No subscription, or a canceled one,
 * means no gated platform.
 */
export const planAllows = async (
  db: Db,
  query: { tenantId: number; feature: string | null; now: Date },
): Promise<boolean> =>
  query.feature === null ||
  (await planFeatures(db, { tenantId: query.tenantId, now: query.now })).includes(query.feature);
