import type { BillingPlan } from '../../contracts/events/billing';
import { PlanEvent, type PlanProduct } from '../../contracts/events/plan';
import { eventIdFor } from '../../commands/event-id';
import { billingDecider } from '../../domain/billing/billing-decider';
import { foldEvents } from '../../domain/decider';
import type { PlanCommand } from '../../domain/plan/decide';
import { planDecider } from '../../domain/plan/plan-decider';
import { billingSubscriptionsProjection } from '../../projections/billing/billing-projection';
import { plansProjection } from '../../projections/plans/plans-projection';
import { getPlanByIdentifier, listPlans } from '../../projections/plans/query-plans';
import { appendOne } from './audit-workload';
import { platformAdmin, useReadModelKit } from './read-model-kit';
import { billingStream, planStream } from '../../contracts/stream-ids';

const kit = useReadModelKit(__filename, plansProjection, [billingSubscriptionsProjection]);
const { context } = kit;

const now = new Date('2026-01-05T09:00:00.000Z');

const customerSheet: PlanProduct = {
  Identifier: 'reports/customer_sheet',
  MeteredUsage: false,
  LicensedQuantity: 1,
};
const quickstartPack: PlanProduct = {
  Identifier: 'plans/business/client_nurturing/packaged',
  MeteredUsage: true,
  LicensedQuantity: null,
};

type Data<T extends PlanCommand['type']> = Extract<PlanCommand, { type: T }>['data'];
let planCommands = 0;

/**
 * commands/event-registry.ts does not know the plan events yet, so handleCommand refuses them: the
 * real plan decider decides here and its events, checked against their contract, are appended as
 * the command side would store them.
 */
const plan = async <T extends PlanCommand['type']>(id: number, type: T, data: Data<T>) => {
  const streamId = planStream(id);
  const history = await kit.store().readStream(streamId);
  const state = foldEvents(
    planDecider,
    history.map((event) => PlanEvent.parse({ type: event.type, data: event.data })),
  );
  const events = planDecider.decide({ type, data, now, actor: platformAdmin } as PlanCommand, state);
  for (const [index, event] of events.entries()) {
    planCommands += 1;
    await appendOne(kit.store(), context.keys, {
      id: eventIdFor(`plan-command-${planCommands}`, index),
      streamId,
      ...PlanEvent.parse(event),
      metadata: {
        tenantId: null,
        actor: 'user:1',
        ip: null,
        method: null,
        url: null,
        body: null,
        requestId: null,
        correlationId: `plan-command-${planCommands}`,
        causationId: `plan-command-${planCommands}`,
        time: now.toISOString(),
      },
    });
  }
};

const create = (
  id: number,
  details: Pick<Data<'CreatePlan'>, 'identifier' | 'name'> & Partial<Data<'CreatePlan'>>,
) =>
  plan(id, 'CreatePlan', {
    planId: id,
    classification: 'BUSINESS',
    isDefault: false,
    active: true,
    trialPeriod: 0,
    products: [],
    identifierTaken: false,
    ...details,
  });

const subscribe = (subscriptionId: number, tenantId: number, on: BillingPlan) =>
  kit.run(billingDecider, billingStream(subscriptionId), {
    type: 'StartBillingSubscription',
    data: {
      subscriptionId,
      tenantId,
      billingTenantId: tenantId,
      plan: on,
      trialDays: 0,
      paymentMethod: null,
    },
    now,
  });

beforeAll(async () => {
  await create(1, { identifier: 'free_business', name: 'Free', isDefault: true });
  await create(2, {
    identifier: 'free_client',
    name: 'Quickstart',
    classification: 'CLIENT',
    products: [quickstartPack],
  });
  await create(3, { identifier: 'basic_client', name: 'Lite', classification: 'CLIENT' });
  await create(4, {
    identifier: 'growth_business',
    name: 'Growth',
    trialPeriod: 14,
    products: [customerSheet],
  });
  await plan(3, 'DeactivatePlan', {});

  const growth = { id: 4, name: 'Growth', identifier: 'growth_business' };
  await subscribe(101, 1, growth);
  await subscribe(102, 2, growth);
  await subscribe(103, 3, { id: 2, name: 'Quickstart', identifier: 'free_client' });
  await kit.catchUp();
});

describe('the admin plans table', () => {
  it('lists plans with identifier, name, classification, default, active, trial and products', async () => {
    const { plans, stale } = await listPlans(context.db);

    expect(stale).toBe(false);
    expect(
      plans.map((p) => [p.Id, p.Identifier, p.Name, p.Classification, p.Default, p.Active, p.TrialPeriod]),
    ).toEqual([
      [1, 'free_business', 'Free', 'BUSINESS', true, true, 0],
      [2, 'free_client', 'Quickstart', 'CLIENT', false, true, 0],
      [3, 'basic_client', 'Lite', 'CLIENT', false, false, 0],
      [4, 'growth_business', 'Growth', 'BUSINESS', false, true, 14],
    ]);
    expect(plans[3]?.Products).toEqual([customerSheet]);
    expect(plans[0]).not.toHaveProperty('Subscriptions');
  });

  it('counts subscriptions per plan with include=Subscriptions', async () => {
    const { plans } = await listPlans(context.db, { include: ['Subscriptions'] });

    expect(plans.map((p) => [p.Identifier, p.Subscriptions])).toEqual([
      ['free_business', 0],
      ['free_client', 1],
      ['basic_client', 0],
      ['growth_business', 2],
    ]);
  });

  it('filters by classification and active', async () => {
    const clientPlans = await listPlans(context.db, { classification: 'CLIENT' });
    const active = await listPlans(context.db, { active: true });

    expect(clientPlans.plans.map((p) => p.Identifier)).toEqual(['free_client', 'basic_client']);
    expect(active.plans.map((p) => p.Identifier)).toEqual([
      'free_business',
      'free_client',
      'growth_business',
    ]);
  });

  it('finds a plan by identifier, with its subscriptions when asked', async () => {
    expect(
      await getPlanByIdentifier(context.db, { identifier: 'growth_business', include: ['Subscriptions'] }),
    ).toMatchObject({
      Id: 4,
      Name: 'Growth',
      Subscriptions: 2,
    });
    expect(await getPlanByIdentifier(context.db, { identifier: 'max_client' })).toBeNull();
  });
});

describe('the plans read model', () => {
  it('follows renames, trial, products, default and activation', async () => {
    await plan(4, 'UpdatePlan', {
      name: 'Growth Plus',
      trialPeriod: 30,
      products: [customerSheet, quickstartPack],
      isDefault: true,
    });
    await plan(1, 'UpdatePlan', { isDefault: false });
    await plan(3, 'ActivatePlan', {});
    await kit.catchUp();

    expect(await getPlanByIdentifier(context.db, { identifier: 'growth_business' })).toMatchObject({
      Name: 'Growth Plus',
      TrialPeriod: 30,
      Default: true,
      Products: [customerSheet, quickstartPack],
    });
    expect(await getPlanByIdentifier(context.db, { identifier: 'free_business' })).toMatchObject({
      Default: false,
    });
    expect(await getPlanByIdentifier(context.db, { identifier: 'basic_client' })).toMatchObject({
      Active: true,
    });
  });

  it('gives identical documents when every event is delivered again, and when rebuilt', async () => {
    await kit.expectStableUnderRedeliveryAndRebuild();
  });
});
