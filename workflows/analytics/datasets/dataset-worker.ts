import { Worker, type NativeConnection } from '@temporalio/worker';
import type { Config } from '../../../contracts/config';
import { taskQueues } from '../../task-queues';
import { createDatasetActivities, type DatasetDeps } from './dataset-activities';

/** The datasets queue's worker, in the analytics process: a few files at a time. */
export const createDatasetsWorker = (options: {
  connection: NativeConnection;
  config: Config;
  deps: DatasetDeps;
  maxConcurrentActivities?: number;
}) =>
  Worker.create({
    connection: options.connection,
    namespace: options.config.TEMPORAL_NAMESPACE,
    taskQueue: taskQueues(options.config).datasets,
    workflowsPath: require.resolve('./workflows'),
    activities: createDatasetActivities(options.deps),
    maxConcurrentActivityTaskExecutions: options.maxConcurrentActivities ?? 4,
    maxConcurrentWorkflowTaskExecutions: 8,
    maxCachedWorkflows: 200,
  });
