import { jobStream } from '../../../contracts/stream-ids';
import { jobDecider } from '../../../domain/job/job-decider';
import { reportObjectStoreOf } from '../../../gateway/routes/reports/report-object-store-of';
import { datasetObjectKey } from '../../../workflows/analytics/datasets/dataset-activities';
import { sellerOfA } from './sellers';
import type { Cast, RouteExample } from './types';

/** Job ids of these examples: far above those the allocator hands out in a test file's fresh store. */
let nextJobId = 945_000;

let generated: Promise<number> | undefined;
/** A seller of tenant A with one generated seller_analytics_weekly file (a completed data-set job). */
const datasetOfA = (cast: Cast) =>
  (generated ??= (async () => {
    const sellerId = await sellerOfA(cast);
    const jobId = (nextJobId += 1);
    const step = { tenantId: cast.a.tenantId, jobId, dataset: 'seller_analytics_weekly' as const, sellerId };
    const objectKey = datasetObjectKey(step, 'json');
    const text = JSON.stringify([]);
    await reportObjectStoreOf(cast.world.services).put(objectKey, Buffer.from(text), 'application/json');
    const now = cast.world.clock.now();
    const parameters = { contentType: 'json', startDate: '2023-01-01', endDate: '2024-01-01' };
    await cast.world.run(jobDecider, jobStream(jobId), {
      type: 'CreateJob',
      now,
      data: {
        jobId,
        kind: 'dataset',
        tenantId: cast.a.tenantId,
        sellerId,
        parameters: { ...parameters, type: step.dataset },
        workflowId: `${cast.world.runId}-dataset-job-${jobId}`,
      },
    });
    await cast.world.run(jobDecider, jobStream(jobId), { type: 'StartJob', now, data: {} });
    await cast.world.run(jobDecider, jobStream(jobId), {
      type: 'CompleteJob',
      now,
      data: {
        result: {
          dataset: step.dataset,
          ...parameters,
          objectKey,
          fileName: `seller_analytics_weekly-${sellerId}-2023-01-01-2024-01-01.json`,
          mimeType: 'application/json',
          bytes: text.length,
          rows: 0,
        },
      },
    });
    await cast.world.settle();
    return sellerId;
  })());

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/sellers/:id/datasets',
    access: 'platformAdmin',
    happy: async (cast) => ({ url: `/api/sellers/${await datasetOfA(cast)}/datasets` }),
    badInput: () => Promise.resolve({ url: '/api/sellers/first/datasets' }),
  },
  {
    method: 'GET',
    route: '/api/sellers/:id/datasets/:dataset',
    access: 'platformAdmin',
    happy: async (cast) => ({
      url: `/api/sellers/${await datasetOfA(cast)}/datasets/seller_analytics_weekly`,
    }),
    badInput: () => Promise.resolve({ url: '/api/sellers/1/datasets/seller_analytics_daily' }),
  },
  {
    method: 'GET',
    route: '/api/sellers/:id/datasets/:dataset/download',
    access: 'platformAdmin',
    happy: async (cast) => ({
      url: `/api/sellers/${await datasetOfA(cast)}/datasets/seller_analytics_weekly/download`,
    }),
    badInput: () => Promise.resolve({ url: '/api/sellers/0/datasets/seller_analytics_weekly/download' }),
  },
];
