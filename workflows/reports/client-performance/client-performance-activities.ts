import { heartbeat } from '@temporalio/activity';
import { allocateId } from '../../../commands/id-allocator';
import { runWithRequestContext, systemActorId } from '../../../commands/request-context';
import type { JobJson } from '../../../contracts/events/job';
import { jobStream } from '../../../contracts/stream-ids';
import { isFinished } from '../../../domain/job/job';
import { jobDecider } from '../../../domain/job/job-decider';
import { usersCollection } from '../../../projections/users/user-view';
import { readState, runSystemCommand, type SystemCommandContext } from '../../sync/system-commands';
import type { ReportDeps } from '../activities';
import { clientPerformanceEmailMessage } from '../email/client-performance-email';
import { periodLabel } from '../pdf/pdf-format';
import { renderClientPerformance } from '../pdf/render-client-performance';
import { NoClientsToReportError } from '../report-data/client-performance-data';
import { isoDay, reportPeriodOf } from '../report-data/report-period';
import type { ArchivedFile } from '../report-job-input';
import type {
  AdvisorOutcome,
  AdvisorStep,
  ClientPerformancePlan,
  ClientPerformanceResult,
  ClientPerformanceStep,
} from './client-performance-input';
import { advisorJobWorkflowId } from './client-performance-job';
import { advisorSkips, planClientPerformance, unmailable } from './client-performance-plan';

const processName = 'reports';

const contextOf = (
  deps: ReportDeps,
  job: { workflowId: string; tenantId: number },
): SystemCommandContext => ({
  writeSide: deps.writeSide,
  workflowId: job.workflowId,
  tenantId: job.tenantId,
  process: processName,
});

/** One advisor's own job: its stream holds that advisor's archived summary and emailed record. */
const advisorJobOf = (step: AdvisorStep) => ({
  workflowId: advisorJobWorkflowId(step.workflowId, step.advisor.userId),
  tenantId: step.advisor.archiveTenantId,
});

const recordProgress = (
  deps: ReportDeps,
  step: ClientPerformanceStep,
  { stage, done, total }: { stage: string; done: number; total: number },
) =>
  runSystemCommand(contextOf(deps, step), jobDecider, {
    streamId: jobStream(step.jobId),
    step: `progress:${stage}:${done}`,
    command: { type: 'RecordJobProgress', now: deps.now(), data: { stage, done, total } },
  });

/**
 * The advisor's job id: allocated once per parent run and advisor (the claim key is the advisor job's
 * workflow id), then its JobCreated recorded once, in the tenant that archives the summary.
 */
const recordAdvisorJob = async (deps: ReportDeps, step: AdvisorStep): Promise<number> => {
  const advisorJob = advisorJobOf(step);
  const jobId = await runWithRequestContext(
    { actor: systemActorId(processName), tenantId: advisorJob.tenantId },
    () =>
      allocateId(deps.writeSide.store, {
        category: 'job',
        commandId: advisorJob.workflowId,
        now: new Date(step.asOf),
      }),
  );
  const job = await readState(deps.writeSide, jobDecider, jobStream(jobId));
  if (job.status === 'none') await createAdvisorJob(deps, step, jobId);
  // Both steps are keyed by the advisor job's run: a retry after either appends nothing twice.
  if (job.status === 'none' || job.status === 'created')
    await runSystemCommand(contextOf(deps, advisorJob), jobDecider, {
      streamId: jobStream(jobId),
      step: 'start-job',
      command: { type: 'StartJob', now: deps.now(), data: {} },
    });
  return jobId;
};

const createAdvisorJob = async (deps: ReportDeps, step: AdvisorStep, jobId: number) => {
  const advisorJob = advisorJobOf(step);
  const parameters: JobJson = {
    type: 'CLIENT_PERFORMANCE',
    parentJobId: step.jobId,
    advisorUserId: step.advisor.userId,
    recipientUserId: step.advisor.recipientUserId,
  };
  await runSystemCommand(contextOf(deps, advisorJob), jobDecider, {
    streamId: jobStream(jobId),
    step: 'create-job',
    command: {
      type: 'CreateJob',
      now: deps.now(),
      data: {
        jobId,
        kind: 'report',
        tenantId: advisorJob.tenantId,
        sellerId: null,
        parameters,
        workflowId: advisorJob.workflowId,
      },
    },
  });
};

