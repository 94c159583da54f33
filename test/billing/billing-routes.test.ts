import {
  AdminSubscriptionsResponse,
  BillingSessionResponse,
  BillingSubscription,
  PlansResponse,
  ProductsResponse,
  TenantSubscriptionResponse,
  billingMessages,
} from '../../contracts/api/billing';
import { TenantFeaturesResponse } from '../../contracts/api/features';
import { Tenant } from '../../contracts/api/tenants';
import { ErrorResponse } from '../../contracts/errors';
import { applyPlanCatalogue } from '../../workflows/billing/plan-catalogue';
import { applyDueCancellations } from '../../workflows/billing/scheduled-changes';
import { platformAdmin } from '../gateway/fixtures';
import type { Browser } from '../gateway/gateway-world';
import { useGatewayWorld } from '../gateway/gateway-world';
import { makeDemo } from '../gateway/platform-fixtures';
import { joinAs, person } from '../gateway/team-fixtures';

const world = useGatewayWorld(__filename);
const dayMs = 24 * 60 * 60 * 1000;
let admin: Awaited<ReturnType<typeof platformAdmin>>;
let plans: Map<string, number>;
let count = 0;

beforeAll(async () => {
  await applyPlanCatalogue(world.services.writeSide, { now: world.clock.now() });
  await world.settle();
  admin = await platformAdmin(world);
  const listed = PlansResponse.parse((await admin.browser.get('/api/billing/plans')).json());
  plans = new Map(listed.plans.map((plan) => [plan.Identifier, plan.Id]));
});

/** A signed-in owner of a new business, switched into it, with its subscription. */
const business = async () => {
  count += 1;
  const owner = await person(world, { name: `billing-owner${count}` });
  const created = await owner.browser.post('/api/tenants', {
    Name: `Billing Co ${count}`,
    Industry: { FreeForm: 'Bakery' },
    Classification: 'BUSINESS',
  });
  const tenantId = Tenant.parse(created.json()).Id;
  await owner.browser.post('/api/auth/switchTenant', { tenantId });
  await world.settle();
  return { owner, tenantId };
};

const subscriptionOf = async (browser: Browser, tenantId: number | string) =>
  TenantSubscriptionResponse.parse((await browser.get(`/api/billing/subscriptions/${tenantId}`)).json());

const errorOf = (response: { json: () => unknown }) => ErrorResponse.parse(response.json());

