import type { Client } from '@temporalio/client';
import { Worker, type NativeConnection } from '@temporalio/worker';
import type { Config } from '../../contracts/config';
import { taskQueues } from '../task-queues';
import { createReportActivities, type ReportDeps } from './activities';
import { createClientPerformanceActivities } from './client-performance/client-performance-activities';
import { createScheduledBatchActivities } from './report-schedules/scheduled-batch-activities';
import type { ScheduledBatching } from './report-schedules/scheduled-reports-input';
import { createScheduledReportsActivities } from './report-schedules/scheduled-reports-activities';

/**
 * The reports queue's worker: report jobs, the advisors' Client Performance jobs and the tenants'
 * scheduled sends. Eight activities at a time: a job's activity mostly waits (on the one PDF process,
 * which holds the CPU-heavy drawing, on S3, SMTP, the event store and the Temporal server), and with
 * the projector in its own process the worker's main thread idled three quarters of a tick at four
 * (docs/adr/0038, fewer steps per job); a flood of syncs never delays it (its own queue).
 */
export const createReportsWorker = (options: {
  connection: NativeConnection;
  config: Config;
  deps: ReportDeps;
  /** Starts the runs of the jobs a scheduled send records. */
  client: Client;
  maxConcurrentActivities?: number;
  maxConcurrentWorkflowTasks?: number;
  /** How a scheduled send splits its sellers into batches (the bench tries others). */
  scheduledBatching?: Partial<ScheduledBatching>;
}) =>
  Worker.create({
    connection: options.connection,
    namespace: options.config.TEMPORAL_NAMESPACE,
    taskQueue: taskQueues(options.config).reports,
    workflowsPath: require.resolve('./workflows'),
    activities: {
      ...createReportActivities(options.deps),
      ...createClientPerformanceActivities(options.deps),
      ...createScheduledReportsActivities({
        ...options.deps,
        config: options.config,
        client: options.client,
        ...(options.scheduledBatching ? { batching: options.scheduledBatching } : {}),
      }),
      ...createScheduledBatchActivities(options.deps, options.config),
    },
    maxConcurrentActivityTaskExecutions: options.maxConcurrentActivities ?? 8,
    // A report job's first workflow task holds its slot while the begin and plan local activities
    // run (a few reads and appends, most of it waiting on the event store): at 4 slots a tick's
    // jobs queued about 30 s for their first task behind them (docs/adr/0038, Costs of a job).
    maxConcurrentWorkflowTaskExecutions: options.maxConcurrentWorkflowTasks ?? 24,
    maxCachedWorkflows: 200,
  });
