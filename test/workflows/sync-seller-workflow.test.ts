import { activityInfo, heartbeat } from '@temporalio/activity';
import { ActivityFailure, ChildWorkflowFailure } from '@temporalio/common';
import type { MetricsActivities } from '../../workflows/metrics/activities';
import type { GenerateMetricsResult } from '../../workflows/metrics/metrics-input';
import type { SyncActivities } from '../../workflows/sync/activities';
import type { SyncPlan, SyncSellerInput } from '../../workflows/sync/sync-input';
import type { syncSellerWorkflow } from '../../workflows/sync/workflows';
import { activitiesCalling, failureOf, refusal, useTimeSkippingWorkers } from '../harness/time-skipping';
import { keepHistory } from '../harness/workflow-histories';

/**
 * SyncSeller with its activities mocked, on Temporal's time-skipping test server: the order of the
 * steps, what each receives, the metrics child, and what happens on refusals, retries and a worker that
 * stops heartbeating. The activities themselves are tested against the real servers elsewhere
 * (sync-and-metrics, sync-worker-kill).
 */

type Checkpoint = Awaited<ReturnType<SyncActivities['syncLedgerPages']>>;
type SyncMocks = { [K in keyof SyncActivities]: jest.Mock };
type MetricsMocks = Pick<
  { [K in keyof MetricsActivities]: jest.Mock },
  'generateSellerMetrics' | 'finishMetricsJob'
>;

const syncQueue = 'test-sync';
const metricsQueue = 'test-metrics';
const plan: SyncPlan = { since: null, until: '2026-11-01T00:00:00.000Z', epoch: 41 };
const metricsResult: GenerateMetricsResult = {
  rows: 12,
  customers: 3,
  metricsDate: '2026-11-01T00:00:00.000Z',
};
const finishedPages: Checkpoint = { cursor: null, pages: 3, records: 250, finished: true };

const input = (overrides: Partial<SyncSellerInput> = {}): SyncSellerInput => ({
  sellerId: 7,
  tenantId: 3,
  mode: 'populate',
  jobId: 41,
  onlyFetch: false,
  until: null,
  metricsTaskQueue: metricsQueue,
  pageSize: 100,
  ...overrides,
});

// The workers are created once per file (bundling the workflow code takes seconds); each test sets
// the mocks their activities call (activitiesCalling).
let sync: SyncMocks;
let metrics: MetricsMocks;
const newMocks = () => {
  sync = {
    beginSellerSync: jest.fn().mockResolvedValue(plan),
    syncLedgerPages: jest.fn().mockResolvedValue(finishedPages),
    finishSellerSync: jest.fn().mockResolvedValue(undefined),
    failSellerSync: jest.fn().mockResolvedValue(undefined),
  };
  metrics = {
    generateSellerMetrics: jest.fn().mockResolvedValue(metricsResult),
    finishMetricsJob: jest.fn().mockResolvedValue(undefined),
  };
};
newMocks();

const environment = useTimeSkippingWorkers([
  {
    taskQueue: syncQueue,
    workflowsPath: require.resolve('../../workflows/sync/workflows'),
    activities: activitiesCalling(() => sync, [
      'beginSellerSync',
      'syncLedgerPages',
      'finishSellerSync',
      'failSellerSync',
    ] satisfies (keyof SyncMocks)[]),
  },
  {
    taskQueue: metricsQueue,
    workflowsPath: require.resolve('../../workflows/metrics/workflows'),
    activities: activitiesCalling(() => metrics, ['generateSellerMetrics', 'finishMetricsJob']),
  },
]);
let runs = 0;

beforeEach(newMocks);

/** Starts a run; one whose history is recorded takes the history's name as its id. */
const start = (args: SyncSellerInput, workflowId = `sync-seller-${++runs}`) =>
  environment().client.workflow.start<typeof syncSellerWorkflow>('syncSellerWorkflow', {
    taskQueue: syncQueue,
    workflowId,
    args: [args],
  });

