/** What starts a data-set run (shared by the reactor, the workflow and its activities; no Node imports). */
import type { DatasetContentType, DatasetType } from '../../../contracts/api/jobs';
import type { DatasetJobResult } from '../../../contracts/api/analytics-datasets';

export type DatasetJobInput = {
  jobId: number;
  tenantId: number;
  sellerId: number;
  dataset: DatasetType;
  contentType: DatasetContentType;
  startDate: string;
  endDate: string;
};

export type DatasetJobStep = DatasetJobInput & { workflowId: string };

export type { DatasetJobResult };
