import { taskQueues } from '../../task-queues';
import type { Config } from '../../../contracts/config';
import type { ManagedReportProvider, ManagedReportType } from '../../../contracts/events/job';

/**
 * One refresh of the Live Reports of an integration for one seller (docs/adr/0049-live-reports.md):
 * a job (kind sync, parameters.target live-reports) run by liveReportsWorkflow. Workflow code imports
 * this file: no Node built-ins.
 */
export type LiveReportsInput = {
  jobId: number;
  tenantId: number;
  sellerId: number;
  integrationId: number;
  provider: ManagedReportProvider;
  /** What the tenant's plan lets this refresh write (the customer sheet needs its own feature). */
  types: ManagedReportType[];
  /**
   * The forecast run after the same metrics run (forecast-after-metrics-reactor.ts), awaited first so
   * the AR forecast sheet shows the new forecast; null when the seller's forecasting is off.
   */
  forecastWorkflowId: string | null;
};

export type LiveReportsStep = LiveReportsInput & { workflowId: string };

export type LiveReportWritten = { type: ManagedReportType; fileId: string; storageUrl: string } | null;

export type LiveReportsResult = {
  written: { type: ManagedReportType; storageUrl: string }[];
  /** Types with nothing to write yet (no forecast). */
  skipped: ManagedReportType[];
};

/** The queue of the Live Reports worker (a worker of its own: its workflows are a bundle of their own). */
export const liveReportsTaskQueue = (config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>) =>
  taskQueues(config).liveReports;

export const liveReportsWorkflowId = (
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>,
  run: { integrationId: number; sellerId: number; jobId: number },
) => `${config.TEMPORAL_TASK_QUEUE_PREFIX}-live-reports-${run.integrationId}-${run.sellerId}-${run.jobId}`;

/** The Drive app property value (and managed report id) of one live report. */
export const liveReportKey = (run: { integrationId: number; sellerId: number }, type: ManagedReportType) =>
  `${run.integrationId}-${type}-${run.sellerId}`;

export const liveReportStages = { waiting: 'waiting for forecast', writing: 'writing live reports' } as const;
