import { listPlans } from '../../../projections/plans/query-plans';
import { applyPlanCatalogue } from '../../../workflows/billing/plan-catalogue';
import { ensureTenantSubscription } from '../../../workflows/billing/tenant-subscription';
import type { Cast, RouteExample } from './types';

const prepared = new WeakMap<Cast['world'], Promise<void>>();

/** The plan catalogue applied and tenant A on its default subscription, once per world. */
const withSubscription = (cast: Cast): Promise<void> => {
  const { world } = cast;
  let ready = prepared.get(world);
  if (!ready) {
    ready = (async () => {
      const deps = { writeSide: world.services.writeSide, db: world.services.db };
      await applyPlanCatalogue(deps.writeSide, { now: world.clock.now() });
      await world.settle();
      await ensureTenantSubscription(deps, { tenantId: cast.a.tenantId, now: world.clock.now() });
      await world.settle();
    })();
    prepared.set(world, ready);
  }
  return ready;
};

const planId = async (cast: Cast, identifier: string) => {
  const { plans } = await listPlans(cast.world.services.db);
  const plan = plans.find((candidate) => candidate.Identifier === identifier);
  if (!plan) throw new Error(`no plan ${identifier}`);
  return plan.Id;
};

let companies = 0;

/** A fresh company of tenant A's admin, with its subscription: cancelling is possible once per subscription. */
const freshCompany = async (cast: Cast): Promise<number> => {
  await withSubscription(cast);
  companies += 1;
  const response = await cast.a.admin.browser.post('/api/tenants', {
    Name: `Cancelling ${cast.world.runId} ${companies}`,
    Industry: { FreeForm: 'Bakery' },
    Classification: 'BUSINESS',
  });
  if (response.statusCode !== 201) throw new Error(`create company: ${response.statusCode} ${response.body}`);
  await cast.world.settle();
  return response.json<{ Id: number }>().Id;
};

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/billing/subscriptions/:tenantId',
    access: 'tenantAdmin',
    happy: async (cast) => {
      await withSubscription(cast);
      return { url: `/api/billing/subscriptions/${cast.a.tenantId}` };
    },
    badInput: () => Promise.resolve({ url: '/api/billing/subscriptions/first' }),
  },
  {
    method: 'PATCH',
    route: '/api/billing/subscriptions/:tenantId',
    access: 'tenantAdmin',
    happy: async (cast) => {
      await withSubscription(cast);
      return {
        url: `/api/billing/subscriptions/${cast.a.tenantId}`,
        body: { TenantId: cast.a.tenantId, PlanId: await planId(cast, 'growth_business') },
      };
    },
    badInput: (cast) =>
      Promise.resolve({
        url: `/api/billing/subscriptions/${cast.a.tenantId}`,
        body: { TenantId: cast.a.tenantId, Products: [{ Identifier: 'platforms/sage', Quantity: 10_001 }] },
      }),
  },
  {
    method: 'GET',
    route: '/api/billing/subscriptions',
    access: 'platformAdmin',
    happy: async (cast) => {
      await withSubscription(cast);
      return { url: '/api/billing/subscriptions?classification=BUSINESS&paymentStatus=trialing,active' };
    },
    badInput: () => Promise.resolve({ url: '/api/billing/subscriptions?classification=PLANET' }),
  },
  {
    method: 'GET',
    route: '/api/billing/plans',
    access: 'tenantAdmin',
    happy: async (cast) => {
      await withSubscription(cast);
      return { url: '/api/billing/plans?include=Subscriptions' };
    },
    badInput: () => Promise.resolve({ url: '/api/billing/plans?include=Everything' }),
    otherTenant: { notTenantData: 'the plan catalogue is the same for every tenant' },
  },
  {
    method: 'GET',
    route: '/api/billing/products',
    access: 'tenantAdmin',
    happy: () => Promise.resolve({ url: '/api/billing/products' }),
    badInput: { none: 'takes no input' },
    otherTenant: { notTenantData: 'the product catalogue is the same for every tenant' },
  },
  {
    method: 'GET',
    route: '/api/billing/tenants',
    access: 'platformAdmin',
    happy: () => Promise.resolve({ url: '/api/billing/tenants' }),
    badInput: { none: 'takes no input' },
  },
  {
    method: 'POST',
    route: '/api/billing/session',
    access: 'tenantAdmin',
    happy: async (cast) => {
      await withSubscription(cast);
      return { url: '/api/billing/session', body: { tenantId: cast.a.tenantId } };
    },
    badInput: () => Promise.resolve({ url: '/api/billing/session', body: { tenantId: 'first' } }),
  },
  {
    method: 'POST',
    route: '/api/billing/subscriptions/:tenantId/cancel',
    access: 'tenantAdmin',
    happy: async (cast) => ({
      url: `/api/billing/subscriptions/${await freshCompany(cast)}/cancel`,
      body: { Intent: 'cancel', Reason: 'LOWER_COSTS', Confirmed: true },
    }),
    badInput: async (cast) => {
      await withSubscription(cast);
      return {
        url: `/api/billing/subscriptions/${cast.a.tenantId}/cancel`,
        body: { Intent: 'cancel', Reason: 'BORED', Confirmed: false },
      };
    },
  },
];
