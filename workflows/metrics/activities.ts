import { heartbeat } from '@temporalio/activity';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../commands/command-handler';
import { AppError } from '../../contracts/errors';
import { isFinished } from '../../domain/job/job';
import { jobDecider } from '../../domain/job/job-decider';
import { notSyncedYetMessage } from '../../domain/seller/decide';
import { sellerDecider } from '../../domain/seller/seller-decider';
import {
  nonRetryableFrom,
  readState,
  runSystemCommand,
  type SystemCommandContext,
} from '../sync/system-commands';
import { scanSellerMetrics } from './scan-seller-metrics';
import type { GenerateMetricsInput, GenerateMetricsResult } from './metrics-input';
import { storeMetrics } from './metric-store';
import { readMetricsScope } from './metrics-scope';
import { withSellerMetricsLease } from './seller-metrics-lease';
import { jobStream, sellerStream } from '../../contracts/stream-ids';

export type MetricsDeps = { db: Db; writeSide: CommandHandlerDeps; now: () => Date };

const HEARTBEAT_EVERY = 20_000;

type JobProgress = { stage: string; done: number; total: number | null };

/**
 * The run's job steps, each under its own command id (a retried attempt records it once); nothing
 * for a run without a job.
 */
const jobStepsOf = (context: SystemCommandContext, job: { jobId: number | null; now: () => Date }) => ({
  start: async () => {
    if (job.jobId !== null)
      await runSystemCommand(context, jobDecider, {
        streamId: jobStream(job.jobId),
        step: 'start-job',
        command: { type: 'StartJob', now: job.now(), data: {} },
      });
  },
  progress: async (step: string, data: JobProgress) => {
    if (job.jobId !== null)
      await runSystemCommand(context, jobDecider, {
        streamId: jobStream(job.jobId),
        step: `progress:${step}`,
        command: { type: 'RecordJobProgress', now: job.now(), data },
      });
  },
});

export const createMetricsActivities = (deps: MetricsDeps) => ({
  /**
   * Computes and stores every metric of a seller from its ledger, honouring its exclusion flags and
   * the tenant's retention period, then records the MetricsDate. Rerunning it replaces the rows.
   * The job's progress says `metrics` once the run holds the seller (after the sync's `fetching`), and
   * `waiting` before that while another metrics run has it. The sellers job's onlyMissing does not
   * apply: any missing period needs the same whole scan, which gives every period at once.
   */
  async generateSellerMetrics(
    input: GenerateMetricsInput & { workflowId: string },
  ): Promise<GenerateMetricsResult> {
    const context: SystemCommandContext = {
      writeSide: deps.writeSide,
      workflowId: input.workflowId,
      tenantId: input.tenantId,
      process: 'generate-metrics',
    };
    const job = jobStepsOf(context, { jobId: input.jobId, now: deps.now });
    // A run that owns its job (the sellers job) shows it started before it may wait for the seller.
    if (input.finishJob) await job.start();
    const { exclusions, retention, asOf, synced } = await readMetricsScope(deps, input);
    // Before the first collection a populate may be writing the ledger: no partial figures.
    if (!synced) throw nonRetryableFrom(new AppError('conflict', notSyncedYetMessage));
    // One run per seller at a time (seller-metrics-lease.ts); the wait heartbeats, the run is alive.
    const onWait = async ({ first }: { first: boolean }) => {
      heartbeat('waiting');
      if (first) await job.progress('waiting', { stage: 'waiting', done: 0, total: null });
    };
    const metrics = await withSellerMetricsLease(
      deps,
      { sellerId: input.sellerId, holder: input.workflowId, onWait },
      async () => {
        await job.progress('metrics:start', { stage: 'metrics', done: 0, total: null });
        // Every metric, the receivables of ADR 30 included, in one scan of the ledger.
        const metrics = await scanSellerMetrics(deps.db, {
          sellerId: input.sellerId,
          exclusions,
          asOf,
          retention,
          onScanned: (scanned) => {
            if (scanned % HEARTBEAT_EVERY === 0) heartbeat(scanned);
          },
        });
        await storeMetrics(
          deps.db,
          { sellerId: input.sellerId, tenantId: input.tenantId, asOf, generation: input.workflowId },
          metrics,
        );
        return metrics;
      },
    );
    const metricsDate = deps.now();
    await runSystemCommand(context, sellerDecider, {
      streamId: sellerStream(input.sellerId),
      step: 'record-metrics-date',
      command: { type: 'RecordSellerMetricsDate', now: metricsDate, data: { metricsDate } },
    });
    await job.progress('metrics', { stage: 'metrics', done: 1, total: 1 });
    return {
      rows: metrics.rows.length,
      customers: metrics.customers.length,
      metricsDate: metricsDate.toISOString(),
    };
  },

  /** Ends the job a metrics run owns; a job already ended (cancelled meanwhile) is left as it is. */
  async finishMetricsJob(
    input: GenerateMetricsInput & {
      workflowId: string;
      failure: string | null;
      result: GenerateMetricsResult | null;
    },
  ) {
    if (input.jobId === null) return;
    const context: SystemCommandContext = {
      writeSide: deps.writeSide,
      workflowId: input.workflowId,
      tenantId: input.tenantId,
      process: 'generate-metrics',
    };
    const now = deps.now();
    const job = await readState(deps.writeSide, jobDecider, jobStream(input.jobId));
    if (job.status === 'none' || isFinished(job.status)) return;
    await runSystemCommand(context, jobDecider, {
      streamId: jobStream(input.jobId),
      step: input.failure === null ? 'complete-job' : 'fail-job',
      command:
        input.failure === null
          ? { type: 'CompleteJob', now, data: { result: input.result } }
          : { type: 'FailJob', now, data: { reason: input.failure } },
    });
  },
});

export type MetricsActivities = ReturnType<typeof createMetricsActivities>;
