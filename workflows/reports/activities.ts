import { heartbeat } from '@temporalio/activity';
import { heartbeatAtMostEverySecond } from '../activity-heartbeat';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../commands/command-handler';
import type { ArchivedReportType, ReportSection } from '../../contracts/api/reports';
import type { Config } from '../../contracts/config';
import type { TrackedReport } from '../../contracts/events/recipient';
import { jobStream, recipientStream, sellerStream, tenantStream } from '../../contracts/stream-ids';
import { isFinished } from '../../domain/job/job';
import { jobDecider } from '../../domain/job/job-decider';
import { recipientDecider } from '../../domain/recipient/recipient-decider';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import type { TenantState } from '../../domain/tenant/tenant';
import {
  findSellerRecipient,
  listSellerRecipients,
  type RecipientView,
} from '../../projections/recipients/query-recipients';
import type { OutgoingEmail } from '../email/smtp-mailer';
import { runSystemCommand, type SystemCommandContext } from '../sync/system-commands';
import { currentState } from './current-state';
import { reportEmailMessage, reportMessageId } from './email/report-email';
import { signUnsubscribeToken, unsubscribeLink } from './email/unsubscribe-token';
import { chooseRecipients, skipReasons } from './recipient-choice';
import type { RenderedReport } from './rendered-report';
import type {
  ArchivedFile,
  PdfFrequency,
  ReportFile,
  ReportJobResult,
  ReportJobStep,
  ReportPlan,
  SendOutcome,
  SheetOptions,
} from './report-job-input';
import { pdfReportTypes } from './report-job-input';
import type { ReportSummary } from './pdf/render-seller-report';
import { timeZoneOf } from './report-schedules/schedule-spec';

/** The headline of a rendered report, small enough for the workflow's history: the email shows it. */
export type { ReportSummary };

/** Which worksheets one workbook holds (workflows/reports/sheets/render-sheets.ts). */
export type SheetInclude = {
  customerSheet?: boolean;
  customerReviewSheet?: boolean;
  productSheet?: boolean;
  prioritizedInvoices?: boolean;
  forecast?: boolean;
};

/**
 * The parts the report workflow orchestrates, built by the other parts of issue 14 (renderers, archive,
 * email ledger, mailer) and injected, so each is replaceable in a test and the activities hold only
 * the orchestration: what to render, whom to send to, and doing each side effect once.
 */
export type ReportParts = {
  renderPdf: (request: {
    tenantId: number;
    sellerId: number;
    frequency: PdfFrequency;
    asOf: Date;
    /** An on-demand report's sections; null for all of them. */
    sections: ReportSection[] | null;
  }) => Promise<{ report: RenderedReport; summary: ReportSummary }>;
  /** One workbook; null when it has nothing to show (no forecast yet for the AR forecast sheet). */
  renderSheet: (request: {
    sellerId: number;
    asOf: Date;
    include: SheetInclude;
  }) => Promise<RenderedReport | null>;
  /**
   * An advisor's Client Performance Summary (a PDF, or the sheet from 30 clients); null when the
   * user is gone; NoClientsToReportError when no client qualifies. Optional: without it the
   * Client Performance job renders with pdf/render-client-performance.ts from `db`.
   */
  renderClientReport?: (request: { advisorUserId: number; asOf: Date }) => Promise<RenderedReport | null>;
  /**
   * Idempotent per job, type and seller (null: the job's tenant-wide file): a retry returns the first
   * id. `startJob` starts a job still `created` in the same append (the scheduled send's batches).
   */
  archive: (request: {
    tenantId: number;
    sellerId: number | null;
    jobId: number;
    report: RenderedReport;
    startJob?: boolean;
  }) => Promise<{ archivedId: number }>;
  /** A file this job archived, to attach. */
  readArchived: (request: {
    jobId: number;
    sellerId: number | null;
    file: ArchivedFile;
  }) => Promise<RenderedReport>;
  wasEmailed: (request: { jobId: number; recipientId: number }) => Promise<boolean>;
  /**
   * Recorded once SMTP accepted the message; with `complete`, the job's completion in the same append
   * (the scheduled send's batches: its last email).
   */
  recordEmailed: (request: {
    jobId: number;
    recipientId: number;
    reportTypes: ArchivedReportType[];
    messageId: string;
    complete?: { result: ReportJobResult };
  }) => Promise<void>;
  isDemoRecipient: (email: string) => boolean;
  mailer: { send: (email: OutgoingEmail) => Promise<{ messageId: string }> };
};

