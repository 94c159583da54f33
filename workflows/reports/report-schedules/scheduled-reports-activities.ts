import { heartbeat } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import type { Config } from '../../../contracts/config';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import { tenantStream } from '../../../contracts/stream-ids';
import { listTenantSellers } from '../../../projections/sellers/query-sellers';
import { readState } from '../../sync/system-commands';
import { runWithRequestContext, systemActorId } from '../../../commands/request-context';
import { jobStream } from '../../../contracts/stream-ids';
import { jobDecider } from '../../../domain/job/job-decider';
import { runSystemCommand } from '../../sync/system-commands';
import { recordReportJob } from '../record-report-job';
import { reportJobWorkflowId, reportRunOf } from '../report-job';
import { startReportJob } from '../report-job-reactor';
import { allocateJobIdBlock } from './job-id-block';
import type {
  ScheduledBatchStep,
  ScheduledBatching,
  ScheduledJob,
  ScheduledBlockResult,
  ScheduledReportsResult,
  ScheduledReportsStep,
} from './scheduled-reports-input';

export type ScheduledReportsDeps = {
  db: Db;
  writeSide: CommandHandlerDeps;
  now: () => Date;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>;
  client: Client;
  /** How the batched send splits its sellers (default: DEFAULT_BATCHING). */
  batching?: Partial<ScheduledBatching>;
};

/**
 * Sellers per batch activity and batch activities at a time, chosen by measurement on the
 * reports-schedule bench (bench/README.md): a batch renders, archives and sends its sellers one
 * after another, and several batches at once keep the PDF process busy while the others wait on the
 * stores.
 */
export const DEFAULT_BATCHING: ScheduledBatching = { size: 20, lanes: 4 };

/** Jobs recorded and started at once: enough to hide the round trips, few enough for a small store. */
const RECORDING_CONCURRENCY = 8;

