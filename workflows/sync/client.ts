import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Config } from '../../contracts/config';
import { AppError } from '../../contracts/errors';
import type { SellerSyncMode } from '../../contracts/events/seller';
import { sellerSearchAttributes } from '../search-attributes';
import { taskQueues } from '../task-queues';
import type { SyncSellerInput } from './sync-input';
import type { syncSellerWorkflow } from './workflows';

const alreadySyncing = () => new AppError('conflict', 'A sync of this seller is already running.');

export const syncWorkflowIdOf = (sellerId: number, at: Date) => `sync-seller-${sellerId}-${at.getTime()}`;

/**
 * The run of a recorded sync request: readable in the Temporal UI, one run per job however often it is
 * started, and qualified by the deployment's prefix, since ids restart at 1 in a fresh event store.
 */
export const syncJobWorkflowId = (
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>,
  job: { sellerId: number; jobId: number },
) => `${config.TEMPORAL_TASK_QUEUE_PREFIX}-sync-seller-${job.sellerId}-job-${job.jobId}`;

export type StartSellerSync = {
  sellerId: number;
  tenantId: number;
  mode: SellerSyncMode;
  jobId: number;
  onlyFetch?: boolean;
  /** DEMO's advance-to-date; default now. */
  until?: Date;
  /** The run's id when the request already named one (the job's workflowId); default `sync-seller-<id>-<time>`. */
  workflowId?: string;
  pageSize?: number;
  /**
   * The seller decider already took this request as the seller's running sync (a recorded
   * SellerSyncRequested): no other sync is running, though the run before it may still be generating
   * its metrics (SyncSeller awaits its GenerateMetrics child), so Temporal is not asked.
   */
  accepted?: boolean;
};

export type TemporalAccess = {
  client: Client;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>;
  now?: () => Date;
};

/** Scoped to this deployment's sync queue: test runs and other deployments may share a Temporal server. */
const runningSyncOf = async (client: Client, scope: { sellerId: number; taskQueue: string }) => {
  const query = `WorkflowType = 'syncSellerWorkflow' AND SellerId = ${scope.sellerId} AND TaskQueue = '${scope.taskQueue}' AND ExecutionStatus = 'Running'`;
  for await (const execution of client.workflow.list({ query, pageSize: 1 })) return execution.workflowId;
  return null;
};

/**
 * Starts SyncSeller for a seller, refusing while another sync of it runs. Visibility is eventually
 * consistent, so two starts within a moment can both pass this check: the seller decider is the
 * authoritative guard (its RequestSellerSync refuses a second running sync and the later run fails).
 * A request that names its run (a recorded job's) and finds that run already there, running or
 * closed, starts nothing (`started` false): a closed run's id is never reused, so a redelivered
 * request does not fetch again.
 */
export const startSellerSync = async (
  request: StartSellerSync,
  temporal: TemporalAccess,
): Promise<{ workflowId: string; started: boolean }> => {
  const queues = taskQueues(temporal.config);
  const workflowId =
    request.workflowId ?? syncWorkflowIdOf(request.sellerId, (temporal.now ?? (() => new Date()))());
  const running = request.accepted
    ? null
    : await runningSyncOf(temporal.client, { sellerId: request.sellerId, taskQueue: queues.sync });
  if (running !== null && running === request.workflowId) return { workflowId, started: false };
  if (running !== null) throw alreadySyncing();
  const input: SyncSellerInput = {
    sellerId: request.sellerId,
    tenantId: request.tenantId,
    mode: request.mode,
    jobId: request.jobId,
    onlyFetch: request.onlyFetch ?? false,
    until: request.until?.toISOString() ?? null,
    metricsTaskQueue: queues.metrics,
    pageSize: request.pageSize ?? 500,
  };
  try {
    await temporal.client.workflow.start<typeof syncSellerWorkflow>('syncSellerWorkflow', {
      taskQueue: queues.sync,
      workflowId,
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      args: [input],
      typedSearchAttributes: sellerSearchAttributes(request),
    });
    return { workflowId, started: true };
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    // The named run exists; an id of our own making that exists belongs to another request.
    if (request.workflowId !== undefined) return { workflowId, started: false };
    throw alreadySyncing();
  }
};
