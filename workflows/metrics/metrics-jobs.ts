import type { Config } from '../../contracts/config';
import type { JobCreated } from '../../contracts/events/job';
import type { z } from 'zod';

/**
 * The metrics jobs (POST /api/metrics/sellers?jobType=) that have a pipeline: the seller's metrics (S
 * in the admin sellers table, GenerateMetrics) and its customer metrics (C). The historical job has
 * none: the spec names a capture-historical action but says nothing of what it captures or where it
 * shows. It stays queued with the forecast kind (a later issue); the metrics-job reactor leaves them.
 */
export const runnableMetricsJobTypes = ['sellers', 'customers'] as const;
export type RunnableMetricsJobType = (typeof runnableMetricsJobTypes)[number];

export const isRunnableMetricsJobType = (type: unknown): type is RunnableMetricsJobType =>
  runnableMetricsJobTypes.some((runnable) => runnable === type);

/** A recorded job's run: the seller, the tenant, and the job that reports it. */
export type MetricsJobRun = {
  jobType: RunnableMetricsJobType;
  sellerId: number;
  tenantId: number;
  jobId: number;
};

/** The run a recorded job asks for, or null when no pipeline of this issue runs it. */
export const metricsRunOf = (job: z.infer<typeof JobCreated>['data']): MetricsJobRun | null => {
  if (job.kind !== 'metrics' || job.sellerId === null) return null;
  const jobType = job.parameters.type;
  return isRunnableMetricsJobType(jobType)
    ? { jobType, sellerId: job.sellerId, tenantId: job.tenantId, jobId: job.jobId }
    : null;
};

/**
 * A metrics job's run: readable in the Temporal UI, one per job, qualified by the deployment's prefix
 * because ids restart at 1 in a fresh event store (as syncJobWorkflowId).
 */
export const metricsJobWorkflowId = (
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>,
  job: { jobType: RunnableMetricsJobType; sellerId: number; jobId: number },
) => `${config.TEMPORAL_TASK_QUEUE_PREFIX}-metrics-${job.jobType}-seller-${job.sellerId}-job-${job.jobId}`;
