import { systemActor } from '../../../domain/actor';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import { recipientOf, sellerOf } from '../admin-fixtures';
import type { Cast, RouteExample } from './types';
import { tenantStream } from '../../../contracts/stream-ids';

let count = 0;
/** A new seller of tenant A for each request: a report request holds its seller until it finishes. */
const freshSellerOfA = (cast: Cast) =>
  sellerOf(cast.world, cast.a.tenantId, { companyName: `Example Books ${(count += 1)}` });

let demo: Promise<void> | undefined;
/** The demo tenant with its DEMO seller, which Update Demo Seller updates. */
const demoSeller = (cast: Cast) =>
  (demo ??= (async () => {
    const tenantId = 975_001;
    await cast.world.run(tenantDecider, tenantStream(tenantId), {
      type: 'CreateTenant',
      data: { tenantId, name: 'Demo Client', classification: 'BUSINESS', usageType: 'DEMO' },
      now: cast.world.clock.now(),
      actor: systemActor,
    });
    await sellerOf(cast.world, tenantId, { companyName: 'Demo Books', provider: 'DEMO' });
  })());

/** A job of tenant A, requested by the platform admin. */
const jobOfA = async (cast: Cast): Promise<{ jobId: number; sellerId: number }> => {
  const sellerId = await freshSellerOfA(cast);
  const response = await cast.platformAdmin.browser.post('/api/metrics/sellers', { id: sellerId });
  if (response.statusCode !== 200) throw new Error(`metrics job: ${response.statusCode} ${response.body}`);
  const [job] = response.json<{ jobs: { Id: number }[] }>().jobs;
  if (!job) throw new Error('metrics job: no job answered');
  await cast.world.settle();
  return { jobId: job.Id, sellerId };
};

export const examples: RouteExample[] = [
  {
    method: 'POST',
    route: '/api/metrics/sellers',
    access: 'platformAdmin',
    happy: async (cast) => ({
      url: '/api/metrics/sellers?jobType=forecasts',
      body: { id: await freshSellerOfA(cast), onlyMissing: true },
    }),
    badInput: () => Promise.resolve({ url: '/api/metrics/sellers?jobType=all', body: { id: 'x' } }),
  },
  {
    method: 'POST',
    route: '/api/reports',
    access: 'platformAdmin',
    happy: async (cast) => ({
      url: '/api/reports',
      body: { type: 'REPORTS', frequency: 'weekly', sellerIds: [await freshSellerOfA(cast)] },
    }),
    badInput: () => Promise.resolve({ url: '/api/reports', body: { type: 'REPORTS', sellerIds: [] } }),
  },
  {
    method: 'GET',
    route: '/api/sellers/:id/reports/:type',
    access: 'member',
    happy: async (cast) => ({ url: `/api/sellers/${await freshSellerOfA(cast)}/reports/weekly` }),
    badInput: () => Promise.resolve({ url: '/api/sellers/1/reports/daily' }),
  },
  {
    method: 'POST',
    route: '/api/sellers/:id/reports/:type',
    access: 'member',
    happy: async (cast) => {
      const sellerId = await freshSellerOfA(cast);
      const recipientId = await recipientOf(cast.world, {
        tenantId: cast.a.tenantId,
        sellerId,
        userId: cast.a.user.userId,
      });
      return { url: `/api/sellers/${sellerId}/reports/monthly`, body: { recipientIds: [recipientId] } };
    },
    badInput: async (cast) => ({
      url: `/api/sellers/${await freshSellerOfA(cast)}/reports/monthly`,
      body: { recipientIds: [] },
    }),
  },
  {
    method: 'POST',
    route: '/api/datasets',
    access: 'platformAdmin',
    happy: async (cast) => ({
      url: '/api/datasets',
      body: { dataset: 'ar_forecast_dso', contentType: 'csv', sellerIds: [await freshSellerOfA(cast)] },
    }),
    badInput: () =>
      Promise.resolve({ url: '/api/datasets', body: { dataset: 'ar_forecast_dso', sellerIds: [] } }),
  },
  {
    method: 'POST',
    route: '/api/tasks',
    access: 'platformAdmin',
    happy: async (cast) => {
      await demoSeller(cast);
      return { url: '/api/tasks', body: { name: 'update_demo_seller', force: true } };
    },
    badInput: () =>
      Promise.resolve({ url: '/api/tasks', body: { name: 'moveIndirectCustomer', customerId: -1 } }),
  },
  {
    method: 'GET',
    route: '/api/jobs/:id',
    access: 'member',
    happy: async (cast) => ({ url: `/api/jobs/${(await jobOfA(cast)).jobId}` }),
    badInput: () => Promise.resolve({ url: '/api/jobs/first' }),
  },
  {
    method: 'GET',
    route: '/api/jobs',
    access: 'member',
    happy: async (cast) => ({ url: `/api/jobs?sellerId=${(await jobOfA(cast)).sellerId}` }),
    badInput: () => Promise.resolve({ url: '/api/jobs?limit=0' }),
  },
];
