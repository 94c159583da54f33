import type { EventStore } from '../../commands/event-store/event-store';
import { billingSubscriptionsProjection } from '../../projections/billing/billing-projection';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { queryAdminStats } from '../../projections/stats/query-admin-stats';
import { partnersProjection } from '../../projections/partners/partners-projection';
import { sellersProjection } from '../../projections/sellers/sellers-projection';
import { tenantsProjection } from '../../projections/tenants/tenants-projection';
import { platformAdmin, portalCommands } from './portal-commands';
import { useProjectionTestSetup } from './projection-test-setup';

const { context, openStore } = useProjectionTestSetup(__filename);

let store: EventStore;

const catchUp = () =>
  Promise.all(
    [tenantsProjection, sellersProjection, partnersProjection, billingSubscriptionsProjection].map(
      (projection) =>
        new ProjectionProcessor({ db: context.db, store, decode: context.decode, projection }).catchUp(),
    ),
  );

// The commands run on 2026-01-05; the trial of subscription 502 ends on 2026-02-01.
const during = new Date('2026-01-10T00:00:00.000Z');
const after = new Date('2026-03-01T00:00:00.000Z');

beforeAll(async () => {
  store = openStore();
  const c = portalCommands(store, context.keys);
  const business = (id: number, name: string) =>
    c.createTenant(id, { name, classification: 'BUSINESS' }, null);
  await business(1, 'Acme');
  await c.createTenant(2, { name: 'Baker Advisors', classification: 'FIRM' }, null);
  await business(3, 'Client of Baker');
  await c.createTenant(4, { name: 'Test Co', classification: 'BUSINESS', usageType: 'TEST' }, null);
  await business(5, 'Churned Co');
  await c.createTenant(6, { name: 'Demo Client', classification: 'BUSINESS', usageType: 'DEMO' }, null);
  await business(7, 'Disabled Co');
  await business(8, 'Late Trial Co');
  await c.createTenant(9, { name: 'Cole Advisory', classification: 'FIRM' }, null);
  await c.tenant(7, { type: 'DisableTenant', actor: platformAdmin, data: { reason: 'STOPPED_PAYING' } });

  await c.createPartner(61, 2, 'Baker Partners');
  await c.createPartner(62, 9, 'Cole Partners');

  const trialEnd = new Date('2026-02-01T00:00:00.000Z');
  await c.startSubscription(501, { tenantId: 1, billingTenantId: 1, plan: 'growth_business' });
  await c.startSubscription(502, { tenantId: 2, billingTenantId: 2, plan: 'advisor', trialEndsAt: trialEnd });
  await c.startSubscription(503, { tenantId: 3, billingTenantId: 2, plan: 'growth_client' });
  await c.startSubscription(504, { tenantId: 4, billingTenantId: 4, plan: 'growth_business' });
  await c.startSubscription(505, { tenantId: 5, billingTenantId: 5, plan: 'growth_business' });
  await c.append('billing-505', 'BillingPaymentStatusChanged', {
    subscriptionId: 505,
    paymentStatus: 'canceled',
  });
  await c.startSubscription(506, { tenantId: 6, billingTenantId: 6, plan: 'growth_business' });
  await c.startSubscription(507, { tenantId: 7, billingTenantId: 7, plan: 'growth_business' });
  // Still marked trialing, but its trial ended before the dashboard is looked at.
  await c.startSubscription(508, {
    tenantId: 8,
    billingTenantId: 8,
    plan: 'growth_business',
    trialEndsAt: new Date('2026-01-07T00:00:00.000Z'),
  });

  await c.connectSeller(901, 1, 'QBO');
  await c.connectSeller(902, 1, 'XERO');
  await c.connectSeller(903, 3, 'SAGE');
  await c.connectSeller(904, 3, 'QBD');
  await c.deactivateSeller(904);
  await c.connectSeller(905, 5, 'QBO');
  await c.disconnectSeller(905);
  await c.connectSeller(906, 5, 'STRIPE');
  await c.deleteSeller(906);
  await catchUp();
});

describe('the admin overview statistics', () => {
  it('counts partners, active and inactive sellers, businesses and firms', async () => {
    expect(await queryAdminStats(context.db, { now: during })).toMatchObject({
      partners: 2,
      activeSellers: 3,
      inactiveSellers: 2,
      // Disabled tenants still count; purged ones would not.
      businesses: 7,
      firms: 2,
      stale: false,
    });
  });

  it('splits running subscriptions into direct, channel and trial, leaving out test, demo, disabled and cancelled ones', async () => {
    expect(await queryAdminStats(context.db, { now: during })).toMatchObject({
      directSubscriptions: 2,
      channelSubscriptions: 1,
      trialSubscriptions: 1,
    });
    expect(await queryAdminStats(context.db, { now: after })).toMatchObject({
      directSubscriptions: 3,
      channelSubscriptions: 1,
      trialSubscriptions: 0,
    });
  });

  it('reports the ledger totals as zero until the ledger read models exist', async () => {
    expect(await queryAdminStats(context.db, { now: during })).toMatchObject({
      customers: 0,
      invoices: 0,
      invoiceRevenue: 0,
    });
  });
});
