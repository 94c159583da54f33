/** What starts GenerateMetrics (shared by clients, the workflow and its activity; no Node imports). */
export type GenerateMetricsInput = {
  sellerId: number;
  tenantId: number;
  /** The job that reports progress, or null for a run nobody watches. */
  jobId: number | null;
  /** False when a parent (a sync) owns the job and ends it itself. */
  finishJob: boolean;
};

export type GenerateMetricsResult = { rows: number; customers: number; metricsDate: string };
