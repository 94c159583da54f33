import { heartbeat } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import type { Config } from '../../../contracts/config';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import { tenantStream } from '../../../contracts/stream-ids';
import { listTenantSellers } from '../../../projections/sellers/query-sellers';
import { readState } from '../../sync/system-commands';
import { recordReportJob } from '../record-report-job';
import { reportRunOf } from '../report-job';
import { startReportJob } from '../report-job-reactor';
import type { ScheduledReportsResult, ScheduledReportsStep } from './scheduled-reports-input';

export type ScheduledReportsDeps = {
  db: Db;
  writeSide: CommandHandlerDeps;
  now: () => Date;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>;
  client: Client;
};

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

/**
 * The scheduled send's one step: a report job per active, synced seller of the tenant, with the
 * workflow options' defaults (noOverride and noRecent, admin.md section 9), each run started. The tenant's settings are
 * read again here, so a send that fires just before its schedule is paused records nothing.
 */
export const createScheduledReportsActivities = (deps: ScheduledReportsDeps) => ({
  async recordScheduledReportJobs(step: ScheduledReportsStep): Promise<ScheduledReportsResult> {
    const tenant = await readState(deps.writeSide, tenantDecider, tenantStream(step.tenantId));
    if (tenant.status !== 'active') return { skipped: scheduledSkips.tenantInactive, jobIds: [] };
    const disabled =
      step.frequency === 'weekly'
        ? tenant.reporting.WeeklyEmailsDisabled
        : tenant.reporting.MonthlyEmailsDisabled;
    if (disabled) return { skipped: scheduledSkips[step.frequency], jobIds: [] };
    const now = deps.now();
    const { sellers } = await listTenantSellers(deps.db, { tenantId: step.tenantId, active: true, now });
    const synced = sellers.filter((seller) => seller.CollectionDate !== null);
    const jobIds: number[] = new Array<number>(synced.length);
    let done = 0;
    await inPool(synced.length, RECORDING_CONCURRENCY, async (index) => {
      const seller = synced[index]!;
      const { jobId, job } = await recordReportJob(
        { writeSide: deps.writeSide, config: deps.config },
        {
          requestId: `${step.scheduledRunId}:seller-${seller.Id}`,
          process: 'report-schedules',
          tenantId: step.tenantId,
          sellerId: seller.Id,
          parameters: {
            type: 'workflow',
            frequency: step.frequency,
            noOverride: true,
            noRecent: true,
            onlyArchive: false,
            skipRecentDataChecks: false,
            scheduledAt: step.scheduledAt,
          },
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
});

export type ScheduledReportsActivities = ReturnType<typeof createScheduledReportsActivities>;
