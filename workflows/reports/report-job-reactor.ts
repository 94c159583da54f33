import type { z } from 'zod';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../../contracts/config';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { JobCreated } from '../../contracts/events/job';
import { jobStream } from '../../contracts/stream-ids';
import { isFinished } from '../../domain/job/job';
import { jobDecider } from '../../domain/job/job-decider';
import { startCheckpointedReactor, type ReactorDeps } from '../checkpointed-reactor';
import { sellerSearchAttributes } from '../search-attributes';
import { readState, runSystemCommand } from '../sync/system-commands';
import { taskQueues } from '../task-queues';
import { clientPerformanceRunOf } from './client-performance/client-performance-job';
import type { ClientPerformanceInput } from './client-performance/client-performance-input';
import { reportRunOf } from './report-job';
import type { ReportJobInput } from './report-job-input';
import type { clientPerformanceWorkflow, reportJobWorkflow } from './workflows';

type ReportJobReactorDeps = ReactorDeps & {
  client: Client;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>;
};

/**
 * Starts a report job's run under the workflow id its job names. A closed run's id is never reused,
 * so a redelivered request starts nothing (`started` false), even after the run has finished.
 */
export const startReportJob = async (
  run: ReportJobInput & { workflowId: string },
  temporal: { client: Client; config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'> },
): Promise<{ workflowId: string; started: boolean }> => {
  const { workflowId, ...input } = run;
  try {
    await temporal.client.workflow.start<typeof reportJobWorkflow>('reportJobWorkflow', {
      taskQueue: taskQueues(temporal.config).reports,
      workflowId,
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: sellerSearchAttributes(input),
      args: [input],
    });
    return { workflowId, started: true };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return { workflowId, started: false };
    throw error;
  }
};

export const unrunnableReport =
  'This report cannot be sent: its request is not one the report service knows.';

/**
 * Starts a Client Performance job's run (no seller: the job concerns advisors of every firm) under the
 * workflow id its job names; a redelivered request starts nothing.
 */
export const startClientPerformanceJob = async (
  run: ClientPerformanceInput & { workflowId: string },
  temporal: { client: Client; config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'> },
): Promise<{ workflowId: string; started: boolean }> => {
  const { workflowId, ...input } = run;
  try {
    await temporal.client.workflow.start<typeof clientPerformanceWorkflow>('clientPerformanceWorkflow', {
      taskQueue: taskQueues(temporal.config).reports,
      workflowId,
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      args: [input],
    });
    return { workflowId, started: true };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return { workflowId, started: false };
    throw error;
  }
};

const failJob = async (
  deps: ReportJobReactorDeps,
  data: z.infer<typeof JobCreated>['data'],
  reason: string,
) => {
  await runSystemCommand(
    { writeSide: deps.writeSide, workflowId: data.workflowId, tenantId: data.tenantId, process: 'reports' },
    jobDecider,
    {
      streamId: jobStream(data.jobId),
      step: 'fail-job',
      command: { type: 'FailJob', now: new Date(), data: { reason } },
    },
  );
  deps.logger.warn({ jobId: data.jobId, parameters: data.parameters, reason }, 'report job cannot run');
};

/**
 * A recorded report job of a seller becomes a run on the reports queue; one run per job, however
 * often the event is delivered. A job already ended (cancelled while the worker was down) starts
 * nothing; the advisors' Client Performance job (no seller) starts its own workflow; a scheduled
 * send's job with a `batchRunId` is left to that send's run, which sends it in one of its batches.
 */
const startRecorded = async (deps: ReportJobReactorDeps, event: RecordedEvent) => {
  const { data } = JobCreated.parse({ type: event.type, data: event.data });
  if (data.kind !== 'report') return;
  // A scheduled send's job in batches is run by the send's own workflow (docs/adr/0038).
  if (typeof data.parameters.batchRunId === 'string') return;
  const job = await readState(deps.writeSide, jobDecider, jobStream(data.jobId));
  if (job.status === 'none' || isFinished(job.status)) return;
  // A job left "created" would read as processing for good: what cannot run is failed, saying why.
  if (data.sellerId === null) {
    const clientRun = clientPerformanceRunOf(data);
    // An advisor's own job is made and ended by its parent's run.
    if (clientRun === 'advisor') return;
    if (clientRun === null) {
      await failJob(deps, data, unrunnableReport);
      return;
    }
    const started = await startClientPerformanceJob({ ...clientRun, workflowId: data.workflowId }, deps);
    deps.logger.info({ jobId: clientRun.jobId, ...started }, 'client performance run requested');
    return;
  }
  const run = reportRunOf(data);
  if (!run) {
    // The gateway would also refuse every later request of this report while it "processes".
    await failJob(deps, data, unrunnableReport);
    return;
  }
  const started = await startReportJob({ ...run, workflowId: data.workflowId }, deps);
  deps.logger.info({ jobId: run.jobId, sellerId: run.sellerId, ...started }, 'report job run requested');
};

/**
 * Turns recorded report jobs (POST /api/reports, POST /api/sellers/{id}/reports/{type}, the scheduled
 * sends and the welcome report) into runs, from its own checkpoint (docs/adr/0018-pipeline-start.md).
 */
export const startReportJobReactor = (
  deps: ReportJobReactorDeps & { retryMs?: number },
): { stop: () => Promise<void> } =>
  startCheckpointedReactor(deps, {
    name: 'report-jobs',
    eventTypes: ['JobCreated'],
    handle: (event) => startRecorded(deps, event),
  });
