import type { Config } from '../contracts/config';

/** One task queue per concern, so a flood of syncs never starves report sends (architecture.md, workflows). */
export const taskQueues = (config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>) => ({
  system: `${config.TEMPORAL_TASK_QUEUE_PREFIX}-system`,
  sync: `${config.TEMPORAL_TASK_QUEUE_PREFIX}-sync`,
  metrics: `${config.TEMPORAL_TASK_QUEUE_PREFIX}-metrics`,
  reports: `${config.TEMPORAL_TASK_QUEUE_PREFIX}-reports`,
  datasets: `${config.TEMPORAL_TASK_QUEUE_PREFIX}-datasets`,
  /** CRM integration jobs: a 100k-company sync must not hold up the ledger syncs' queue. */
  integrations: `${config.TEMPORAL_TASK_QUEUE_PREFIX}-integrations`,
  /** Live Reports refreshes (Google Sheets, OneDrive): slow third-party writes kept off the reports queue. */
  liveReports: `${config.TEMPORAL_TASK_QUEUE_PREFIX}-live-reports`,
});
