import { Worker, type NativeConnection } from '@temporalio/worker';
import type { Config } from '../../contracts/config';
import { taskQueues } from '../task-queues';
import { createMetricsActivities, type MetricsDeps } from './activities';
import { createCustomerMetricsActivities } from './customer-metrics-activities';
import { createForecastActivities } from '../forecast/activities';

/**
 * The metrics queue's worker (GenerateMetrics and the customers job): computing is CPU bound, so two
 * at a time on a 2-core machine.
 */
export const createMetricsWorker = (options: {
  connection: NativeConnection;
  config: Config;
  deps: MetricsDeps;
}) =>
  Worker.create({
    connection: options.connection,
    namespace: options.config.TEMPORAL_NAMESPACE,
    taskQueue: taskQueues(options.config).metrics,
    workflowsPath: require.resolve('./workflows'),
    activities: {
      ...createMetricsActivities(options.deps),
      ...createCustomerMetricsActivities(options.deps),
      ...createForecastActivities(options.deps),
    },
    maxConcurrentActivityTaskExecutions: 2,
    maxConcurrentWorkflowTaskExecutions: 4,
    maxCachedWorkflows: 100,
  });
