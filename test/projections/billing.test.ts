import type { BillingPlan } from '../../contracts/events/billing';
import { tenantSubject } from '../../commands/personal-data';
import { billingDecider } from '../../domain/billing/billing-decider';
import type { BillingCommand } from '../../domain/billing/decide';
import { billingSubscriptionsProjection } from '../../projections/billing/billing-projection';
import {
  countSubscriptionsByPlan,
  getTenantSubscription,
  listAdminSubscriptions,
} from '../../projections/billing/query-billing-subscriptions';
import { tenantsProjection } from '../../projections/tenants/tenants-projection';
import { platformAdmin, useReadModelKit } from './read-model-kit';
import { billingStream } from '../../contracts/stream-ids';

const kit = useReadModelKit(__filename, billingSubscriptionsProjection, [tenantsProjection]);
const { context } = kit;

/** Commands run on the 5th; the tables are looked at on the 10th. */
const commandTime = new Date('2026-01-05T09:00:00.000Z');
const now = new Date('2026-01-10T12:00:00.000Z');

const growth: BillingPlan = { id: 4, name: 'Growth', identifier: 'growth_business' };
const free: BillingPlan = { id: 1, name: 'Free', identifier: 'free_business' };
const quickstart: BillingPlan = { id: 2, name: 'Quickstart', identifier: 'free_client' };
const lite: BillingPlan = { id: 3, name: 'Lite', identifier: 'basic_client' };

type Data<T extends BillingCommand['type']> = Extract<BillingCommand, { type: T }>['data'];
const billing = <T extends BillingCommand['type']>(id: number, type: T, data: Data<T>) =>
  kit.run(billingDecider, billingStream(id), { type, data, now: commandTime } as BillingCommand);

const start = (id: number, tenantId: number, details: Partial<Data<'StartBillingSubscription'>>) =>
  billing(id, 'StartBillingSubscription', {
    subscriptionId: id,
    tenantId,
    billingTenantId: tenantId,
    plan: growth,
    trialDays: 0,
    paymentMethod: null,
    ...details,
  });

const update = (id: number, tenantId: number, changes: Partial<Data<'UpdateBillingSubscription'>>) =>
  billing(id, 'UpdateBillingSubscription', {
    tenantId,
    actor: platformAdmin,
    tenantIsDemo: false,
    ...changes,
  });

const cancel = (id: number, changes: Partial<Data<'CancelBillingSubscription'>>) =>
  billing(id, 'CancelBillingSubscription', {
    intent: 'cancel',
    reason: 'LOWER_COSTS',
    details: null,
    confirmed: true,
    downgradeTo: null,
    currentPeriodEndsAt: new Date('2026-01-31T00:00:00.000Z'),
    actor: platformAdmin,
    tenantIsDemo: false,
    ...changes,
  });

const ids = (rows: readonly { Id: number }[]) => rows.map((row) => row.Id);

beforeAll(async () => {
  await kit.tenant(1, 'CreateTenant', { tenantId: 1, name: 'Hopper Bakery', classification: 'BUSINESS' });
  await kit.tenant(2, 'CreateTenant', { tenantId: 2, name: 'Lovelace Advisory', classification: 'FIRM' });
  await kit.tenant(3, 'CreateTenant', { tenantId: 3, name: 'Turing Tools', classification: 'BUSINESS' });
  await kit.tenant(4, 'CreateTenant', { tenantId: 4, name: 'Noether Labs', classification: 'BUSINESS' });

  // Hopper: a 14-day trial with a product, an expired quickstart pack, and a product removed.
  await start(101, 1, { trialDays: 14 });
  await update(101, 1, {
    products: [
      { identifier: 'reports/customer_sheet', quantity: 1 },
      { identifier: 'sync.cloud/google', quantity: 2 },
      {
        identifier: 'plans/business/client_nurturing/packaged',
        quantity: 5,
        expiresAt: new Date('2026-01-09T00:00:00.000Z'),
      },
      { identifier: 'reports/product_sheet', quantity: 1 },
    ],
  });
  await update(101, 1, { products: [{ identifier: 'reports/product_sheet', delete: true }] });

  // Lovelace (a firm): Quickstart paid by card through Stripe, payment now past due.
  await start(102, 2, { plan: quickstart, paymentMethod: 'card' });
  await billing(102, 'LinkStripeCustomer', { stripeCustomerId: 'cus_lovelace' });
  await billing(102, 'RecordPaymentStatus', { paymentStatus: 'past_due' });

  // Turing: a client billed to the firm, cancelling at the end of the month; a later plan change
  // leaves the cancellation in place.
  await start(103, 3, { plan: lite, billingTenantId: 2, paymentMethod: 'send_invoice' });
  await cancel(103, { reason: 'OTHER', details: 'Moving to a spreadsheet' });
  await update(103, 3, { plan: quickstart });

  // Noether: a downgrade scheduled and then carried out, which ends it.
  await start(104, 4, { paymentMethod: 'manual' });
  await cancel(104, { intent: 'downgrade', reason: 'NEEDS', downgradeTo: free });
  await kit.catchUp();
});

