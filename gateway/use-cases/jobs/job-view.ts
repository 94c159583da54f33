import type { Job } from '../../../contracts/api/jobs';
import type { JobDoc } from '../../../projections/jobs/jobs-projection';

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
