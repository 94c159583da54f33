import type { Job } from '../../../contracts/api/jobs';
import type { JobEvent } from '../../../contracts/events/job';
import { jobTypeOf, type JobDoc } from '../../../projections/jobs/jobs-projection';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A jobs read-model document as the API answers it. */
export const toJob = (doc: JobDoc): Job => ({
  Id: doc._id,
  Kind: doc.kind,
  Type: doc.type,
  Status: doc.status,
  TenantId: doc.tenantId,
  SellerId: doc.sellerId,
  Parameters: doc.parameters,
  WorkflowId: doc.workflowId,
  Progress: doc.progress && { ...doc.progress, recordedAt: doc.progress.recordedAt.toISOString() },
  Result: doc.result,
  Failure: doc.failure,
  createdAt: doc.createdAt.toISOString(),
  startedAt: iso(doc.startedAt),
  finishedAt: iso(doc.finishedAt),
});

/**
 * A job just recorded, as the jobs table will show it: answered from the event itself, so a request
 * never waits for the jobs read model (a busy projector would hold it for seconds).
 */
export const createdJob = (data: Extract<JobEvent, { type: 'JobCreated' }>['data']): Job => ({
  Id: data.jobId,
  Kind: data.kind,
  Type: jobTypeOf(data.kind, data.parameters),
  Status: 'created',
  TenantId: data.tenantId,
  SellerId: data.sellerId,
  Parameters: data.parameters,
  WorkflowId: data.workflowId,
  Progress: null,
  Result: null,
  Failure: null,
  createdAt: data.createdAt,
  startedAt: null,
  finishedAt: null,
});
