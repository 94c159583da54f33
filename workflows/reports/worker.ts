import { Worker, type NativeConnection } from '@temporalio/worker';
import type { Config } from '../../contracts/config';
import { taskQueues } from '../task-queues';
import { createReportActivities, type ReportDeps } from './activities';
import { createScheduledReportsActivities } from './report-schedules/scheduled-reports-activities';

/**
 * The reports queue's worker: report jobs and the tenants' scheduled sends. Rendering is CPU bound,
 * so two activities at a time on a 2-core machine; a flood of syncs never delays it (its own queue).
 */
export const createReportsWorker = (options: {
  connection: NativeConnection;
  config: Config;
  deps: ReportDeps;
  maxConcurrentActivities?: number;
}) =>
  Worker.create({
    connection: options.connection,
    namespace: options.config.TEMPORAL_NAMESPACE,
    taskQueue: taskQueues(options.config).reports,
    workflowsPath: require.resolve('./workflows'),
    activities: {
      ...createReportActivities(options.deps),
      ...createScheduledReportsActivities({ ...options.deps, config: options.config }),
    },
    maxConcurrentActivityTaskExecutions: options.maxConcurrentActivities ?? 2,
    maxConcurrentWorkflowTaskExecutions: 4,
    maxCachedWorkflows: 200,
  });
