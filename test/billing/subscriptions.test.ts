import pino from 'pino';
import { TenantFeaturesResponse } from '../../contracts/api/features';
import { Tenant } from '../../contracts/api/tenants';
import { allocateId } from '../../commands/id-allocator';
import { tenantStream } from '../../contracts/stream-ids';
import { systemActor } from '../../domain/actor';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { backfillSubscriptions } from '../../cli/billing';
import {
  getTenantSubscription,
  latestSubscriptionsByTenant,
} from '../../projections/billing/query-billing-subscriptions';
import { applyPlanCatalogue } from '../../workflows/billing/plan-catalogue';
import { startTenantBillingReactor } from '../../workflows/billing/tenant-billing-reactor';
import { companyFor, platformAdmin } from '../gateway/fixtures';
import { CronResponse, JobsResponse } from '../../contracts/api/jobs';
import { ErrorResponse } from '../../contracts/errors';
import { useGatewayWorld } from '../gateway/gateway-world';
import { person } from '../gateway/team-fixtures';

const world = useGatewayWorld(__filename);
const welcome = { Name: 'Fresh Co', Industry: { FreeForm: 'Bakery' }, BusinessModel: 'B2C' };
const dayMs = 24 * 60 * 60 * 1000;
let reactor: { stop: () => Promise<void> } | undefined;
let count = 0;

beforeAll(async () => {
  await applyPlanCatalogue(world.services.writeSide, { now: world.clock.now() });
  await world.settle();
  reactor = startTenantBillingReactor({
    writeSide: world.services.writeSide,
    db: world.services.db,
    logger: pino({ level: 'silent' }),
  });
});
afterAll(async () => {
  await reactor?.stop();
});

const subscriptionOf = async (tenantId: number) =>
  (await getTenantSubscription(world.services.db, { tenantId, now: world.clock.now() })).subscription;

/** Waits for the reactor (a background follower) and the read models. */
const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await world.settle();
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const featuresOf = async (browser: { get: (url: string) => Promise<{ json: () => unknown }> }, id: number) =>
  TenantFeaturesResponse.parse((await browser.get(`/api/tenants/${id}/features`)).json()).Features;

describe('a subscription from the company’s creation', () => {
  it('puts a new business on growth_business in a 14-day trial, with its gated connectors open', async () => {
    count += 1;
    const owner = await person(world, { name: `owner${count}` });
    const created = await owner.browser.post('/api/tenants', { ...welcome, Classification: 'BUSINESS' });
    expect(created.statusCode).toBe(201);
    const tenantId = Tenant.parse(created.json()).Id;
    await world.settle();
    const subscription = await subscriptionOf(tenantId);
    expect(subscription).toMatchObject({
      TenantId: tenantId,
      BillingTenantId: tenantId,
      Direct: true,
      Plan: { Identifier: 'growth_business', Name: 'Growth' },
      PaymentStatus: 'trialing',
      PaymentMethod: null,
      TrialDaysRemaining: 13,
      TrialEndEditable: true,
    });
    const startedAt = Date.parse(subscription?.StartedAt ?? '');
    expect(startedAt - world.clock.now().getTime()).toBeGreaterThan(14 * dayMs - 60_000);
    await owner.browser.post('/api/auth/switchTenant', { tenantId });
    expect(await featuresOf(owner.browser, tenantId)).toEqual(
      expect.arrayContaining(['platforms/sage', 'platforms/qbd_web_connector', 'integrations/hubspot']),
    );
  });

  it('uses the sign-up link’s plan, and gives an advisor’s client free_client paid by the firm', async () => {
    count += 1;
    const founder = await person(world, { name: `founder${count}` });
    const linked = await founder.browser.post('/api/tenants', {
      ...welcome,
      planIdentifier: 'free_business',
    });
    const linkedId = Tenant.parse(linked.json()).Id;
    const advisor = await person(world, { name: `advisor${count}` });
    const firmId = await companyFor(world, advisor, { name: `Firm ${count}`, classification: 'FIRM' });
    const client = await advisor.browser.post('/api/tenants', { ...welcome, Name: 'Client Bakery' });
    const clientId = Tenant.parse(client.json()).Id;
    await world.settle();

    expect(await subscriptionOf(linkedId)).toMatchObject({
      Plan: { Identifier: 'free_business' },
      PaymentStatus: 'active',
      TrialDaysRemaining: 0,
    });
    await founder.browser.post('/api/auth/switchTenant', { tenantId: linkedId });
    expect(await featuresOf(founder.browser, linkedId)).toEqual([]);
    expect(await subscriptionOf(clientId)).toMatchObject({
      Plan: { Identifier: 'free_client', Name: 'Quickstart' },
      TenantId: clientId,
      BillingTenantId: firmId,
      Direct: false,
    });
  });

  it('moves the subscription when the plan changes, so the gated connectors follow the plan', async () => {
    count += 1;
    const advisor = await person(world, { name: `changer${count}` });
    await companyFor(world, advisor, { name: `Change Firm ${count}`, classification: 'FIRM' });
    const client = await advisor.browser.post('/api/tenants', { ...welcome, Name: `Changing ${count}` });
    const clientId = Tenant.parse(client.json()).Id;
    await world.settle();
    expect((await subscriptionOf(clientId))?.Plan.Identifier).toBe('free_client');

    // Change Plan on the clients page: failed with PlanIdentifier not_found while no plan existed.
    const changed = await advisor.browser.put('/api/tenants/batch', {
      Id: [clientId],
      PlanIdentifier: 'expansion_client',
    });
    expect(changed.statusCode).toBe(200);
    const moved = await eventually(
      () => subscriptionOf(clientId),
      (s) => s?.Plan.Identifier === 'expansion_client',
    );
    expect(moved?.Plan).toMatchObject({ Identifier: 'expansion_client', Name: 'Max' });
    await advisor.browser.post('/api/auth/switchTenant', { tenantId: clientId });
    expect(await featuresOf(advisor.browser, clientId)).toEqual(
      expect.arrayContaining(['integrations/salesforce', 'integrations/hubspot_revops']),
    );
  });
});