describe('the tenant’s subscription', () => {
  it('shows a new company its trial, and refuses billing changes without a numeric tenant id', async () => {
    const { owner, tenantId } = await business();
    const { Subscription, Demo, PaymentMethodProvided } = await subscriptionOf(owner.browser, tenantId);
    expect(Demo).toBe(false);
    expect(PaymentMethodProvided).toBe(false);
    expect(Subscription).toMatchObject({
      Plan: { Identifier: 'growth_business' },
      PaymentStatus: 'trialing',
    });
    expect(Subscription?.TrialDaysRemaining).toBe(13);

    const bad = await owner.browser.get('/api/billing/subscriptions/12abc');
    expect([bad.statusCode, errorOf(bad).message]).toEqual([422, billingMessages.invalidTenantId]);
    const session = await owner.browser.post('/api/billing/session', { tenantId: 'x1' });
    expect([session.statusCode, errorOf(session).message]).toEqual([422, billingMessages.invalidTenantId]);
  });

  it('lets the company admin change its own plan, which moves the gated connectors, but not its products', async () => {
    const { owner, tenantId } = await business();
    const features = async () =>
      TenantFeaturesResponse.parse((await owner.browser.get(`/api/tenants/${tenantId}/features`)).json())
        .Features;
    expect(await features()).toContain('platforms/sage');

    const changed = await owner.browser.patch(`/api/billing/subscriptions/${tenantId}`, {
      TenantId: tenantId,
      PlanId: plans.get('free_business'),
    });
    expect(changed.statusCode).toBe(200);
    expect(BillingSubscription.parse(changed.json()).Plan.Identifier).toBe('free_business');
    expect(await features()).toEqual([]);

    const products = await owner.browser.patch(`/api/billing/subscriptions/${tenantId}`, {
      TenantId: tenantId,
      Products: [{ Identifier: 'platforms/sage', Quantity: 1 }],
    });
    expect(products.statusCode).toBe(403);
    const mismatch = await owner.browser.patch(`/api/billing/subscriptions/${tenantId}`, {
      TenantId: tenantId + 1,
      PlanId: plans.get('growth_business'),
    });
    expect([mismatch.statusCode, errorOf(mismatch).message]).toEqual([422, billingMessages.invalidTenantId]);
  });

  it('lets a platform admin edit products, trial end and payment method, within the spec’s bounds', async () => {
    const { tenantId } = await business();
    await admin.browser.post('/api/auth/switchTenant', { tenantId });
    const url = `/api/billing/subscriptions/${tenantId}`;
    const yesterday = new Date(world.clock.now().getTime() - dayMs).toISOString();
    const inTenDays = new Date(world.clock.now().getTime() + 10 * dayMs).toISOString();

    const edited = await admin.browser.patch(url, {
      TenantId: tenantId,
      PlanId: plans.get('free_business'),
      StartedAt: inTenDays,
      PaymentMethod: 'manual',
      Products: [
        { Identifier: 'platforms/sage', Quantity: 2 },
        { Identifier: 'integrations/salesforce', Quantity: 1, ExpiresAt: yesterday },
      ],
    });
    expect(edited.statusCode).toBe(200);
    const subscription = BillingSubscription.parse(edited.json());
    expect(subscription).toMatchObject({ PaymentMethod: 'manual', StartedAt: inTenDays });
    expect((await subscriptionOf(admin.browser, tenantId)).PaymentMethodProvided).toBe(true);
    expect(subscription.TrialDaysRemaining).toBe(9);
    // The expired row is kept for the admin form but does not count.
    expect(subscription.SubscriptionProducts.map((p) => p.Identifier)).toEqual(['platforms/sage']);
    expect(subscription.AllProducts.map((p) => p.Identifier)).toEqual([
      'integrations/salesforce',
      'platforms/sage',
    ]);
    const features = TenantFeaturesResponse.parse(
      (await admin.browser.get(`/api/tenants/${tenantId}/features`)).json(),
    );
    expect(features.Features).toEqual(['platforms/sage']);

    const deleted = await admin.browser.patch(url, {
      TenantId: tenantId,
      Products: [{ Identifier: 'platforms/sage', Delete: true }],
    });
    expect(BillingSubscription.parse(deleted.json()).SubscriptionProducts).toEqual([]);

    const today = await admin.browser.patch(url, {
      TenantId: tenantId,
      StartedAt: world.clock.now().toISOString(),
    });
    expect(today.statusCode).toBe(422);
    expect(errorOf(today).properties).toEqual({ startedAt: 'The start date must be after today.' });
    const tooMany = await admin.browser.patch(url, {
      TenantId: tenantId,
      Products: [{ Identifier: 'platforms/sage', Quantity: 10_001 }],
    });
    expect(tooMany.statusCode).toBe(422);
    const unknown = await admin.browser.patch(url, {
      TenantId: tenantId,
      Products: [{ Identifier: 'platforms/teleport', Quantity: 1 }],
    });
    expect([unknown.statusCode, errorOf(unknown).message]).toEqual([422, billingMessages.unknownProduct]);
  });

  it('keeps billing off for a demo tenant, with the spec’s texts', async () => {
    const { owner, tenantId } = await business();
    await makeDemo(world, tenantId);
    expect(await subscriptionOf(owner.browser, tenantId)).toEqual({
      Subscription: null,
      Demo: true,
      Quickstart: null,
      PaymentMethodProvided: false,
    });
    await admin.browser.post('/api/auth/switchTenant', { tenantId });
    const update = await admin.browser.patch(`/api/billing/subscriptions/${tenantId}`, {
      TenantId: tenantId,
      PlanId: plans.get('free_business'),
    });
    expect([update.statusCode, errorOf(update).message]).toEqual([409, billingMessages.demoUpdate]);
    const portal = await owner.browser.post('/api/billing/session', { tenantId });
    expect([portal.statusCode, errorOf(portal).message]).toEqual([409, billingMessages.demoDisabled]);
  });
});