export type ReportDeps = {
  db: Db;
  writeSide: CommandHandlerDeps;
  now: () => Date;
  config: Pick<Config, 'PLATFORM_ADMIN_EMAILS' | 'PUBLIC_URL' | 'SESSION_SECRET'>;
  parts: ReportParts;
};

/** The job's failure texts a user reads in the jobs table. */
export const reportSkips = {
  sellerGone: 'The seller was deleted.',
  sellerInactive: 'The seller is inactive.',
  notSynced: 'The seller has not synced yet.',
  noRecentData: 'No data was received from the seller in the past 24 hours.',
  tenantInactive: 'The company is disabled.',
  nothingToDo: 'Nothing to send or archive: no recipient takes this report.',
} as const;

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The workbooks the options ask for. The customer review is a worksheet of the customer sheet's
 * workbook (alone in it when only the review is asked for), as render-sheets.ts makes it.
 */
const sheetFilesOf = (sheets: SheetOptions): ReportFile[] => [
  ...(sheets.includeCustomerSheet || sheets.includeCustomerReviewSheet
    ? [{ type: 'CUSTOMER_SHEET' as const }]
    : []),
  ...(sheets.includePrioritizedInvoices ? [{ type: 'PRIORITIZED_INVOICES_SHEET' as const }] : []),
  ...(sheets.includeForecast ? [{ type: 'AR_FORECAST_SHEET' as const }] : []),
];

const sheetIncludeOf = (type: ArchivedReportType, sheets: SheetOptions): SheetInclude | null => {
  switch (type) {
    case 'CUSTOMER_SHEET':
      return {
        customerSheet: sheets.includeCustomerSheet,
        customerReviewSheet: sheets.includeCustomerReviewSheet,
      };
    case 'PRODUCT_SHEET':
      return { productSheet: true };
    case 'PRIORITIZED_INVOICES_SHEET':
      return { prioritizedInvoices: true };
    case 'AR_FORECAST_SHEET':
      return { forecast: true };
    case 'MONTHLY_REPORT':
    case 'WEEKLY_REPORT':
    case 'SCORECARD_REPORT':
    case 'ONDEMAND_REPORT':
    case 'WELCOME_REPORT':
    case 'BENCHMARKS_REPORT':
    case 'CLIENT_PERFORMANCE_REPORT':
      return null;
  }
};

const trackedOf: Partial<Record<PdfFrequency, TrackedReport>> = {
  weekly: 'weekly',
  monthly: 'monthly',
  welcome: 'welcome',
};

const commandContext = (deps: ReportDeps, step: ReportJobStep): SystemCommandContext => ({
  writeSide: deps.writeSide,
  workflowId: step.workflowId,
  tenantId: step.tenantId,
  process: 'reports',
});

/**
 * Whether a job records its progress at all: only when it has more than one file or more than one
 * recipient. A job of one file for one recipient (every scheduled weekly or monthly send to a seller
 * with one reader) is over in about the time a progress event takes to reach the browser; its
 * JobStarted and JobCompleted tell the whole story, three progress events fewer per job
 * (docs/adr/0038, Costs of a job). Unknown counts (a run started before they were passed) record it.
 */
export const recordsProgress = (work: { files?: number; recipients?: number }): boolean =>
  work.files === undefined || work.recipients === undefined || work.files + work.recipients > 2;

const recordProgress = (
  deps: ReportDeps,
  step: ReportJobStep,
  progress: { stage: string; done: number; total: number | null },
) =>
  runSystemCommand(commandContext(deps, step), jobDecider, {
    streamId: jobStream(step.jobId),
    step: `progress:${progress.stage}:${progress.done}`,
    command: { type: 'RecordJobProgress', now: deps.now(), data: progress },
  });

/**
 * What a plan may be given instead of reading it itself: the tenant's state and the seller's
 * subscriptions, read once for a batch of sellers (the scheduled send's batches).
 */
export type PlanReads = { tenant: TenantState; recipients: RecipientView[] };

