/** What starts the customers job's run (shared by the client, the workflow and its activities). */
export type CustomerMetricsInput = {
  sellerId: number;
  tenantId: number;
  /** The job (job- stream) that reports the run. */
  jobId: number;
};

export type CustomerMetricsStep = CustomerMetricsInput & { workflowId: string };

/** The job's result, as the jobs table shows it. */
export type CustomerMetricsResult = {
  customers: number;
  customersT36M: number;
  activeCustomers: number;
  retentionMonths: number;
};
