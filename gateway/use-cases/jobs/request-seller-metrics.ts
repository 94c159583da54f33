import type { FastifyReply } from 'fastify';
import type { Job, MetricsJobType } from '../../../contracts/api/jobs';
import type { JobKind } from '../../../contracts/events/job';
import { AppError } from '../../../contracts/errors';
import { getSeller } from '../../../projections/sellers/query-sellers';
import { isRunnableMetricsJobType, metricsJobWorkflowId } from '../../../workflows/metrics/metrics-jobs';
import { recordJob } from './record-job';

const kindOf: Record<MetricsJobType, JobKind> = {
  sellers: 'metrics',
  customers: 'metrics',
  historical: 'metrics',
  forecasts: 'forecast',
  forecastByCustomer: 'forecast',
};

/** POST /api/metrics/sellers?jobType=: one metrics or forecast job for a seller of any tenant. */
export const requestSellerMetrics = async (
  reply: FastifyReply,
  request: { sellerId: number; jobType: MetricsJobType; onlyMissing: boolean },
): Promise<Job[]> => {
  const { db, now, config } = reply.request.server.services;
  const seller = await getSeller(db, { sellerId: request.sellerId, now: now() });
  if (!seller)
    throw new AppError('validation', 'Seller not found.', { properties: { id: 'Unknown seller' } });
  const { jobType } = request;
  const job = await recordJob(reply, {
    kind: kindOf[request.jobType],
    type: request.jobType,
    tenantId: seller.TenantId,
    sellerId: seller.Id,
    parameters: { sellerId: seller.Id, onlyMissing: request.onlyMissing },
    // The run of a job type with a pipeline, which the worker's metrics-job reactor starts under this id.
    ...(isRunnableMetricsJobType(jobType)
      ? {
          workflowIdOf: (jobId: number) =>
            metricsJobWorkflowId(config, { jobType, sellerId: seller.Id, jobId }),
        }
      : {}),
  });
  return [job];
};
