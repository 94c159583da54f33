import { ApplicationFailure, heartbeat } from '@temporalio/activity';
import { heartbeatAtMostEverySecond } from '../../activity-heartbeat';
import type { Config } from '../../../contracts/config';
import { isFinished } from '../../../domain/job/job';
import { jobDecider } from '../../../domain/job/job-decider';
import { failureReasonOf } from '../../failure-reason';
import { jobStream, tenantStream } from '../../../contracts/stream-ids';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import { listRecipientsOfSellers } from '../../../projections/recipients/query-recipients';
import {
  createReportActivities,
  planBatchedReport,
  trackEmailedRecipients,
  type PlanReads,
  type ReportDeps,
} from '../activities';
import { currentState } from '../current-state';
import { deliverPlannedReport } from '../deliver-planned-report';
import { reportJobWorkflowId, reportRunOf } from '../report-job';
import type { ReportJobResult, ReportJobStep } from '../report-job-input';
import { scheduledJobParameters } from './scheduled-reports-activities';
import type {
  ScheduledBatchResult,
  ScheduledBatchStep,
  ScheduledJob,
  ScheduledReportsStep,
} from './scheduled-reports-input';

/** Jobs of a batch begun and planned at once (a few reads and one append each). */
const PLANNING_CONCURRENCY = 5;

/**
 * A scheduled send's job as its own run would see it (report-job.ts reads the same JobCreated): the
 * workflow options' defaults, as of the send's due time, under the job's own workflow id, the key of
 * its side effects' idempotency (the commands' ids, the email's Message-ID).
 */
export const scheduledJobStep = (
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>,
  step: ScheduledReportsStep,
  job: ScheduledJob,
): ReportJobStep => {
  const workflowId = reportJobWorkflowId(config, job);
  const run = reportRunOf({
    jobId: job.jobId,
    kind: 'report',
    tenantId: step.tenantId,
    sellerId: job.sellerId,
    parameters: scheduledJobParameters(step),
    workflowId,
    createdAt: step.scheduledAt,
  });
  if (!run) throw new Error(`job ${job.jobId}: a scheduled send's job must be runnable`);
  return { ...run, workflowId };
};

/** A refusal (a decider's, or a file the archive refuses): retrying the batch would not change it. */
const isRefusal = (error: unknown): error is ApplicationFailure =>
  error instanceof ApplicationFailure && error.nonRetryable === true;

const sendFailed = 'Sending the report failed.';

/**
 * The scheduled send in batches (docs/adr/0038, the scheduled send in batches): one activity renders,
 * archives and sends the reports of a batch of sellers, each under its own job, with each job's
 * once-only rules (the archive per job and type, the emailed record per recipient) kept as the job's
 * own run keeps them. A retried batch (a killed worker) skips the jobs already ended, and for the
 * others finds what was archived and emailed before and only completes it: no duplicate email, no
 * second archive, no job left behind. A refusal ends that job with its reason and the batch goes on;
 * any other failure is thrown after the rest of the batch, so the retry does only what is left.
 */