/** Who and what, from the seller's and tenant's current state and the seller's subscriptions. */
const planFor = async (deps: ReportDeps, step: ReportJobStep, reads?: PlanReads): Promise<ReportPlan> => {
  const skip = (reason: string): ReportPlan => ({
    skipped: reason,
    files: [],
    recipientIds: [],
    skippedRecipients: [],
  });
  const seller = await currentState(deps.writeSide, sellerDecider, sellerStream(step.sellerId));
  if (seller.status !== 'known') return skip(reportSkips.sellerGone);
  if (!seller.active) return skip(reportSkips.sellerInactive);
  if (seller.collectionDate === null || seller.metricsDate === null) return skip(reportSkips.notSynced);
  const now = deps.now();
  if (step.requireRecentData && now.getTime() - Date.parse(seller.collectionDate) > dayMs)
    return skip(reportSkips.noRecentData);
  const tenant =
    reads?.tenant ?? (await currentState(deps.writeSide, tenantDecider, tenantStream(step.tenantId)));
  if (tenant.status !== 'active') return skip(reportSkips.tenantInactive);
  const { recipients } =
    reads ?? (await listSellerRecipients(deps.db, { sellerId: step.sellerId, tenantId: step.tenantId }));
  const chosen = chooseRecipients(recipients, {
    pdf: step.pdf,
    selection: step.recipients,
    noOverride: step.noOverride,
    now,
    timeZone: timeZoneOf(tenant.reporting),
    adminEmails: deps.config.PLATFORM_ADMIN_EMAILS.map((email) => email.toLowerCase()),
    isDemoRecipient: deps.parts.isDemoRecipient,
  });
  // Every sent report is archived; an unsent one only when asked.
  if (chosen.recipientIds.length === 0 && !step.archive)
    return { ...skip(reportSkips.nothingToDo), skippedRecipients: chosen.skipped };
  const files: ReportFile[] = [
    ...(step.pdf ? [{ type: pdfReportTypes[step.pdf] }] : []),
    ...sheetFilesOf(step.sheets),
  ];
  return { skipped: null, files, recipientIds: chosen.recipientIds, skippedRecipients: chosen.skipped };
};

