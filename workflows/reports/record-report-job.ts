import type { z } from 'zod';
import type { CommandHandlerDeps } from '../../commands/command-handler';
import { allocateId } from '../../commands/id-allocator';
import { runWithRequestContext, systemActorId } from '../../commands/request-context';
import type { Config } from '../../contracts/config';
import { JobCreated, type JobJson } from '../../contracts/events/job';
import { jobStream } from '../../contracts/stream-ids';
import { jobDecider } from '../../domain/job/job-decider';
import { runSystemCommand } from '../sync/system-commands';
import { reportJobWorkflowId } from './report-job';

export type RecordedJob = z.infer<typeof JobCreated>['data'];

/**
 * Records a report job as the gateway records one (a job stream with JobCreated, shown in the jobs
 * tables and the audit history), for the system's own requests: the scheduled sends and the welcome
 * report. `requestId` keys the job: the same request always gets the same job, recorded once.
 */
export const recordReportJob = async (
  deps: { writeSide: CommandHandlerDeps; config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'> },
  request: {
    requestId: string;
    /** The audit actor: `system:<process>`. */
    process: string;
    tenantId: number;
    sellerId: number;
    /** `type` is the job's type (weekly, workflow, welcome...). */
    parameters: JobJson & { type: string };
    now: Date;
  },
): Promise<{ jobId: number; created: boolean; job: RecordedJob }> => {
  const { writeSide } = deps;
  const jobId = await runWithRequestContext(
    { actor: systemActorId(request.process), tenantId: request.tenantId },
    () => allocateId(writeSide.store, { category: 'job', commandId: request.requestId, now: request.now }),
  );
  const recorded = async () => {
    const [first] = await writeSide.store.readStream(jobStream(jobId), { maxCount: 1 });
    return first ? JobCreated.parse({ type: first.type, data: first.data }).data : null;
  };
  const before = await recorded();
  if (before) return { jobId, created: false, job: before };
  await runSystemCommand(
    { writeSide, workflowId: request.requestId, tenantId: request.tenantId, process: request.process },
    jobDecider,
    {
      streamId: jobStream(jobId),
      step: 'create-job',
      command: {
        type: 'CreateJob',
        now: request.now,
        data: {
          jobId,
          kind: 'report',
          tenantId: request.tenantId,
          sellerId: request.sellerId,
          parameters: request.parameters,
          workflowId: reportJobWorkflowId(deps.config, { sellerId: request.sellerId, jobId }),
        },
      },
    },
  );
  const job = await recorded();
  if (!job) throw new Error(`job ${jobId} was created but its stream is empty`);
  return { jobId, created: true, job };
};
