import type { Config } from '../../contracts/config';
import type { JobCreated } from '../../contracts/events/job';
import type { z } from 'zod';

/**
 * The metrics jobs (POST /api/metrics/sellers?jobType=) that have a pipeline: the seller's metrics (S
 * in the admin sellers table, GenerateMetrics), its customer metrics (C), and the forecast jobs (F S,
 * F C, and historical: forecasts as of past dates, so validation has history from day one), which
 * run forecastJobWorkflow (workflows/forecast/).
 */
export const runnableMetricsJobTypes = [
  'sellers',
  'customers',
  'forecasts',
  'forecastByCustomer',
  'historical',
] as const;
export type RunnableMetricsJobType = (typeof runnableMetricsJobTypes)[number];

export const isRunnableMetricsJobType = (type: unknown): type is RunnableMetricsJobType =>
  runnableMetricsJobTypes.some((runnable) => runnable === type);

/** A recorded job's run: the seller, the tenant, and the job that reports it. */
export type MetricsJobRun = {
  jobType: RunnableMetricsJobType;
  sellerId: number;
  tenantId: number;
  jobId: number;
  /** The request's onlyMissing: the forecast jobs skip the dates they already forecast. */
  onlyMissing?: boolean;
};

/** The run a recorded job asks for, or null when no pipeline of this issue runs it. */
export const metricsRunOf = (job: z.infer<typeof JobCreated>['data']): MetricsJobRun | null => {
  const jobType = job.parameters.type;
  if (job.sellerId === null || !isRunnableMetricsJobType(jobType)) return null;
  // The gateway records F S and F C as forecast jobs, the others as metrics jobs.
  const forecastKind = jobType === 'forecasts' || jobType === 'forecastByCustomer';
  if (job.kind !== (forecastKind ? 'forecast' : 'metrics')) return null;
  const run = { jobType, sellerId: job.sellerId, tenantId: job.tenantId, jobId: job.jobId };
  return jobType === 'sellers' || jobType === 'customers'
    ? run
    : { ...run, onlyMissing: job.parameters.onlyMissing === true };
};

/**
 * A metrics job's run: readable in the Temporal UI, one per job, qualified by the deployment's prefix
 * because ids restart at 1 in a fresh event store (as syncJobWorkflowId).
 */
export const metricsJobWorkflowId = (
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>,
  job: { jobType: RunnableMetricsJobType; sellerId: number; jobId: number },
) => `${config.TEMPORAL_TASK_QUEUE_PREFIX}-metrics-${job.jobType}-seller-${job.sellerId}-job-${job.jobId}`;
