import { defineSearchAttributeKey, SearchAttributeType, type RetryPolicy } from '@temporalio/common';
import {
  ActivityFailure,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { ReportActivities } from './activities';
import type { ClientPerformanceActivities } from './client-performance/client-performance-activities';
import type {
  AdvisorOutcome,
  AdvisorSkip,
  ClientPerformanceInput,
  ClientPerformanceResult,
} from './client-performance/client-performance-input';
import type { ReportJobInput, ReportJobResult, ReportPlan, SkippedRecipient } from './report-job-input';
import type { ScheduledBatchActivities } from './report-schedules/scheduled-batch-activities';
import type { ScheduledReportsActivities } from './report-schedules/scheduled-reports-activities';
import type {
  ScheduledJob,
  ScheduledReportsInput,
  ScheduledReportsResult,
} from './report-schedules/scheduled-reports-input';
import { failureReasonOf } from '../failure-reason';
import { deliverPlannedReport } from './deliver-planned-report';

const refusals = ['AppError:conflict', 'AppError:not_found', 'AppError:validation'];

/** Whatever sends email retries for about an hour of SMTP trouble. */
const sendRetry: RetryPolicy = {
  initialInterval: '5 seconds',
  backoffCoefficient: 2,
  maximumInterval: '5 minutes',
  maximumAttempts: 20,
  nonRetryableErrorTypes: refusals,
};

/**
 * The job's short steps (begin, plan, finish: a few reads and one append each) run as local
 * activities, in the worker that runs the workflow, with no round trip through the server: a tick of
 * a thousand reports saves two thousand task dispatches. Each is idempotent, so a worker that dies
 * mid-step simply runs it again on the next one.
 */
const jobSteps = proxyLocalActivities<ReportActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 8, nonRetryableErrorTypes: refusals },
});

/** A big seller's report takes minutes; the heartbeat lets a killed worker's attempt be retried soon. */
const { renderAndArchive } = proxyActivities<ReportActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumAttempts: 5,
    nonRetryableErrorTypes: refusals,
  },
});

/**
 * One email: retried for an hour of SMTP trouble. The activity itself makes a retry safe (it checks
 * the job's emailed record first), and the short heartbeat timeout retries a send whose worker died.
 */
const { sendReportEmail } = proxyActivities<ReportActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '20 seconds',
  retry: sendRetry,
});

/**
 * A job of one file for at most one recipient: render, archive and send in one activity. It may
 * render for minutes (heartbeats every 5 s) and retries like a send, for about an hour of SMTP trouble.
 */
const { renderArchiveAndSend } = proxyActivities<ReportActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: sendRetry,
});

const reasonOf = (error: unknown): string => failureReasonOf(error, 'Sending the report failed.');

/**
 * A report job (issue 14, Sending): plan whom and what, render and archive each file once, send one
 * email per recipient (each at most once, in order, so the progress reads n of m), then end the job
 * with what was archived, sent and skipped. Its id is the job's workflowId, the idempotency key of
 * every side effect (docs/adr/0038-report-workflow-and-schedules.md).
 */
export async function reportJobWorkflow(input: ReportJobInput): Promise<ReportJobResult> {
  const step = { ...input, workflowId: workflowInfo().workflowId };
  try {
    // Runs recorded before the patch began and planned in two local activities (docs/adr/0038).
    let plan: ReportPlan;
    if (patched('begin-and-plan-in-one-step')) plan = await jobSteps.beginAndPlanReport(step);
    else {
      await jobSteps.beginReportJob(step);
      plan = await jobSteps.planReport(step);
    }
    const skippedRecipients: SkippedRecipient[] = [...plan.skippedRecipients];
    if (plan.skipped !== null) {
      const result: ReportJobResult = { skipped: plan.skipped, archived: [], sent: [], skippedRecipients };
      await jobSteps.finishReportJob({ ...step, failure: null, result });
      return result;
    }
    const [onlyFile] = plan.files;
    if (
      onlyFile &&
      plan.files.length === 1 &&
      plan.recipientIds.length <= 1 &&
      patched('render-and-send-in-one-activity')
    ) {
      const recipientId = plan.recipientIds[0] ?? null;
      const done = await renderArchiveAndSend({ ...step, file: onlyFile, recipientId });
      if (done.outcome?.status === 'skipped')
        skippedRecipients.push({ recipientId: done.outcome.recipientId, reason: done.outcome.reason });
      const result: ReportJobResult = {
        skipped: null,
        archived: done.archived ? [done.archived] : [],
        sent: done.outcome && done.outcome.status !== 'skipped' ? [done.outcome.recipientId] : [],
        skippedRecipients,
      };
      await jobSteps.finishReportJob({ ...step, failure: null, result });
      return result;
    }
    const result = await deliverPlannedReport({ renderAndArchive, sendReportEmail }, step, plan);
    await jobSteps.finishReportJob({ ...step, failure: null, result });
    return result;
  } catch (error) {
    await jobSteps.finishReportJob({ ...step, failure: reasonOf(error), result: null });
    throw error;
  }
}

