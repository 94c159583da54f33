import { executeChild, ParentClosePolicy, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { generateMetricsWorkflow } from '../metrics/workflows';
import type { SyncActivities } from './activities';
import type { SyncSellerInput, SyncSellerResult } from './sync-input';
import { failureReasonOf } from '../failure-reason';

const refusals = ['AppError:conflict', 'AppError:not_found', 'AppError:validation', 'AppError:forbidden'];

const { beginSellerSync, finishSellerSync, failSellerSync } = proxyActivities<SyncActivities>({
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumAttempts: 8,
    nonRetryableErrorTypes: refusals,
  },
});

/** Heartbeats after every page: a worker that dies is noticed within the heartbeat timeout, then resumed. */
const { syncLedgerPages } = proxyActivities<SyncActivities>({
  startToCloseTimeout: '4 hours',
  heartbeatTimeout: '15 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 12,
    nonRetryableErrorTypes: refusals,
  },
});

const reasonOf = (error: unknown): string => failureReasonOf(error, 'The sync failed.');

/**
 * SyncSeller (admin.md section 4): populate, sync or repopulate one seller's ledger from its
 * platform, record the CollectionDate, then generate its metrics unless only fetching.
 */
export async function syncSellerWorkflow(input: SyncSellerInput): Promise<SyncSellerResult> {
  const { workflowId } = workflowInfo();
  const step = { ...input, workflowId };
  let pages: { records: number; pages: number };
  let collectionDate: string;
  try {
    const plan = await beginSellerSync(step);
    pages = await syncLedgerPages({ ...step, plan });
    collectionDate = plan.until;
    await finishSellerSync({ ...step, collectionDate, completeJob: input.onlyFetch });
  } catch (error) {
    await failSellerSync({ ...step, reason: reasonOf(error), syncStarted: true });
    throw error;
  }
  if (!input.onlyFetch)
    await executeChild<typeof generateMetricsWorkflow>('generateMetricsWorkflow', {
      taskQueue: input.metricsTaskQueue,
      workflowId: `${workflowId}-metrics`,
      parentClosePolicy: ParentClosePolicy.ABANDON,
      args: [{ sellerId: input.sellerId, tenantId: input.tenantId, jobId: input.jobId, finishJob: true }],
    });
  return { records: pages.records, pages: pages.pages, collectionDate, metrics: !input.onlyFetch };
}
