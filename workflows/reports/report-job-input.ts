import type { ArchivedReportType, ReportSection } from '../../contracts/api/reports';

/**
 * What a report job's run needs, read once from its JobCreated event (report-job.ts). Plain data: it
 * travels in the workflow's history, so it names recipients by id only, never by email.
 */

/** The PDF of the run; null when the run renders no PDF (a workflow run of frequency none). */
export type PdfFrequency = 'weekly' | 'monthly' | 'welcome' | 'scorecard' | 'ondemand';

/** The PDF each frequency renders (and archives under). */
export const pdfReportTypes = {
  weekly: 'WEEKLY_REPORT',
  monthly: 'MONTHLY_REPORT',
  welcome: 'WELCOME_REPORT',
  scorecard: 'SCORECARD_REPORT',
  ondemand: 'ONDEMAND_REPORT',
} as const satisfies Record<PdfFrequency, string>;

/** Who receives the report. */
export type RecipientSelection =
  /** POST /api/sellers/{id}/reports/{type}: these report subscriptions of the seller. */
  | { kind: 'recipients'; recipientIds: number[] }
  /** POST /api/reports with subscriberIds: the seller's subscriptions of these users. */
  | { kind: 'subscribers'; userIds: number[] }
  /** The seller's active subscriptions that take this report (SendWeekly, SendMonthly, no welcome yet). */
  | { kind: 'subscribed' }
  /** `admin: true`: the seller's subscriptions of platform admins (ADMIN state or an admin's email). */
  | { kind: 'admins' }
  /** onlyArchive, or frequency none. */
  | { kind: 'nobody' };

export type SheetOptions = {
  includeCustomerSheet: boolean;
  includeCustomerReviewSheet: boolean;
  includePrioritizedInvoices: boolean;
  includeForecast: boolean;
};

export type ReportJobInput = {
  jobId: number;
  tenantId: number;
  sellerId: number;
  pdf: PdfFrequency | null;
  sheets: SheetOptions;
  /** An on-demand report's sections (a report template); null for all of them. */
  sections: ReportSection[] | null;
  recipients: RecipientSelection;
  /** Archive even when nothing is sent (a sent report is archived anyway). */
  archive: boolean;
  /** Skip a recipient who already got this frequency in the current period (TrackWeeklyDate...). */
  noOverride: boolean;
  /** Skip the seller when its data was not received in the past 24 hours. */
  requireRecentData: boolean;
  /** The report's date: the job's creation, so a retried render draws the same figures. */
  asOf: string;
  /** Shown in results and logs: the job's recorded type (weekly, workflow...). */
  jobType: string;
};

/** A report job's step: its input and the run's id, the idempotency key of its side effects. */
export type ReportJobStep = ReportJobInput & { workflowId: string };

/** One file to render and archive. */
export type ReportFile = { type: ArchivedReportType };

export type SkippedRecipient = { recipientId: number; reason: string };

/** What the run will do, decided once from the seller, the tenant and the recipients. */
export type ReportPlan = {
  /** The whole run is skipped (no recent data, an inactive seller): the reason, shown in the job's result. */
  skipped: string | null;
  files: ReportFile[];
  recipientIds: number[];
  skippedRecipients: SkippedRecipient[];
};

/** A file the run archived: what the email needs to attach it again (the bytes stay in the archive). */
export type ArchivedFile = {
  archivedId: number;
  type: ArchivedReportType;
  fileName: string;
  displayName: string;
  contentType: string;
  size: number;
};

export type SendOutcome =
  | { recipientId: number; status: 'sent' | 'already-sent'; messageId: string }
  | { recipientId: number; status: 'skipped'; reason: string };

export type ReportJobResult = {
  skipped: string | null;
  archived: ArchivedFile[];
  sent: number[];
  skippedRecipients: SkippedRecipient[];
};