export const createScheduledBatchActivities = (
  deps: ReportDeps,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>,
) => {
  const steps = createReportActivities(deps);

  const finish = (job: ReportJobStep, outcome: { result: ReportJobResult } | { failure: string }) =>
    steps.finishReportJob({
      ...job,
      failure: 'failure' in outcome ? outcome.failure : null,
      result: 'result' in outcome ? outcome.result : null,
    });

  /**
   * Plans one job; null when it had ended already. The job is not started here: its JobStarted goes
   * with its first archived file (or its first progress, or its skip), one append fewer per job. A
   * job completed by an earlier attempt has its emailed recipients tracked, in case that attempt's
   * worker died between the completing email and the tracking (both once only).
   */
  const begin = async (job: ReportJobStep, reads: PlanReads) => {
    const state = await currentState(deps.writeSide, jobDecider, jobStream(job.jobId));
    if (state.status === 'none' || isFinished(state.status)) {
      if (state.status === 'completed') await trackEmailedRecipients(deps, job, state.emailedRecipientIds);
      return null;
    }
    return planBatchedReport(deps, job, reads);
  };

  type Plan = Awaited<ReturnType<typeof steps.planReport>>;

  /**
   * Renders, archives and sends one planned job: its result, or `completed` when its email's append
   * completed it. A job of one file for one reader (the usual scheduled send) is started by its
   * archive's append and completed by its email's (docs/adr/0038, fewer appends): JobStarted and
   * JobReportArchived, then JobReportEmailed and JobCompleted, then the reader's tracking.
   */
  const run = async (job: ReportJobStep, plan: Plan): Promise<ReportJobResult | 'completed'> => {
    if (plan.skipped !== null) {
      await steps.beginReportJob(job);
      return {
        skipped: plan.skipped,
        archived: [],
        sent: [],
        skippedRecipients: [...plan.skippedRecipients],
      };
    }
    const [file] = plan.files;
    const [recipientId] = plan.recipientIds;
    if (plan.files.length !== 1 || plan.recipientIds.length !== 1 || !file || recipientId === undefined) {
      await steps.beginReportJob(job);
      return deliverPlannedReport(steps, job, plan);
    }
    const rendered = await steps.renderAndArchive({
      ...job,
      file,
      index: 0,
      total: 1,
      recipientCount: 1,
      startJob: true,
    });
    const archived = rendered.archived ? [rendered.archived] : [];
    const skippedRecipients = [...plan.skippedRecipients];
    const outcome = await steps.sendReportEmail({
      ...job,
      recipientId,
      archived,
      summary: rendered.summary,
      index: 0,
      total: 1,
      fileCount: 1,
      completeWith: { skipped: null, archived, sent: [recipientId], skippedRecipients },
    });
    if (outcome.status === 'sent') return 'completed';
    if (outcome.status === 'skipped')
      return {
        skipped: null,
        archived,
        sent: [],
        skippedRecipients: [...skippedRecipients, { recipientId, reason: outcome.reason }],
      };
    return { skipped: null, archived, sent: [recipientId], skippedRecipients };
  };

  return {
    async sendScheduledBatch(step: ScheduledBatchStep): Promise<ScheduledBatchResult> {
      const jobs = step.jobs.map((job) => scheduledJobStep(config, step, job));
      const errors: Error[] = [];
      let finished = 0;
      let alreadyEnded = 0;
      const ending: Promise<void>[] = [];
      const fail = (job: ReportJobStep, error: unknown) => {
        if (!isRefusal(error)) {
          errors.push(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        finished += 1;
        ending.push(finish(job, { failure: failureReasonOf(error, sendFailed) }));
      };
      // Planned a few at a time (reads only: each job is started by its first append).
      const plans = new Array<Awaited<ReturnType<typeof begin>> | undefined>(jobs.length);
      // The tenant and every seller's subscriptions read once for the batch, not once a job.
      const [tenant, recipientsBySeller] = await Promise.all([
        currentState(deps.writeSide, tenantDecider, tenantStream(step.tenantId)),
        listRecipientsOfSellers(deps.db, {
          tenantId: step.tenantId,
          sellerIds: jobs.map((job) => job.sellerId),
        }),
      ]);
      let next = 0;
      const planLane = async () => {
        while (next < jobs.length) {
          const index = next;
          next += 1;
          try {
            const job = jobs[index]!;
            plans[index] = await begin(job, {
              tenant,
              recipients: recipientsBySeller.get(job.sellerId) ?? [],
            });
          } catch (error) {
            fail(jobs[index]!, error);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(PLANNING_CONCURRENCY, jobs.length) }, planLane));
      heartbeat('planned');
      // Rendered one after another (the PDF process draws one at a time); each job is completed as
      // soon as it is sent, its append overlapping the next render.
      for (const [index, job] of jobs.entries()) {
        const plan = plans[index];
        if (plan === null) {
          alreadyEnded += 1;
          continue;
        }
        if (plan === undefined) continue;
        try {
          const result = await run(job, plan);
          finished += 1;
          if (result !== 'completed') ending.push(finish(job, { result }));
        } catch (error) {
          fail(job, error);
        }
        heartbeatAtMostEverySecond(index + 1);
      }
      await Promise.all(ending);
      const [firstError] = errors;
      if (firstError) throw firstError;
      return { finished, alreadyEnded };
    },

    /**
     * A batch whose activity failed for good (its retries spent): its jobs still open are failed
     * with the reason, so none reads as processing for ever (the gateway's "still processing" rule).
     */
    async failScheduledBatch(step: ScheduledBatchStep & { reason: string }): Promise<void> {
      for (const scheduled of step.jobs) {
        const job = scheduledJobStep(config, step, scheduled);
        await finish(job, { failure: step.reason });
      }
    },
  };
};

export type ScheduledBatchActivities = ReturnType<typeof createScheduledBatchActivities>;
