import { Worker, type NativeConnection } from '@temporalio/worker';
import type { Config } from '../../contracts/config';
import { taskQueues } from '../task-queues';
import { createIntegrationActivities, type IntegrationActivityDeps } from './crm/activities';
import type { CrmPushActivities } from './crm/job-input';

/**
 * The integrations queue's worker: CRM syncs, purges, unlinks and the clean-up after a disconnect or a
 * delete (docs/adr/0045-crm-sync.md). The pushes are helper "push"'s activities
 * (workflows/integrations/crm/push/push-activities.ts), registered beside ours.
 */
export const createIntegrationsWorker = (options: {
  connection: NativeConnection;
  config: Config;
  deps: IntegrationActivityDeps;
  push: CrmPushActivities;
}) =>
  Worker.create({
    connection: options.connection,
    namespace: options.config.TEMPORAL_NAMESPACE,
    taskQueue: taskQueues(options.config).integrations,
    workflowsPath: require.resolve('./crm/workflows'),
    activities: { ...createIntegrationActivities(options.deps), ...options.push },
    // I/O bound (the CRM's API, the read store), but a sync holds a tenant's companies in memory.
    maxConcurrentActivityTaskExecutions: 4,
    maxConcurrentWorkflowTaskExecutions: 8,
    maxCachedWorkflows: 100,
    // The read's heartbeat is its checkpoint (see workflows/sync/worker.ts).
    maxHeartbeatThrottleInterval: '2 seconds',
  });