describe('syncSellerWorkflow', () => {
  it('begins, pages, finishes with the window end as CollectionDate, then generates metrics as a child', async () => {
    const handle = await start(input(), 'sync-seller-with-metrics');
    const result = await handle.result();

    expect(result).toEqual({ records: 250, pages: 3, collectionDate: plan.until, metrics: true });
    const step = { ...input(), workflowId: handle.workflowId };
    expect(sync.beginSellerSync).toHaveBeenCalledWith(step);
    expect(sync.syncLedgerPages).toHaveBeenCalledWith({ ...step, plan });
    // The job stays open: the metrics child completes it.
    expect(sync.finishSellerSync).toHaveBeenCalledWith({
      ...step,
      collectionDate: plan.until,
      completeJob: false,
    });
    expect(sync.failSellerSync).not.toHaveBeenCalled();
    expect(metrics.generateSellerMetrics).toHaveBeenCalledWith({
      sellerId: 7,
      tenantId: 3,
      jobId: 41,
      finishJob: true,
      workflowId: `${handle.workflowId}-metrics`,
    });
    expect(metrics.finishMetricsJob).toHaveBeenCalledWith(
      expect.objectContaining({ jobId: 41, failure: null, result: metricsResult }),
    );
    const child = await environment().client.workflow.getHandle(`${handle.workflowId}-metrics`).describe();
    expect(child.taskQueue).toBe(metricsQueue);
    expect(child.status.name).toBe('COMPLETED');
    await keepHistory(handle);
  });

  it('only fetching completes the job itself and starts no metrics run', async () => {
    const handle = await start(
      input({ mode: 'sync', onlyFetch: true, until: '2026-11-01T00:00:00.000Z' }),
      'sync-seller-only-fetch',
    );

    await expect(handle.result()).resolves.toEqual({
      records: 250,
      pages: 3,
      collectionDate: plan.until,
      metrics: false,
    });
    expect(sync.finishSellerSync).toHaveBeenCalledWith(expect.objectContaining({ completeJob: true }));
    expect(metrics.generateSellerMetrics).not.toHaveBeenCalled();
    await expect(
      environment().client.workflow.getHandle(`${handle.workflowId}-metrics`).describe(),
    ).rejects.toThrow(/not found/i);
    await keepHistory(handle);
  });

  it('a refusal is not retried: the sync and its job fail with the refusal text', async () => {
    sync.beginSellerSync.mockRejectedValue(refusal('conflict', 'Another sync of this seller is running.'));
    const handle = await start(input(), 'sync-seller-refused');

    const cause = await failureOf(handle.result());
    expect(cause).toBeInstanceOf(ActivityFailure);
    expect(sync.beginSellerSync).toHaveBeenCalledTimes(1);
    expect(sync.syncLedgerPages).not.toHaveBeenCalled();
    expect(sync.finishSellerSync).not.toHaveBeenCalled();
    expect(sync.failSellerSync).toHaveBeenCalledWith({
      ...input(),
      workflowId: handle.workflowId,
      reason: 'Another sync of this seller is running.',
      syncStarted: true,
    });
    expect(metrics.generateSellerMetrics).not.toHaveBeenCalled();
    await keepHistory(handle);
  });

  it.each(['not_found', 'validation', 'forbidden'])('a %s refusal is not retried either', async (code) => {
    sync.syncLedgerPages.mockRejectedValue(refusal(code, `refused: ${code}`));
    const handle = await start(input());

    await failureOf(handle.result());
    expect(sync.syncLedgerPages).toHaveBeenCalledTimes(1);
    expect(sync.failSellerSync).toHaveBeenCalledWith(expect.objectContaining({ reason: `refused: ${code}` }));
  });

  it('a transient failure is retried and the sync completes without failing the job', async () => {
    sync.beginSellerSync
      .mockRejectedValueOnce(new Error('event store busy'))
      .mockRejectedValueOnce(new Error('event store busy'))
      .mockResolvedValue(plan);
    const handle = await start(input({ onlyFetch: true }), 'sync-seller-retried');

    await expect(handle.result()).resolves.toMatchObject({ records: 250 });
    expect(sync.beginSellerSync).toHaveBeenCalledTimes(3);
    expect(sync.failSellerSync).not.toHaveBeenCalled();
    await keepHistory(handle);
  });

  it('pages that keep failing are given up after 12 attempts, and the sync fails with the last error', async () => {
    sync.syncLedgerPages.mockRejectedValue(new Error('the platform answered 503'));
    const handle = await start(input());

    const cause = await failureOf(handle.result());
    expect(cause).toBeInstanceOf(ActivityFailure);
    expect(sync.syncLedgerPages).toHaveBeenCalledTimes(12);
    expect(sync.failSellerSync).toHaveBeenCalledWith(
      expect.objectContaining({ reason: 'the platform answered 503', syncStarted: true }),
    );
    expect(sync.finishSellerSync).not.toHaveBeenCalled();
  });

  it('a failure to record the CollectionDate still fails the sync and its job', async () => {
    sync.finishSellerSync.mockRejectedValue(refusal('conflict', 'The seller has no running sync.'));
    const handle = await start(input());

    await failureOf(handle.result());
    expect(sync.failSellerSync).toHaveBeenCalledWith(
      expect.objectContaining({ reason: 'The seller has no running sync.' }),
    );
    expect(metrics.generateSellerMetrics).not.toHaveBeenCalled();
  });

  it('a worker that stops heartbeating is noticed by the heartbeat timeout; the next attempt resumes at the last checkpoint', async () => {
    const checkpoint: Checkpoint = { cursor: 'page-3', pages: 2, records: 200, finished: false };
    let release: () => void = () => undefined;
    const lost = new Promise<void>((resolve) => (release = resolve));
    const seenByAttempt: unknown[] = [];
    sync.syncLedgerPages.mockImplementation(async () => {
      const info = activityInfo();
      seenByAttempt.push(info.heartbeatDetails);
      if (info.attempt === 1) {
        heartbeat(checkpoint);
        // The worker hangs (a lost process): no more heartbeats, no result.
        await lost;
        throw new Error('released after the test');
      }
      return { cursor: null, pages: 3, records: 250, finished: true };
    });
    const handle = await start(input({ onlyFetch: true }), 'sync-seller-heartbeat-timeout');

    try {
      await expect(handle.result()).resolves.toMatchObject({ records: 250, pages: 3 });
    } finally {
      release();
    }
    expect(seenByAttempt).toEqual([undefined, checkpoint]);
    expect(sync.failSellerSync).not.toHaveBeenCalled();
    await keepHistory(handle);
  });

  it('a metrics child that fails leaves the job to the child: the sync fails without failing it again', async () => {
    metrics.generateSellerMetrics.mockRejectedValue(refusal('validation', 'The seller has no ledger.'));
    const handle = await start(input(), 'sync-seller-metrics-failed');

    const cause = await failureOf(handle.result());
    expect(cause).toBeInstanceOf(ChildWorkflowFailure);
    expect(sync.finishSellerSync).toHaveBeenCalledWith(expect.objectContaining({ completeJob: false }));
    expect(metrics.finishMetricsJob).toHaveBeenCalledWith(
      expect.objectContaining({ jobId: 41, failure: 'The seller has no ledger.', result: null }),
    );
    expect(sync.failSellerSync).not.toHaveBeenCalled();
    await keepHistory(handle);
  });
});