describe('Move Customer (moveIndirectCustomer)', () => {
  it('makes a client the firm pays for pay for itself, on the business plan, and says what changed', async () => {
    count += 1;
    const advisor = await person(world, { name: `mover${count}` });
    const firmId = await companyFor(world, advisor, { name: `Move Firm ${count}`, classification: 'FIRM' });
    const client = await advisor.browser.post('/api/tenants', { ...welcome, Name: `Moving ${count}` });
    const clientId = Tenant.parse(client.json()).Id;
    await world.settle();
    expect(await subscriptionOf(clientId)).toMatchObject({ BillingTenantId: firmId, Direct: false });

    const admin = await platformAdmin(world);
    // A tenant admin may not run tasks.
    expect(
      (await advisor.browser.post('/api/tasks', { name: 'moveIndirectCustomer', customerId: clientId }))
        .statusCode,
    ).toBe(403);
    const moved = await admin.browser.post('/api/tasks', {
      name: 'moveIndirectCustomer',
      customerId: clientId,
    });
    expect(moved.statusCode).toBe(200);
    const [job] = JobsResponse.parse(moved.json()).jobs;
    expect(job).toMatchObject({
      Kind: 'task',
      Type: 'moveIndirectCustomer',
      Status: 'completed',
      TenantId: clientId,
      Result: {
        previousBillingTenantId: firmId,
        billingTenantId: clientId,
        previousPlan: 'free_client',
        plan: 'growth_business',
      },
    });
    const after = await eventually(
      () => subscriptionOf(clientId),
      (s) => s?.Plan.Identifier === 'growth_business',
    );
    expect(after).toMatchObject({
      BillingTenantId: clientId,
      Direct: true,
      Plan: { Identifier: 'growth_business' },
    });

    // Moved once: a second move is refused and changes nothing.
    const again = await admin.browser.post('/api/tasks', {
      name: 'moveIndirectCustomer',
      customerId: clientId,
    });
    expect(again.statusCode).toBe(409);
    expect(ErrorResponse.parse(again.json()).message).toBe(
      `Company ${clientId} already pays for its own subscription: it is not an indirect customer.`,
    );
    await world.settle();
    const history = CronResponse.parse((await admin.browser.get('/api/cron/moveIndirectCustomer')).json());
    expect(history.recentJobs.filter((j) => j.TenantId === clientId)).toHaveLength(1);
  });
});

describe('ledgerwise billing backfill', () => {
  it('starts one subscription for each company without one, and nothing on a second run', async () => {
    // Companies from before billing: no reactor follows them.
    await reactor?.stop();
    reactor = undefined;
    const deps = { writeSide: world.services.writeSide, db: world.services.db };
    const now = world.clock.now();
    const tenantIds: number[] = [];
    for (const [name, classification] of [
      ['Old Timer Ltd', 'BUSINESS'],
      ['Old Firm LLP', 'FIRM'],
    ] as const) {
      const tenantId = await allocateId(deps.writeSide.store, {
        category: 'tenant',
        commandId: `old-${name}`,
        now,
      });
      await world.run(tenantDecider, tenantStream(tenantId), {
        type: 'CreateTenant',
        data: {
          tenantId,
          name,
          classification,
          ...(classification === 'FIRM' ? { friendlyName: name } : {}),
        },
        now,
        actor: systemActor,
      });
      tenantIds.push(tenantId);
    }
    await world.settle();
    expect((await latestSubscriptionsByTenant(world.services.db, tenantIds)).size).toBe(0);

    const first = await backfillSubscriptions(deps, { now });
    expect(first.started).toBe(2);
    await world.settle();
    expect((await subscriptionOf(tenantIds[0]!))?.Plan.Identifier).toBe('growth_business');
    expect((await subscriptionOf(tenantIds[1]!))?.Plan.Identifier).toBe('advisor');

    const second = await backfillSubscriptions(deps, { now });
    expect(second.started).toBe(0);
    expect(second.skipped.exists).toBeGreaterThanOrEqual(2);
    // Still one subscription each.
    const docs = await (
      await import('../../projections/billing/query-billing-subscriptions')
    ).billingSubscriptionsCollection(world.services.db);
    expect(await docs.countDocuments({ tenantId: { $in: tenantIds } })).toBe(2);
  });
});
