import { Worker, type NativeConnection } from '@temporalio/worker';
import type { Config } from '../../contracts/config';
import { taskQueues } from '../task-queues';
import { createSyncActivities, type SyncDeps } from './activities';

/**
 * The sync queue's worker. Sized for a 2-core machine: a sync is I/O bound (connector, Mongo, event
 * store) but builds pages in memory, so a few at a time.
 */
export const createSyncWorker = (options: { connection: NativeConnection; config: Config; deps: SyncDeps }) =>
  Worker.create({
    connection: options.connection,
    namespace: options.config.TEMPORAL_NAMESPACE,
    taskQueue: taskQueues(options.config).sync,
    workflowsPath: require.resolve('./workflows'),
    activities: createSyncActivities(options.deps),
    maxConcurrentActivityTaskExecutions: 4,
    maxConcurrentWorkflowTaskExecutions: 8,
    maxCachedWorkflows: 100,
    // A sync's heartbeat is its checkpoint: sent at most every 2 s instead of 12 s (0.8 x its timeout),
    // a resumed sync compares fewer pages with the stored rows, each a whole-collection read on FerretDB.
    maxHeartbeatThrottleInterval: '2 seconds',
  });