describe('Change Plan for an advisor’s client', () => {
  it('lets the firm that pays change its client’s plan, and not the client’s own admin', async () => {
    count += 1;
    const advisor = await person(world, { name: `payer${count}` });
    const firm = await advisor.browser.post('/api/tenants', {
      Name: `Paying Firm ${count}`,
      FriendlyName: `Paying Firm ${count}`,
      Industry: { FreeForm: 'Accounting' },
      Classification: 'FIRM',
    });
    const firmId = Tenant.parse(firm.json()).Id;
    await advisor.browser.post('/api/auth/switchTenant', { tenantId: firmId });
    const client = await advisor.browser.post('/api/tenants', {
      Name: `Paid Client ${count}`,
      Industry: { FreeForm: 'Bakery' },
      BusinessModel: 'B2C',
    });
    const clientId = Tenant.parse(client.json()).Id;
    await world.settle();
    expect((await subscriptionOf(advisor.browser, clientId)).Subscription).toMatchObject({
      BillingTenantId: firmId,
      Plan: { Identifier: 'free_client' },
    });

    const changed = await advisor.browser.patch(`/api/billing/subscriptions/${clientId}`, {
      TenantId: clientId,
      PlanId: plans.get('growth_client'),
    });
    expect(changed.statusCode).toBe(200);
    expect(BillingSubscription.parse(changed.json()).Plan.Identifier).toBe('growth_client');

    const clientAdmin = await person(world, { name: `client-admin${count}` });
    await joinAs(world, clientAdmin, { tenantId: clientId, role: 'ADMIN' });
    await clientAdmin.browser.post('/api/auth/switchTenant', { tenantId: clientId });
    const refused = await clientAdmin.browser.patch(`/api/billing/subscriptions/${clientId}`, {
      TenantId: clientId,
      PlanId: plans.get('expansion_client'),
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('Quickstart counts', () => {
  it('counts the firm’s Quickstart clients against its packs and asks for support at purchased minus one', async () => {
    count += 1;
    const advisor = await person(world, { name: `quickstart${count}` });
    const firm = await advisor.browser.post('/api/tenants', {
      Name: `Quickstart Firm ${count}`,
      FriendlyName: `Quickstart Firm ${count}`,
      Industry: { FreeForm: 'Accounting' },
      Classification: 'FIRM',
    });
    const firmId = Tenant.parse(firm.json()).Id;
    await advisor.browser.post('/api/auth/switchTenant', { tenantId: firmId });
    await world.settle();
    const counts = async () => (await subscriptionOf(advisor.browser, firmId)).Quickstart;
    // The advisor plan comes with a pack of 5.
    expect(await counts()).toEqual({ used: 0, purchased: 5, NeedsSupport: false });
    for (let client = 1; client <= 4; client += 1) {
      const added = await advisor.browser.post('/api/tenants', {
        Name: `QS Client ${count}.${client}`,
        Industry: { FreeForm: 'Bakery' },
        BusinessModel: 'B2C',
      });
      expect(added.statusCode).toBe(201);
    }
    await world.settle();
    expect(await counts()).toEqual({ used: 4, purchased: 5, NeedsSupport: true });
    // A company without packs has no counts.
    const { owner, tenantId } = await business();
    expect((await subscriptionOf(owner.browser, tenantId)).Quickstart).toBeNull();
  });
});

describe('the payment provider (stripe-mock)', () => {
  it('sends the admin to the billing portal, creating and linking the customer once', async () => {
    const { owner, tenantId } = await business();
    const first = await owner.browser.post('/api/billing/session', { tenantId });
    expect(first.statusCode).toBe(200);
    expect(BillingSessionResponse.parse(first.json()).url).toMatch(/^https?:\/\//);
    await world.settle();
    const linked = (await subscriptionOf(owner.browser, tenantId)).Subscription?.StripeCustomerId;
    expect(linked).toMatch(/^cus_/);
    await owner.browser.post('/api/billing/session', { tenantId });
    await world.settle();
    expect((await subscriptionOf(owner.browser, tenantId)).Subscription?.StripeCustomerId).toBe(linked);
  });

  it('resyncs the payment status from the provider for a platform admin only', async () => {
    const { owner, tenantId } = await business();
    const refused = await owner.browser.patch(`/api/billing/subscriptions/${tenantId}?resyncStripe=true`, {
      TenantId: tenantId,
      PlanId: plans.get('free_business'),
    });
    expect(refused.statusCode).toBe(403);
    // A refused request changes nothing, the plan it carried included.
    await world.settle();
    expect((await subscriptionOf(owner.browser, tenantId)).Subscription?.Plan.Identifier).toBe(
      'growth_business',
    );
    await admin.browser.post('/api/auth/switchTenant', { tenantId });
    const resynced = await admin.browser.patch(`/api/billing/subscriptions/${tenantId}?resyncStripe=true`, {
      TenantId: tenantId,
    });
    expect(resynced.statusCode).toBe(200);
    const subscription = BillingSubscription.parse(resynced.json());
    expect(subscription.StripeCustomerId).toMatch(/^cus_/);
    // stripe-mock's subscription fixture is active: the status read back replaces the trial.
    expect(subscription.PaymentStatus).toBe('active');
  });

  it('pushes the plan and billable products to a Stripe subscription on resync, recording its items', async () => {
    const { tenantId } = await business();
    await admin.browser.post('/api/auth/switchTenant', { tenantId });
    const url = `/api/billing/subscriptions/${tenantId}?resyncStripe=true`;
    const pushed = await admin.browser.patch(url, {
      TenantId: tenantId,
      Products: [{ Identifier: 'plans/business/client_nurturing/packaged', Quantity: 2, Active: true }],
    });
    expect(pushed.statusCode).toBe(200);
    const subscription = BillingSubscription.parse(pushed.json());
    expect(subscription.StripeMonthlySubscriptionId).toMatch(/^sub_/);
    // The billable pack is billed monthly on an item of its own; stripe-mock answers its fixture ids.
    const pack = subscription.AllProducts.find(
      (product) => product.Identifier === 'plans/business/client_nurturing/packaged',
    );
    expect(pack).toMatchObject({ Quantity: 2, BillingPeriod: 'month' });
    expect(pack?.StripePriceId).toMatch(/^price_/);
    expect(pack?.StripeSubscriptionItemId).toMatch(/^si_/);
    // A second resync updates the same provider subscription (no new one is created).
    const again = await admin.browser.patch(url, { TenantId: tenantId });
    expect(again.statusCode).toBe(200);
    expect(BillingSubscription.parse(again.json()).StripeMonthlySubscriptionId).toBe(
      subscription.StripeMonthlySubscriptionId,
    );
  });
});

describe('cancel or downgrade', () => {
  it('schedules the cancellation at the end of the trial, once, with a valid reason', async () => {
    const { owner, tenantId } = await business();
    const url = `/api/billing/subscriptions/${tenantId}/cancel`;
    const bad = await owner.browser.post(url, { Reason: 'BORED', Details: 'x', Confirmed: false });
    expect(bad.statusCode).toBe(422);
    expect(errorOf(bad).properties).toMatchObject({
      reason: 'Choose one of the reasons.',
      confirmed: 'Tick the box to confirm.',
    });

    const done = await owner.browser.post(url, {
      Reason: 'OTHER',
      Details: 'Moving to a spreadsheet',
      Confirmed: true,
    });
    expect(done.statusCode).toBe(200);
    const subscription = BillingSubscription.parse(done.json());
    expect(subscription.ScheduledCancellation).toMatchObject({
      Intent: 'cancel',
      Reason: 'OTHER',
      Details: 'Moving to a spreadsheet',
      EffectiveAt: subscription.StartedAt,
    });
    expect(subscription.InactiveAt).toBe(subscription.StartedAt);
    const again = await owner.browser.post(url, { Reason: 'NEEDS', Confirmed: true });
    expect(again.statusCode).toBe(409);
  });

  it('carries the cancellation out when its date comes, once', async () => {
    const { owner, tenantId } = await business();
    const done = await owner.browser.post(`/api/billing/subscriptions/${tenantId}/cancel`, {
      Reason: 'JUST_TESTING',
      Confirmed: true,
    });
    const effectiveAt = new Date(BillingSubscription.parse(done.json()).ScheduledCancellation!.EffectiveAt);
    await world.settle();
    const deps = { writeSide: world.services.writeSide, db: world.services.db };
    await applyDueCancellations(deps, new Date(effectiveAt.getTime() - 60_000));
    await world.settle();
    expect((await subscriptionOf(owner.browser, tenantId)).Subscription?.PaymentStatus).toBe('trialing');
    const after = new Date(effectiveAt.getTime() + 60_000);
    expect(await applyDueCancellations(deps, after)).toBeGreaterThanOrEqual(1);
    await world.settle();
    expect((await subscriptionOf(owner.browser, tenantId)).Subscription?.PaymentStatus).toBe('canceled');
    // A canceled subscription opens no gated connector any more.
    const features = TenantFeaturesResponse.parse(
      (await owner.browser.get(`/api/tenants/${tenantId}/features`)).json(),
    );
    expect(features.Features).toEqual([]);
    const length = (
      await world.services.writeSide.store.readStream(
        `billing-${(await subscriptionOf(owner.browser, tenantId)).Subscription!.Id}`,
      )
    ).length;
    await applyDueCancellations(deps, after);
    expect(
      (
        await world.services.writeSide.store.readStream(
          `billing-${(await subscriptionOf(owner.browser, tenantId)).Subscription!.Id}`,
        )
      ).length,
    ).toBe(length);
  });

  it('schedules a downgrade to another plan', async () => {
    const { owner, tenantId } = await business();
    const done = await owner.browser.post(`/api/billing/subscriptions/${tenantId}/cancel`, {
      Intent: 'downgrade',
      Reason: 'LOWER_COSTS',
      Confirmed: true,
      DowngradeToPlanId: plans.get('lite'),
    });
    expect(done.statusCode).toBe(200);
    expect(BillingSubscription.parse(done.json()).ScheduledCancellation).toMatchObject({
      Intent: 'downgrade',
      DowngradeTo: { identifier: 'lite', name: 'Lite' },
    });
    // At the end of the period the plan becomes Lite and the schedule ends.
    const effectiveAt = new Date(BillingSubscription.parse(done.json()).ScheduledCancellation!.EffectiveAt);
    await world.settle();
    await applyDueCancellations(
      { writeSide: world.services.writeSide, db: world.services.db },
      new Date(effectiveAt.getTime() + 60_000),
    );
    await world.settle();
    expect((await subscriptionOf(owner.browser, tenantId)).Subscription).toMatchObject({
      Plan: { Identifier: 'lite' },
      ScheduledCancellation: null,
    });
  });
});

describe('admin lists', () => {
  it('filters subscriptions by plan, payment status and classification, and lists plans with counts', async () => {
    const { tenantId } = await business();
    const list = async (query: string) =>
      AdminSubscriptionsResponse.parse(
        (await admin.browser.get(`/api/billing/subscriptions?${query}`)).json(),
      );
    const trialing = await list('plan=growth_business&paymentStatus=trialing&classification=BUSINESS');
    expect(trialing.rows.map((row) => row.TenantId)).toContain(tenantId);
    expect(trialing.rows.every((row) => row.Plan.Identifier === 'growth_business')).toBe(true);
    expect(trialing.rows.find((row) => row.TenantId === tenantId)?.Tenant.Name).toBe(`Billing Co ${count}`);
    const firms = await list('classification=FIRM');
    expect(firms.rows.map((row) => row.TenantId)).not.toContain(tenantId);

    const withCounts = PlansResponse.parse(
      (await admin.browser.get('/api/billing/plans?include=Subscriptions')).json(),
    );
    expect(
      withCounts.plans.find((plan) => plan.Identifier === 'growth_business')?.Subscriptions,
    ).toBeGreaterThan(0);
    const products = ProductsResponse.parse((await admin.browser.get('/api/billing/products')).json());
    expect(
      products.products.find((p) => p.Identifier === 'plans/business/client_nurturing/packaged'),
    ).toMatchObject({
      Billable: true,
      Module: 'plans/business/client_nurturing',
    });
  });
});