/** Ends an advisor's job (completed with its outcome, or failed); an ended job is left as it is. */
const endAdvisorJob = async (
  deps: ReportDeps,
  step: AdvisorStep & { advisorJobId: number },
  ending: { result: JobJson } | { failure: string },
) => {
  const jobId = step.advisorJobId;
  const job = await readState(deps.writeSide, jobDecider, jobStream(jobId));
  if (job.status === 'none' || isFinished(job.status)) return;
  const now = deps.now();
  await runSystemCommand(contextOf(deps, advisorJobOf(step)), jobDecider, {
    streamId: jobStream(jobId),
    step: 'result' in ending ? 'complete-job' : 'fail-job',
    command:
      'result' in ending
        ? { type: 'CompleteJob', now, data: { result: ending.result } }
        : { type: 'FailJob', now, data: { reason: ending.failure } },
  });
};

const heartbeating = async <T>(work: () => Promise<T>): Promise<T> => {
  const timer = setInterval(() => heartbeat(), 5_000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
};

export type RenderedAdvisorReport =
  | { status: 'archived'; jobId: number; archived: ArchivedFile; periodLabel: string }
  | { status: 'skipped'; jobId: number; reason: string };

/**
 * The Client Performance job's steps (docs/adr/0038, Client Performance). The parent job records the
 * plan and the outcome per advisor; each advisor's summary gets a job of its own, whose stream keeps
 * the archived file and the emailed record, so a retried or replayed step archives and sends once.
 */
export const createClientPerformanceActivities = (deps: ReportDeps) => {
  const renderClientReport =
    deps.parts.renderClientReport ??
    ((request: { advisorUserId: number; asOf: Date }) =>
      renderClientPerformance(deps.db, { ...request, format: 'pdf' }));
  return {
    async beginClientPerformanceJob(step: ClientPerformanceStep): Promise<void> {
      await runSystemCommand(contextOf(deps, step), jobDecider, {
        streamId: jobStream(step.jobId),
        step: 'start-job',
        command: { type: 'StartJob', now: deps.now(), data: {} },
      });
    },

    /** Whom and for whom, from the users, firms and clients read models as they are now. */
    async planClientPerformanceJob(step: ClientPerformanceStep): Promise<ClientPerformancePlan> {
      const plan = await planClientPerformance(
        { db: deps.db, config: deps.config, isDemoRecipient: deps.parts.isDemoRecipient },
        {
          tenantId: step.tenantId,
          asOf: new Date(step.asOf),
          options: step.options,
          onAdvisor: () => heartbeat(),
        },
      );
      if (!step.options.dryRun)
        await recordProgress(deps, step, { stage: 'sending', done: 0, total: plan.advisors.length });
      return plan;
    },

    /**
     * Renders one advisor's summary as of the job's date (a PDF, or the sheet from 30 clients) and
     * archives it in their firm, once per advisor job however often this is retried.
     */
    async renderAdvisorReport(step: AdvisorStep): Promise<RenderedAdvisorReport> {
      heartbeat();
      const jobId = await recordAdvisorJob(deps, step);
      const asOf = new Date(step.asOf);
      const report = await heartbeating(() =>
        renderClientReport({ advisorUserId: step.advisor.userId, asOf }).catch((error: unknown) => {
          if (error instanceof NoClientsToReportError) return null;
          throw error;
        }),
      );
      if (report === null) {
        // The advisor's clients changed since the plan (or the user was deleted).
        await endAdvisorJob(
          deps,
          { ...step, advisorJobId: jobId },
          { result: { skipped: advisorSkips.noClients } },
        );
        return { status: 'skipped', jobId, reason: advisorSkips.noClients };
      }
      const { archivedId } = await deps.parts.archive({
        tenantId: step.advisor.archiveTenantId,
        sellerId: null,
        jobId,
        report,
      });
      const month = reportPeriodOf('monthly', asOf);
      return {
        status: 'archived',
        jobId,
        archived: {
          archivedId,
          type: report.type,
          fileName: report.fileName,
          displayName: report.displayName,
          contentType: report.contentType,
          size: report.bytes.byteLength,
        },
        periodLabel: periodLabel({ start: isoDay(month.start), end: isoDay(month.end) }, 'monthly'),
      };
    },

    /**
     * One email with one advisor's summary, at most once per advisor job: a send already recorded is
     * not sent again. The recipient is read now (an address changed or a user deleted since the plan).
     */
    async sendAdvisorReport(
      step: AdvisorStep & { advisorJobId: number; archived: ArchivedFile; periodLabel: string },
    ): Promise<AdvisorOutcome> {
      heartbeat();
      const { advisor, advisorJobId: jobId } = step;
      const outcome = await (async (): Promise<AdvisorOutcome> => {
        const sent = {
          userId: advisor.userId,
          jobId,
          recipientUserId: advisor.recipientUserId,
          archived: step.archived,
        };
        if (await deps.parts.wasEmailed({ jobId, recipientId: advisor.userId }))
          return { ...sent, status: 'already-sent' };
        const users = await usersCollection(deps.db);
        const [recipient, subject] = await Promise.all([
          users.findOne({ _id: advisor.recipientUserId, deleted: false }),
          users.findOne({ _id: advisor.userId }),
        ]);
        if (!recipient)
          return { userId: advisor.userId, status: 'skipped', reason: advisorSkips.userGone, jobId };
        const cannot = unmailable(recipient.Email, deps.parts.isDemoRecipient);
        if (cannot !== null) return { userId: advisor.userId, status: 'skipped', reason: cannot, jobId };
        const attachment = await deps.parts.readArchived({ jobId, sellerId: null, file: step.archived });
        const message = await clientPerformanceEmailMessage({
          jobId,
          advisorUserId: advisor.userId,
          to: recipient.Email.trim(),
          recipientName: recipient.GivenName,
          aboutAdvisor:
            advisor.recipientUserId === advisor.userId ? null : (subject?.Name ?? `User ${advisor.userId}`),
          clients: advisor.clients,
          periodLabel: step.periodLabel,
          attachment,
          clientsUrl: new URL('/clients', deps.config.PUBLIC_URL).toString(),
        });
        const accepted = await deps.parts.mailer.send(message);
        await deps.parts.recordEmailed({
          jobId,
          recipientId: advisor.userId,
          reportTypes: [step.archived.type],
          messageId: message.messageId ?? accepted.messageId,
        });
        return { ...sent, status: 'sent' };
      })();
      await endAdvisorJob(deps, { ...step, advisorJobId: jobId }, { result: outcome as unknown as JobJson });
      await recordProgress(deps, step, { stage: 'sending', done: step.index + 1, total: step.total });
      return outcome;
    },

    /** An advisor whose report failed after its retries: their job fails, the others go on. */
    async failAdvisorReport(step: AdvisorStep & { reason: string }): Promise<number | null> {
      const jobId = await runWithRequestContext(
        { actor: systemActorId(processName), tenantId: step.advisor.archiveTenantId },
        () =>
          allocateId(deps.writeSide.store, {
            category: 'job',
            commandId: advisorJobOf(step).workflowId,
            now: new Date(step.asOf),
          }),
      );
      const job = await readState(deps.writeSide, jobDecider, jobStream(jobId));
      if (job.status === 'none') return null;
      await endAdvisorJob(deps, { ...step, advisorJobId: jobId }, { failure: step.reason });
      return jobId;
    },

    /** Completes the job with each advisor's outcome, or fails it with the reason. */
    async finishClientPerformanceJob(
      step: ClientPerformanceStep & { failure: string | null; result: ClientPerformanceResult | null },
    ): Promise<void> {
      const job = await readState(deps.writeSide, jobDecider, jobStream(step.jobId));
      if (job.status === 'none' || isFinished(job.status)) return;
      const now = deps.now();
      await runSystemCommand(contextOf(deps, step), jobDecider, {
        streamId: jobStream(step.jobId),
        step: step.failure === null ? 'complete-job' : 'fail-job',
        command:
          step.failure === null
            ? { type: 'CompleteJob', now, data: { result: step.result } }
            : { type: 'FailJob', now, data: { reason: step.failure } },
      });
    },
  };
};

export type ClientPerformanceActivities = ReturnType<typeof createClientPerformanceActivities>;
