import { heartbeat } from '@temporalio/activity';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import type { Config } from '../../../contracts/config';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import { tenantStream } from '../../../contracts/stream-ids';
import { listTenantSellers } from '../../../projections/sellers/query-sellers';
import { readState } from '../../sync/system-commands';
import { recordReportJob } from '../record-report-job';
import type { ScheduledReportsResult, ScheduledReportsStep } from './scheduled-reports-input';

export type ScheduledReportsDeps = {
  db: Db;
  writeSide: CommandHandlerDeps;
  now: () => Date;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>;
};

export const scheduledSkips = {
  tenantInactive: 'The company is disabled.',
  weekly: 'Weekly emails are disabled for this company.',
  monthly: 'Monthly emails are disabled for this company.',
} as const;

/**
 * The scheduled send's one step: a report job per active, synced seller of the tenant, with the
 * workflow options' defaults (noOverride and noRecent, admin.md section 9). The tenant's settings are
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
    const jobIds: number[] = [];
    for (const seller of sellers) {
      if (seller.CollectionDate === null) continue;
      const { jobId } = await recordReportJob(
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
      jobIds.push(jobId);
      heartbeat(jobIds.length);
    }
    return { skipped: null, jobIds };
  },
});

export type ScheduledReportsActivities = ReturnType<typeof createScheduledReportsActivities>;
