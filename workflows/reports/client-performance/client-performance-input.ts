import type { ArchivedFile } from '../report-job-input';

/**
 * The advisors' emailed Client Performance Summary (POST /api/reports, type CLIENT_PERFORMANCE;
 * admin.md sections 2, 3 and 7): one job that the workflow fans out to the advisors it selects.
 * Plain data for the workflow's history: people are named by user id, never by email.
 */
export type ClientPerformanceOptions = {
  /** Leave platform admins out of the advisors. */
  excludeAdmins: boolean;
  /** Only advisors with at least one client that has a connected seller (the others are not listed). */
  hasSellers: boolean;
  /** Plan and record who would get what; render and send nothing. */
  dryRun: boolean;
  /** Send every advisor's report to the admin who asked, instead of to the advisors. */
  admin: boolean;
  /** One advisor; null for every advisor of a firm. */
  userId: number | null;
  /** The platform admin who asked (the `admin` option's recipient); null on jobs recorded before it. */
  requestedBy: number | null;
};

export type ClientPerformanceInput = {
  jobId: number;
  /** The tenant the job is recorded in (the admin's current one). */
  tenantId: number;
  /** The reports' date: the job's creation, so a retried render draws the same month. */
  asOf: string;
  options: ClientPerformanceOptions;
};

export type ClientPerformanceStep = ClientPerformanceInput & { workflowId: string };

/** One advisor's report to make and send. */
export type PlannedAdvisor = {
  userId: number;
  /** The advisor, or with `admin` the requesting admin. */
  recipientUserId: number;
  /** Where the report is archived: the advisor's firm, else the job's tenant. */
  archiveTenantId: number;
  /** Clients covered when planned (portal.md section 9): 1 to 29 make a PDF, 30 or more a sheet. */
  clients: number;
  format: 'pdf' | 'xlsx';
};

export type AdvisorSkip = { userId: number; reason: string };

export type ClientPerformancePlan = { advisors: PlannedAdvisor[]; skipped: AdvisorSkip[] };

/** What one advisor's report came to, in the job's result. */
export type AdvisorOutcome =
  | {
      userId: number;
      status: 'sent' | 'already-sent';
      /** The advisor's own report job (its archive and emailed records). */
      jobId: number;
      recipientUserId: number;
      archived: ArchivedFile;
    }
  | { userId: number; status: 'planned'; recipientUserId: number; clients: number; format: 'pdf' | 'xlsx' }
  | { userId: number; status: 'skipped' | 'failed'; reason: string; jobId: number | null };

export type ClientPerformanceResult = {
  dryRun: boolean;
  advisors: AdvisorOutcome[];
  /** Advisors whose report was sent (to them, or with `admin` to the requesting admin). */
  sent: number[];
  skipped: AdvisorSkip[];
};

/** One advisor's step: the parent's step and the advisor's plan. */
export type AdvisorStep = ClientPerformanceStep & { advisor: PlannedAdvisor; index: number; total: number };
