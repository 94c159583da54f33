import type { Config } from '../../contracts/config';
import type { JobCreated } from '../../contracts/events/job';
import type { z } from 'zod';
import type { CustomerMetricsInput } from './customer-metrics-input';

/**
 * The metrics jobs (POST /api/metrics/sellers?jobType=) that have a pipeline: the customers job (C in
 * the admin sellers table). Jobs of the other types (sellers, historical, and the forecast kind) have
 * none yet and stay queued; the metrics-job reactor leaves them alone.
 */
export const runnableMetricsJobTypes = ['customers'] as const;
export type RunnableMetricsJobType = (typeof runnableMetricsJobTypes)[number];

/** The run a recorded job asks for, or null when no pipeline of this issue runs it. */
export const metricsRunOf = (
  job: z.infer<typeof JobCreated>['data'],
): (CustomerMetricsInput & { jobType: RunnableMetricsJobType }) | null => {
  if (job.kind !== 'metrics' || job.sellerId === null) return null;
  const jobType = runnableMetricsJobTypes.find((type) => type === job.parameters.type);
  return jobType ? { jobType, sellerId: job.sellerId, tenantId: job.tenantId, jobId: job.jobId } : null;
};

/**
 * The customers job's run: readable in the Temporal UI, one per job, qualified by the deployment's
 * prefix because ids restart at 1 in a fresh event store (as syncJobWorkflowId).
 */
export const customerMetricsWorkflowId = (
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>,
  job: { sellerId: number; jobId: number },
) => `${config.TEMPORAL_TASK_QUEUE_PREFIX}-metrics-customers-seller-${job.sellerId}-job-${job.jobId}`;