const scheduledSteps = proxyActivities<ScheduledReportsActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumAttempts: 10, nonRetryableErrorTypes: refusals },
});

/** Set by Temporal on a scheduled run: the time it was due (a backfilled run starts later). */
const ScheduledStartTime = defineSearchAttributeKey(
  'TemporalScheduledStartTime',
  SearchAttributeType.DATETIME,
);

/**
 * A batch of a scheduled send: render, archive and send each of its sellers' reports, each under its
 * own job. It may run for minutes (heartbeats at least every 5 s; a killed worker's batch is retried
 * within a minute and skips what its jobs record as done) and retries like a send, for about an hour
 * of SMTP trouble.
 */
const { sendScheduledBatch } = proxyActivities<ScheduledBatchActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: sendRetry,
});

const batchEnd = proxyLocalActivities<ScheduledBatchActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumAttempts: 8 },
});

/**
 * A tenant's scheduled send (its weekly or monthly Temporal Schedule's action): one report job per
 * active seller, recorded as the gateway records them, so each shows in the jobs tables, the audit and
 * Live Reports. The schedule names each run `<schedule id>-<scheduled time>`: that id keys the jobs,
 * so a retried or replayed run records none twice.
 *
 * From the `scheduled-send-in-batches` patch on, this run also sends them: the jobs' ids come as one
 * block, and the sellers go in batches (a few sellers per activity, a few activities at a time)
 * instead of one workflow run per job (docs/adr/0038, the scheduled send in batches). A run recorded
 * before the patch replays its one step, which started a run per job.
 */
export async function scheduledReportsWorkflow(
  input: ScheduledReportsInput,
): Promise<ScheduledReportsResult> {
  const info = workflowInfo();
  const due = info.typedSearchAttributes.get(ScheduledStartTime) ?? info.startTime;
  const step = {
    ...input,
    scheduledRunId: info.workflowId,
    scheduledAt: input.scheduledAt ?? new Date(due).toISOString(),
  };
  if (!patched('scheduled-send-in-batches')) return scheduledSteps.recordScheduledReportJobs(step);
  // From the `record-jobs-beside-first-batches` patch on, the block records only the first batches'
  // jobs, and the rest are recorded while those are sent: the send no longer waits a second (at a
  // thousand sellers) before its first report (docs/adr/0038, 31st session).
  const firstBatchesOnly = patched('record-jobs-beside-first-batches');
  const recorded = await scheduledSteps.recordScheduledJobBlock(
    firstBatchesOnly ? { ...step, firstBatchesOnly } : step,
  );
  if (recorded.skipped !== null) return { skipped: recorded.skipped, jobIds: [] };
  const recordedCount = recorded.recorded ?? recorded.jobs.length;
  const rest = recorded.jobs.slice(recordedCount);
  const restRecorded =
    rest.length === 0 ? Promise.resolve() : scheduledSteps.recordScheduledJobs({ ...step, jobs: rest });
  // Awaited by each batch that needs it; a failure is not left unhandled before the first does.
  restRecorded.catch(() => undefined);
  const size = Math.max(1, recorded.batching.size);
  const batches: ScheduledJob[][] = [];
  for (let index = 0; index < recorded.jobs.length; index += size)
    batches.push(recorded.jobs.slice(index, index + size));
  let next = 0;
  const lane = async () => {
    while (next < batches.length) {
      const index = next;
      const jobs = batches[index]!;
      next += 1;
      try {
        // A batch never runs before its jobs exist: it would find them unknown and skip them. Should
        // their recording fail for good, the batch's jobs recorded by then are failed as below.
        if ((index + 1) * size > recordedCount) await restRecorded;
        await sendScheduledBatch({ ...step, jobs });
      } catch (error) {
        if (!(error instanceof ActivityFailure) || isCancellation(error)) throw error;
        // The batch's retries are spent: its open jobs fail with the reason, the other batches go on.
        await batchEnd.failScheduledBatch({ ...step, jobs, reason: reasonOf(error) });
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(Math.max(1, recorded.batching.lanes), batches.length) }, lane),
  );
  await restRecorded.catch(() => undefined);
  return { skipped: null, jobIds: recorded.jobs.map((job) => job.jobId) };
}