/** Heartbeats while a long render runs, so a killed worker's attempt is retried within the timeout. */
const heartbeating = async <T>(work: () => Promise<T>): Promise<T> => {
  const timer = setInterval(() => heartbeat(), 5_000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
};

const beginJob = async (deps: ReportDeps, step: ReportJobStep): Promise<void> => {
  await runSystemCommand(commandContext(deps, step), jobDecider, {
    streamId: jobStream(step.jobId),
    step: 'start-job',
    command: { type: 'StartJob', now: deps.now(), data: {} },
  });
};

const planAndRecord = async (
  deps: ReportDeps,
  step: ReportJobStep,
  reads?: PlanReads,
): Promise<ReportPlan> => {
  const plan = await planFor(deps, step, reads);
  if (
    plan.skipped === null &&
    recordsProgress({ files: plan.files.length, recipients: plan.recipientIds.length })
  )
    await recordProgress(deps, step, { stage: 'rendering', done: 0, total: plan.files.length });
  return plan;
};

const reportActivitiesOf = (deps: ReportDeps) => ({
  /** Marks the job started; a job cancelled meanwhile fails the run (the decider's refusal). */
  async beginReportJob(step: ReportJobStep): Promise<void> {
    await beginJob(deps, step);
  },

  async planReport(step: ReportJobStep): Promise<ReportPlan> {
    return planAndRecord(deps, step);
  },

  /**
   * Begin and plan in one local activity (runs from the `begin-and-plan-in-one-step` patch on): one
   * workflow activation and one marker fewer per job. Both halves are idempotent, so a retry after a
   * failed plan finds the job started and plans again.
   */
  async beginAndPlanReport(step: ReportJobStep): Promise<ReportPlan> {
    await beginJob(deps, step);
    return planAndRecord(deps, step);
  },

  /**
   * Renders one file and archives it (once per job and type, however often this is retried); the
   * PDF also gives the headline figures the email shows.
   */
  async renderAndArchive(
    step: ReportJobStep & {
      file: ReportFile;
      index: number;
      total: number;
      recipientCount?: number;
      /** Start a job still `created` in the archive's append (the scheduled send's batches). */
      startJob?: boolean;
    },
  ): Promise<{ archived: ArchivedFile | null; summary: ReportSummary | null }> {
    const asOf = new Date(step.asOf);
    const include = sheetIncludeOf(step.file.type, step.sheets);
    const { report, summary } = await heartbeating(async () => {
      if (include !== null)
        return {
          report: await deps.parts.renderSheet({ sellerId: step.sellerId, asOf, include }),
          summary: null,
        };
      if (step.pdf === null) throw new Error(`no PDF frequency for ${step.file.type}`);
      return deps.parts.renderPdf({
        tenantId: step.tenantId,
        sellerId: step.sellerId,
        frequency: step.pdf,
        asOf,
        sections: step.sections,
      });
    });
    const archived =
      report === null
        ? null
        : {
            archivedId: (
              await deps.parts.archive({
                tenantId: step.tenantId,
                sellerId: step.sellerId,
                jobId: step.jobId,
                report,
                ...(step.startJob ? { startJob: true } : {}),
              })
            ).archivedId,
            type: report.type,
            fileName: report.fileName,
            displayName: report.displayName,
            contentType: report.contentType,
            size: report.bytes.byteLength,
          };
    if (recordsProgress({ files: step.total, recipients: step.recipientCount }))
      await recordProgress(deps, step, { stage: 'rendering', done: step.index + 1, total: step.total });
    return { archived, summary };
  },

  /**
   * One email to one recipient, at most once per job: a send already recorded (a retry after SMTP
   * accepted it) is not sent again, only tracked. The recipient is read now, so a subscription turned
   * off since the plan receives nothing. Then TrackWeeklyDate (or monthly, welcome) and the progress.
   */
  async sendReportEmail(
    step: ReportJobStep & {
      recipientId: number;
      archived: ArchivedFile[];
      summary: ReportSummary | null;
      index: number;
      total: number;
      /** The plan's file count (absent in runs started before it was passed). */
      fileCount?: number;
      /**
       * The job's result should this email be sent: recorded with the email in one append, which
       * completes the job (the scheduled send's batches; the recipient is tracked just after).
       */
      completeWith?: ReportJobResult;
    },
  ): Promise<SendOutcome> {
    heartbeatAtMostEverySecond();
    const outcome = await sendOnce(deps, step);
    if (outcome.status !== 'skipped') await trackSent(deps, step, step.recipientId);
    if (recordsProgress({ files: step.fileCount, recipients: step.total }))
      await recordProgress(deps, step, { stage: 'sending', done: step.index + 1, total: step.total });
    return outcome;
  },

  /** Completes the job with its result, or fails it with the reason; an ended job is left as it is. */
  async finishReportJob(
    step: ReportJobStep & { failure: string | null; result: ReportJobResult | null },
  ): Promise<void> {
    const job = await currentState(deps.writeSide, jobDecider, jobStream(step.jobId));
    if (job.status === 'none' || isFinished(job.status)) return;
    const now = deps.now();
    await runSystemCommand(commandContext(deps, step), jobDecider, {
      streamId: jobStream(step.jobId),
      step: step.failure === null ? 'complete-job' : 'fail-job',
      command:
        step.failure === null
          ? { type: 'CompleteJob', now, data: { result: step.result } }
          : { type: 'FailJob', now, data: { reason: step.failure } },
    });
  },
});

/** The plan of a scheduled send's job, with its batch's tenant and subscriptions read once. */
export const planBatchedReport = (
  deps: ReportDeps,
  step: ReportJobStep,
  reads: PlanReads,
): Promise<ReportPlan> => planAndRecord(deps, step, reads);

/**
 * TrackWeeklyDate (or monthly, welcome) of a recipient the job emailed; once per job and recipient
 * (the command id), so a retry or a repair tracks nothing twice.
 */
const trackSent = async (deps: ReportDeps, step: ReportJobStep, recipientId: number): Promise<void> => {
  const tracked = step.pdf ? trackedOf[step.pdf] : undefined;
  if (!tracked) return;
  await runSystemCommand(commandContext(deps, step), recipientDecider, {
    streamId: recipientStream(recipientId),
    step: `track-${recipientId}`,
    command: { type: 'TrackRecipientReport', now: deps.now(), data: { report: tracked, sentAt: deps.now() } },
  });
};

/**
 * Tracks every recipient a completed job emailed: a batch retried after its worker died between a
 * job's completing email and the tracking (docs/adr/0038, fewer appends) finishes what it left.
 */
export const trackEmailedRecipients = async (
  deps: ReportDeps,
  step: ReportJobStep,
  recipientIds: readonly number[],
): Promise<void> => {
  for (const recipientId of recipientIds) await trackSent(deps, step, recipientId);
};

const sendOnce = async (
  deps: ReportDeps,
  step: ReportJobStep & {
    recipientId: number;
    archived: ArchivedFile[];
    summary: ReportSummary | null;
    completeWith?: ReportJobResult;
  },
): Promise<SendOutcome> => {
  const { recipientId } = step;
  const { parts } = deps;
  if (await parts.wasEmailed({ jobId: step.jobId, recipientId }))
    return { recipientId, status: 'already-sent', messageId: reportMessageId(step.jobId, recipientId) };
  const { recipient } = await findSellerRecipient(deps.db, {
    recipientId,
    sellerId: step.sellerId,
    tenantId: step.tenantId,
  });
  if (!recipient || (recipient.STATE !== 'ACTIVE' && recipient.STATE !== 'ADMIN'))
    return { recipientId, status: 'skipped', reason: skipReasons.inactive };
  const email = recipient.Subscriber.Email?.trim() ?? '';
  if (email === '') return { recipientId, status: 'skipped', reason: skipReasons.noEmail };
  if (parts.isDemoRecipient(email)) return { recipientId, status: 'skipped', reason: skipReasons.demo };
  const [seller, tenant] = await Promise.all([
    currentState(deps.writeSide, sellerDecider, sellerStream(step.sellerId)),
    currentState(deps.writeSide, tenantDecider, tenantStream(step.tenantId)),
  ]);
  const attachments = await Promise.all(
    step.archived.map((file) => parts.readArchived({ jobId: step.jobId, sellerId: step.sellerId, file })),
  );
  const frequency = step.pdf ?? 'weekly';
  const unsubscribable = frequency === 'weekly' || frequency === 'monthly' ? frequency : null;
  const message = await reportEmailMessage({
    jobId: step.jobId,
    recipientId,
    to: email,
    recipientName: recipient.Subscriber.GivenName,
    tenantName: tenant.status === 'none' ? '' : (tenant.friendlyName ?? tenant.name),
    sellerName: (seller.status === 'known' ? seller.companyName : null) ?? 'Your company',
    frequency,
    periodLabel: step.summary?.periodLabel ?? step.asOf.slice(0, 10),
    highlights: step.summary?.highlights ?? [],
    attachments,
    reportsUrl: new URL('/reports', deps.config.PUBLIC_URL).toString(),
    unsubscribeUrl: unsubscribable
      ? unsubscribeLink(
          deps.config.PUBLIC_URL,
          signUnsubscribeToken(deps.config.SESSION_SECRET, { recipientId, frequency: unsubscribable }),
        )
      : null,
    logoUrl: tenant.status === 'none' ? null : tenant.logo.approvedUrl,
  });
  const accepted = await parts.mailer.send(message);
  const messageId = message.messageId ?? accepted.messageId;
  await parts.recordEmailed({
    jobId: step.jobId,
    recipientId,
    reportTypes: step.archived.map((file) => file.type),
    messageId,
    ...(step.completeWith ? { complete: { result: step.completeWith } } : {}),
  });
  return { recipientId, status: 'sent', messageId };
};

export const createReportActivities = (deps: ReportDeps) => {
  const steps = reportActivitiesOf(deps);
  return {
    ...steps,
    /**
     * A job of one file for at most one recipient (a scheduled send to a seller with one reader, the
     * usual case) renders, archives and sends in one activity (from the render-and-send-in-one-activity
     * patch on): one activity task, its three history events and one workflow task fewer per job. Each
     * half keeps its own once-only rule: a retry re-renders, finds the file archived (its first id) and
     * the email recorded (only tracks it).
     */
    async renderArchiveAndSend(
      step: ReportJobStep & { file: ReportFile; recipientId: number | null },
    ): Promise<{ archived: ArchivedFile | null; outcome: SendOutcome | null }> {
      const { file, recipientId, ...job } = step;
      const rendered = await steps.renderAndArchive({ ...job, file, index: 0, total: 1, recipientCount: 1 });
      if (recipientId === null) return { archived: rendered.archived, outcome: null };
      const outcome = await steps.sendReportEmail({
        ...job,
        recipientId,
        archived: rendered.archived ? [rendered.archived] : [],
        summary: rendered.summary,
        index: 0,
        total: 1,
        fileCount: 1,
      });
      return { archived: rendered.archived, outcome };
    },
  };
};

export type ReportActivities = ReturnType<typeof createReportActivities>;
