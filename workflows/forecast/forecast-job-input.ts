/** What starts a forecast run (shared by the client, the workflow and its activities; no Node imports). */
export type ForecastJobType = 'forecasts' | 'forecastByCustomer' | 'historical';

export type ForecastJobInput = {
  sellerId: number;
  tenantId: number;
  /** The job that reports the run; null for the forecast that follows a metrics run. */
  jobId: number | null;
  /** A job's type, or `afterMetrics` for the forecast after every completed sync and metrics run. */
  jobType: ForecastJobType | 'afterMetrics';
  onlyMissing: boolean;
};

export type ForecastJobStep = ForecastJobInput & { workflowId: string };

/** The job's result, as the jobs table shows it. */
export type ForecastJobResult = {
  /** Why nothing was issued (forecasting off for the seller), or null. */
  skipped: string | null;
  issued: number;
  skippedAsOfs: number;
  customerForecasts: number;
  validatedSteps: number;
  validatedCustomers: number;
};