/** The Client Performance job's short steps (begin, an advisor's failure, finish), as the report job's. */
const clientSteps = proxyLocalActivities<ClientPerformanceActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 8, nonRetryableErrorTypes: refusals },
});

/** The plan counts every advisor's clients: a few reads each, heartbeated, minutes for thousands. */
const { planClientPerformanceJob } = proxyActivities<ClientPerformanceActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumAttempts: 5, nonRetryableErrorTypes: refusals },
});

const { renderAdvisorReport } = proxyActivities<ClientPerformanceActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumAttempts: 5,
    nonRetryableErrorTypes: refusals,
  },
});

const { sendAdvisorReport } = proxyActivities<ClientPerformanceActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '20 seconds',
  retry: sendRetry,
});

/**
 * The advisors' Client Performance Summary emailed (POST /api/reports, CLIENT_PERFORMANCE): plan the
 * advisors, then per advisor render and archive their summary and send it once, each advisor under a
 * report job of their own (its stream holds the archive and emailed records, keyed by this run's id).
 * One advisor's failure is recorded and the others go on; dryRun plans and sends nothing. Ends the
 * job with each advisor's outcome (docs/adr/0038, Client Performance).
 */
export async function clientPerformanceWorkflow(
  input: ClientPerformanceInput,
): Promise<ClientPerformanceResult> {
  const step = { ...input, workflowId: workflowInfo().workflowId };
  try {
    await clientSteps.beginClientPerformanceJob(step);
    const plan = await planClientPerformanceJob(step);
    const skipped: AdvisorSkip[] = [...plan.skipped];
    const advisors: AdvisorOutcome[] = plan.skipped.map((skip) => ({
      ...skip,
      status: 'skipped',
      jobId: null,
    }));
    const sent: number[] = [];
    for (const [index, advisor] of plan.advisors.entries()) {
      if (input.options.dryRun) {
        const { userId, recipientUserId, clients, format } = advisor;
        advisors.push({ userId, status: 'planned', recipientUserId, clients, format });
        continue;
      }
      const advisorStep = { ...step, advisor, index, total: plan.advisors.length };
      try {
        const rendered = await renderAdvisorReport(advisorStep);
        if (rendered.status === 'skipped') {
          skipped.push({ userId: advisor.userId, reason: rendered.reason });
          advisors.push({
            userId: advisor.userId,
            status: 'skipped',
            reason: rendered.reason,
            jobId: rendered.jobId,
          });
          continue;
        }
        const outcome = await sendAdvisorReport({
          ...advisorStep,
          advisorJobId: rendered.jobId,
          archived: rendered.archived,
          periodLabel: rendered.periodLabel,
        });
        advisors.push(outcome);
        if (outcome.status === 'skipped' || outcome.status === 'failed')
          skipped.push({ userId: advisor.userId, reason: outcome.reason });
        else sent.push(advisor.userId);
      } catch (error) {
        if (!(error instanceof ActivityFailure) || isCancellation(error)) throw error;
        const reason = reasonOf(error);
        const jobId = await clientSteps.failAdvisorReport({ ...advisorStep, reason });
        skipped.push({ userId: advisor.userId, reason });
        advisors.push({ userId: advisor.userId, status: 'failed', reason, jobId });
      }
    }
    const result: ClientPerformanceResult = { dryRun: input.options.dryRun, advisors, sent, skipped };
    await clientSteps.finishClientPerformanceJob({ ...step, failure: null, result });
    return result;
  } catch (error) {
    await clientSteps.finishClientPerformanceJob({ ...step, failure: reasonOf(error), result: null });
    throw error;
  }
}