describe('a tenant’s billing subscription', () => {
  it('shows the plan, dates, payment and the products that count, with the trial days left', async () => {
    const { subscription, stale } = await getTenantSubscription(context.db, { tenantId: 1, now });

    expect(stale).toBe(false);
    expect(subscription).toMatchObject({
      Id: 101,
      TenantId: 1,
      BillingTenantId: 1,
      Direct: true,
      Plan: { Id: 4, Name: 'Growth', Identifier: 'growth_business' },
      StartedAt: '2026-01-19T09:00:00.000Z',
      InactiveAt: null,
      PaymentStatus: 'trialing',
      PaymentMethod: null,
      StripeCustomerId: null,
      ScheduledCancellation: null,
      // 8 days and 21 hours from the 10th at noon to the 19th at 9: whole days.
      TrialDaysRemaining: 8,
      TrialEndEditable: true,
    });
    expect(subscription?.SubscriptionProducts.map((p) => [p.Identifier, p.Quantity])).toEqual([
      ['reports/customer_sheet', 1],
      ['sync.cloud/google', 2],
    ]);
    // The expired pack stays visible to the admin form; the removed product is gone.
    expect(subscription?.AllProducts.map((p) => p.Identifier)).toEqual([
      'plans/business/client_nurturing/packaged',
      'reports/customer_sheet',
      'sync.cloud/google',
    ]);
  });

  it('has no trial days outside a trial, and no subscription for a tenant without one', async () => {
    const firm = (await getTenantSubscription(context.db, { tenantId: 2, now })).subscription;
    expect(firm).toMatchObject({
      TrialDaysRemaining: 0,
      TrialEndEditable: false,
      StripeCustomerId: 'cus_lovelace',
    });
    expect((await getTenantSubscription(context.db, { tenantId: 5, now })).subscription).toBeNull();
    await expect(getTenantSubscription(context.db, { tenantId: Number.NaN, now })).rejects.toThrow(
      'Invalid subscription tenantId supplied.',
    );
  });

  it('keeps a scheduled cancellation across a plan change, and ends a downgrade once the plan changes', async () => {
    const turing = (await getTenantSubscription(context.db, { tenantId: 3, now })).subscription;
    expect(turing).toMatchObject({
      Id: 103,
      Direct: false,
      Plan: { Identifier: 'free_client' },
      InactiveAt: '2026-01-31T00:00:00.000Z',
      ScheduledCancellation: { Intent: 'cancel', Reason: 'OTHER', Details: 'Moving to a spreadsheet' },
    });

    const scheduled = (await getTenantSubscription(context.db, { tenantId: 4, now })).subscription;
    expect(scheduled?.ScheduledCancellation).toMatchObject({ Intent: 'downgrade', DowngradeTo: free });
    await update(104, 4, { plan: free });
    await kit.catchUp();
    const downgraded = (await getTenantSubscription(context.db, { tenantId: 4, now })).subscription;
    expect(downgraded).toMatchObject({ Plan: { Identifier: 'free_business' }, ScheduledCancellation: null });
  });
});

describe('the admin subscriptions list', () => {
  it('lists every subscription newest first with tenant and billing tenant', async () => {
    const page = await listAdminSubscriptions(context.db, { now });

    expect(ids(page.rows)).toEqual([104, 103, 102, 101]);
    expect([page.total, page.filtered]).toEqual([4, 4]);
    expect(page.rows.find((row) => row.Id === 103)).toMatchObject({
      Tenant: { Id: 3, Name: 'Turing Tools', Classification: 'BUSINESS' },
      BillingTenant: { Id: 2, Name: 'Lovelace Advisory', UsageType: 'NORMAL' },
    });
  });

  it('filters by classification, plan and payment status', async () => {
    const query = (filters: Omit<Parameters<typeof listAdminSubscriptions>[1], 'now'>) =>
      listAdminSubscriptions(context.db, { now, ...filters }).then((page) => [ids(page.rows), page.filtered]);

    expect(await query({ classification: 'FIRM' })).toEqual([[102], 1]);
    expect(await query({ classification: 'BUSINESS' })).toEqual([[104, 103, 101], 3]);
    expect(await query({ planIdentifiers: ['free_client'] })).toEqual([[103, 102], 2]);
    expect(await query({ paymentStatuses: ['trialing'] })).toEqual([[101], 1]);
    expect(await query({ paymentStatuses: ['past_due'], classification: 'BUSINESS' })).toEqual([[], 0]);
  });

  it('searches tenant and billing tenant names, plan names, Stripe customers and ids', async () => {
    const search = (text: string) =>
      listAdminSubscriptions(context.db, { now, search: text }).then((page) => ids(page.rows));

    expect(await search('lovelace')).toEqual([103, 102]);
    expect(await search('GROWTH')).toEqual([101]);
    expect(await search('cus_love')).toEqual([102]);
    expect(await search('104')).toEqual([104]);
  });

  it('counts subscriptions per plan for the plans table', async () => {
    expect(Object.fromEntries(await countSubscriptionsByPlan(context.db, [1, 2, 3, 4]))).toEqual({
      1: 1,
      2: 2,
      4: 1,
    });
  });
});

describe('the billing subscriptions read model', () => {
  it('gives identical documents when every event is delivered again, and when rebuilt', async () => {
    await kit.expectStableUnderRedeliveryAndRebuild();
  });

  it('removes a permanently purged tenant’s subscription', async () => {
    await kit.tenant(3, 'DisableTenant', { reason: 'STOPPED_PAYING' });
    await kit.tenant(3, 'PurgeTenant', { permanent: true });
    await context.keys.erase(tenantSubject(3));
    await kit.catchUp();

    expect((await getTenantSubscription(context.db, { tenantId: 3, now })).subscription).toBeNull();
    expect(ids((await listAdminSubscriptions(context.db, { now })).rows)).toEqual([104, 102, 101]);
    const live = await kit.checksums();
    await kit.rebuild();
    expect(await kit.checksums()).toEqual(live);
  });
});
