import type { Client } from '@temporalio/client';
import type { Config } from '../../contracts/config';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { JobCreated } from '../../contracts/events/job';
import { jobDecider } from '../../domain/job/job-decider';
import { isFinished } from '../../domain/job/job';
import { startCheckpointedReactor, type ReactorDeps } from '../checkpointed-reactor';
import { readState } from '../sync/system-commands';
import { startMetricsJob } from './metrics-job-client';
import { metricsRunOf } from './metrics-jobs';
import { jobStream } from '../../contracts/stream-ids';

type MetricsJobReactorDeps = ReactorDeps & {
  client: Client;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>;
};

/**
 * A recorded metrics job of a type with a pipeline becomes a run (metrics-jobs.ts); jobs of other
 * types and kinds are left as they are. A job already ended (cancelled while the worker was down, or
 * finished before the checkpoint was saved) starts nothing.
 */
const startRecorded = async (deps: MetricsJobReactorDeps, event: RecordedEvent) => {
  const { data } = JobCreated.parse({ type: event.type, data: event.data });
  const run = metricsRunOf(data);
  if (!run) return;
  const job = await readState(deps.writeSide, jobDecider, jobStream(run.jobId));
  if (job.status === 'none' || isFinished(job.status)) return;
  const started = await startMetricsJob(run, { client: deps.client, config: deps.config });
  deps.logger.info({ ...run, ...started }, 'metrics job run requested');
};

/**
 * Turns recorded metrics jobs (POST /api/metrics/sellers?jobType=) into runs on the metrics queue, from
 * its own checkpoint (docs/adr/0018-pipeline-start.md).
 */
export const startMetricsJobReactor = (
  deps: MetricsJobReactorDeps & { retryMs?: number },
): { stop: () => Promise<void> } =>
  startCheckpointedReactor(deps, {
    name: 'metrics-jobs',
    eventTypes: ['JobCreated'],
    handle: (event) => startRecorded(deps, event),
  });
