import type { FastifyReply } from 'fastify';
import type { Job } from '../../../contracts/api/jobs';
import type { JobJson, JobKind } from '../../../contracts/events/job';
import { jobDecider } from '../../../domain/job/job-decider';
import { allocateIdFor, executeCommand } from '../../execute-command';
import { createdJob } from './job-view';
import { jobStream } from '../../../contracts/stream-ids';

export type JobRequest = {
  kind: JobKind;
  /** What is asked within the kind; stored as `parameters.type` so the jobs table can show it. */
  type: string;
  tenantId: number;
  sellerId: number | null;
  parameters: JobJson;
  /** The run's id when its pipeline names one (default `<kind>-<jobId>`). */
  workflowIdOf?: (jobId: number) => string;
};

/** The Temporal workflow id of a job: also the idempotency key of its side effects. */
export const jobWorkflowId = (kind: JobKind, jobId: number): string => `${kind}-${jobId}`;

/**
 * Records one pipeline request as a job stream and answers the job as the jobs table will show it.
 * Reactors in the worker start the runs of the kinds and types that have a pipeline (docs/adr/0018);
 * a retried request (same Idempotency-Key) gets the same job id and appends nothing new.
 */
export const recordJob = async (reply: FastifyReply, request: JobRequest): Promise<Job> => {
  const { now } = reply.request.server.services;
  const part = `${request.kind}-${request.type}-${request.sellerId ?? 'all'}`;
  const jobId = await allocateIdFor(reply, 'job', part);
  const parameters: JobJson = { ...request.parameters, type: request.type };
  const data = {
    jobId,
    kind: request.kind,
    tenantId: request.tenantId,
    sellerId: request.sellerId,
    parameters,
    workflowId: request.workflowIdOf?.(jobId) ?? jobWorkflowId(request.kind, jobId),
  };
  const created = await executeCommand(reply, jobDecider, {
    streamId: jobStream(jobId),
    tenantId: request.tenantId,
    part,
    command: { type: 'CreateJob', data, now: now() },
  });
  const event = created.events.find((e) => e.type === 'JobCreated');
  return createdJob(event?.type === 'JobCreated' ? event.data : { ...data, createdAt: now().toISOString() });
};
