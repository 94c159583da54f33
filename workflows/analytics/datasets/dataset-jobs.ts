import { z } from 'zod';
import type { Config } from '../../../contracts/config';
import { DatasetContentType, DatasetType } from '../../../contracts/api/jobs';
import type { DatasetJobInput } from './dataset-job-input';

/**
 * A data-set job's workflow id, qualified by the deployment's prefix as the report jobs' are (ADR 38):
 * job ids restart with a fresh event store, and an unqualified id would collide with older runs.
 */
export const datasetJobWorkflowId = (
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>,
  job: { sellerId: number; jobId: number },
) => `${config.TEMPORAL_TASK_QUEUE_PREFIX}-dataset-seller-${job.sellerId}-job-${job.jobId}`;

const Parameters = z.object({
  type: DatasetType,
  contentType: DatasetContentType,
  startDate: z.iso.date(),
  endDate: z.iso.date(),
});

/** The run of a recorded data-set job, or null when its parameters are not a data set's. */
export const datasetRunOf = (job: {
  jobId: number;
  tenantId: number;
  sellerId: number | null;
  parameters: unknown;
}): DatasetJobInput | null => {
  const parsed = Parameters.safeParse(job.parameters);
  if (!parsed.success || job.sellerId === null) return null;
  return {
    jobId: job.jobId,
    tenantId: job.tenantId,
    sellerId: job.sellerId,
    dataset: parsed.data.type,
    contentType: parsed.data.contentType,
    startDate: parsed.data.startDate,
    endDate: parsed.data.endDate,
  };
};
