import { Worker, type NativeConnection } from '@temporalio/worker';
import type { Config } from '../../../contracts/config';
import { createLiveReportsActivities, type LiveReportsDeps } from './live-reports-activities';
import { liveReportsTaskQueue } from './live-reports-input';

/** The Live Reports queue's worker: calls to cloud drives, mostly waiting on the network. */
export const createLiveReportsWorker = (options: {
  connection: NativeConnection;
  config: Config;
  deps: LiveReportsDeps;
}) =>
  Worker.create({
    connection: options.connection,
    namespace: options.config.TEMPORAL_NAMESPACE,
    taskQueue: liveReportsTaskQueue(options.config),
    workflowsPath: require.resolve('./workflows'),
    activities: createLiveReportsActivities(options.deps),
    maxConcurrentActivityTaskExecutions: 4,
    maxConcurrentWorkflowTaskExecutions: 4,
    maxCachedWorkflows: 100,
  });
