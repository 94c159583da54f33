import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../../../contracts/config';
import type { RecordedEvent } from '../../../contracts/events/envelope';
import { JobCreated } from '../../../contracts/events/job';
import { jobStream } from '../../../contracts/stream-ids';
import { isFinished } from '../../../domain/job/job';
import { jobDecider } from '../../../domain/job/job-decider';
import { startCheckpointedReactor, type ReactorDeps } from '../../checkpointed-reactor';
import { sellerSearchAttributes } from '../../search-attributes';
import { readState, runSystemCommand } from '../../sync/system-commands';
import { taskQueues } from '../../task-queues';
import type { DatasetJobInput } from './dataset-job-input';
import { datasetRunOf } from './dataset-jobs';
import type { datasetJobWorkflow } from './workflows';

type DatasetReactorDeps = ReactorDeps & {
  client: Client;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>;
};

export const unrunnableDataset =
  'This data set cannot be generated: its request is not one the data-set service knows.';

/** Starts a data-set job's run under the workflow id its job names; a closed run's id is never reused. */
export const startDatasetJob = async (
  run: DatasetJobInput & { workflowId: string },
  temporal: { client: Client; config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'> },
): Promise<boolean> => {
  const { workflowId, ...input } = run;
  try {
    await temporal.client.workflow.start<typeof datasetJobWorkflow>('datasetJobWorkflow', {
      taskQueue: taskQueues(temporal.config).datasets,
      workflowId,
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: sellerSearchAttributes(input),
      args: [input],
    });
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
};

const startRecorded = async (deps: DatasetReactorDeps, event: RecordedEvent) => {
  const { data } = JobCreated.parse({ type: event.type, data: event.data });
  if (data.kind !== 'dataset') return;
  const job = await readState(deps.writeSide, jobDecider, jobStream(data.jobId));
  if (job.status === 'none' || isFinished(job.status)) return;
  const run = datasetRunOf(data);
  if (!run) {
    await runSystemCommand(
      {
        writeSide: deps.writeSide,
        workflowId: data.workflowId,
        tenantId: data.tenantId,
        process: 'datasets',
      },
      jobDecider,
      {
        streamId: jobStream(data.jobId),
        step: 'fail-job',
        command: { type: 'FailJob', now: new Date(), data: { reason: unrunnableDataset } },
      },
    );
    return;
  }
  const started = await startDatasetJob({ ...run, workflowId: data.workflowId }, deps);
  deps.logger.info({ jobId: run.jobId, sellerId: run.sellerId, started }, 'data-set job run requested');
};

/** Turns recorded data-set jobs (POST /api/datasets) into runs on the datasets queue (ADR 18). */
export const startDatasetJobReactor = (deps: DatasetReactorDeps & { retryMs?: number }) =>
  startCheckpointedReactor(deps, {
    name: 'dataset-jobs',
    eventTypes: ['JobCreated'],
    handle: (event) => startRecorded(deps, event),
  });