/** Runs `work` for 0..count-1, at most `concurrency` at a time; the first failure fails the whole. */
const inPool = async (count: number, concurrency: number, work: (index: number) => Promise<void>) => {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      await work(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
};

export const scheduledSkips = {
  tenantInactive: 'The company is disabled.',
  weekly: 'Weekly emails are disabled for this company.',
  monthly: 'Monthly emails are disabled for this company.',
} as const;

/** The key of a scheduled send's job of one seller: its request id, and its claim in the id block. */
const jobKeyPrefix = (step: ScheduledReportsStep) => `${step.scheduledRunId}:seller-`;

/**
 * The scheduled send's one step: a report job per active, synced seller of the tenant, with the
 * workflow options' defaults (noOverride and noRecent, admin.md section 9), each run started. The tenant's settings are
 * read again here, so a send that fires just before its schedule is paused records nothing.
 */
export const createScheduledReportsActivities = (deps: ScheduledReportsDeps) => {
  /**
   * The active, synced sellers a send covers, as of now; or why it sends nothing (the tenant
   * disabled, or this frequency's emails off), read again at each firing.
   */
  const sellersToSend = async (
    step: ScheduledReportsStep,
  ): Promise<{ skipped: string } | { skipped: null; sellerIds: number[]; now: Date }> => {
    const tenant = await readState(deps.writeSide, tenantDecider, tenantStream(step.tenantId));
    if (tenant.status !== 'active') return { skipped: scheduledSkips.tenantInactive };
    const disabled =
      step.frequency === 'weekly'
        ? tenant.reporting.WeeklyEmailsDisabled
        : tenant.reporting.MonthlyEmailsDisabled;
    if (disabled) return { skipped: scheduledSkips[step.frequency] };
    const now = deps.now();
    const { sellers } = await listTenantSellers(deps.db, { tenantId: step.tenantId, active: true, now });
    const sellerIds = sellers.filter((seller) => seller.CollectionDate !== null).map((seller) => seller.Id);
    return { skipped: null, sellerIds, now };
  };

  /**
   * The JobCreated of each of a scheduled send's jobs, keyed by the run and the seller (a retry
   * records none twice), with the job reactor told to leave them to the run (`batchRunId`).
   */
  const recordJobs = async (step: ScheduledReportsStep, jobs: readonly ScheduledJob[], now: Date) => {
    let done = 0;
    await inPool(jobs.length, RECORDING_CONCURRENCY * 2, async (index) => {
      const { jobId, sellerId } = jobs[index]!;
      const requestId = `${jobKeyPrefix(step)}${sellerId}`;
      await runSystemCommand(
        {
          writeSide: deps.writeSide,
          workflowId: requestId,
          tenantId: step.tenantId,
          process: 'report-schedules',
        },
        jobDecider,
        {
          streamId: jobStream(jobId),
          step: 'create-job',
          command: {
            type: 'CreateJob',
            now,
            data: {
              jobId,
              kind: 'report',
              tenantId: step.tenantId,
              sellerId,
              parameters: {
                ...scheduledJobParameters(step),
                batchRunId: step.scheduledRunId,
              },
              workflowId: reportJobWorkflowId(deps.config, { sellerId, jobId }),
            },
          },
        },
      );
      done += 1;
      if (done % 50 === 0) heartbeat(done);
    });
  };

  return {
    async recordScheduledReportJobs(step: ScheduledReportsStep): Promise<ScheduledReportsResult> {
      const covered = await sellersToSend(step);
      if (covered.skipped !== null) return { skipped: covered.skipped, jobIds: [] };
      const { sellerIds, now } = covered;
      const jobIds: number[] = new Array<number>(sellerIds.length);
      let done = 0;
      await inPool(sellerIds.length, RECORDING_CONCURRENCY, async (index) => {
        const sellerId = sellerIds[index]!;
        const { jobId, job } = await recordReportJob(
          { writeSide: deps.writeSide, config: deps.config },
          {
            requestId: `${jobKeyPrefix(step)}${sellerId}`,
            process: 'report-schedules',
            tenantId: step.tenantId,
            sellerId,
            parameters: scheduledJobParameters(step),
            now,
          },
        );
        // Started here rather than left to the job reactor, which starts one run at a time: a tick
        // of a thousand sellers would wait on it. Whichever comes first starts it; the other finds it.
        const run = reportRunOf(job);
        if (run) await startReportJob({ ...run, workflowId: job.workflowId }, deps);
        jobIds[index] = jobId;
        done += 1;
        heartbeat(done);
      });
      return { skipped: null, jobIds };
    },

    /**
     * The batched send's first step (from the `scheduled-send-in-batches` patch on): a job per active,
     * synced seller, as above, with the block of ids allocated at once, and no run started per job: the
     * tick's own workflow runs them in batches (`batchRunId` in the parameters tells the job reactor to
     * leave them alone). A retry finds the block and the jobs it recorded and answers the same list.
     */
    async recordScheduledJobBlock(
      step: ScheduledReportsStep & { firstBatchesOnly?: boolean },
    ): Promise<ScheduledBlockResult> {
      const batching = { ...DEFAULT_BATCHING, ...deps.batching };
      const covered = await sellersToSend(step);
      if (covered.skipped !== null) return { skipped: covered.skipped, jobs: [], batching };
      const { sellerIds, now } = covered;
      const keyPrefix = jobKeyPrefix(step);
      const ids = await runWithRequestContext(
        { actor: systemActorId('report-schedules'), tenantId: step.tenantId },
        () =>
          allocateJobIdBlock(deps.writeSide.store, {
            commandId: step.scheduledRunId,
            keys: sellerIds.map((sellerId) => `${keyPrefix}${sellerId}`),
            now,
          }),
      );
      heartbeat('ids');
      // A retry keeps every id the first attempt allocated; a seller added meanwhile gets a new one.
      // Every id the run holds becomes a job in its batches, a seller's that left the list between two
      // attempts included: an earlier attempt (one that timed out and ran on) may have recorded its job,
      // and the batch then ends it with its skip reason instead of leaving it "created" for ever.
      const jobs = [...ids]
        .filter(([key]) => key.startsWith(keyPrefix))
        .map(([key, jobId]) => ({ sellerId: Number(key.slice(keyPrefix.length)), jobId }))
        .sort((a, b) => a.jobId - b.jobId);
      // With `firstBatchesOnly`, the jobs of the first batches only (as many as run at once): the run
      // starts sending them while recordScheduledJobs records the rest (docs/adr/0038, 31st session).
      const recorded = step.firstBatchesOnly
        ? Math.min(jobs.length, batching.size * batching.lanes)
        : jobs.length;
      await recordJobs(step, jobs.slice(0, recorded), now);
      return { skipped: null, jobs, batching, recorded };
    },

    /** The rest of a block's jobs, recorded beside the first batches (the block's `firstBatchesOnly`). */
    async recordScheduledJobs(step: ScheduledBatchStep): Promise<void> {
      await recordJobs(step, step.jobs, deps.now());
    },
  };
};

/** The parameters of a scheduled send's job: the workflow options' defaults (admin.md section 9). */
export const scheduledJobParameters = (step: ScheduledReportsStep) => ({
  type: 'workflow',
  frequency: step.frequency,
  noOverride: true,
  noRecent: true,
  onlyArchive: false,
  skipRecentDataChecks: false,
  scheduledAt: step.scheduledAt,
});

export type ScheduledReportsActivities = ReturnType<typeof createScheduledReportsActivities>;
