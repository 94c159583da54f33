import { z } from 'zod';
import { ReportSection } from '../../contracts/api/reports';
import type { Config } from '../../contracts/config';
import type { JobCreated } from '../../contracts/events/job';
import type { PdfFrequency, RecipientSelection, ReportJobInput, SheetOptions } from './report-job-input';

type RecordedJob = z.infer<typeof JobCreated>['data'];

/**
 * A report job's run: readable in the Temporal UI, one per job, qualified by the deployment's prefix
 * because job ids restart at 1 in a fresh event store (as metricsJobWorkflowId). The gateway and the
 * scheduled sends record report jobs under it; the reactor starts every run under the id its job names.
 */
export const reportJobWorkflowId = (
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>,
  job: { sellerId: number; jobId: number },
) => `${config.TEMPORAL_TASK_QUEUE_PREFIX}-report-seller-${job.sellerId}-job-${job.jobId}`;

const Ids = z.array(z.int().positive());
const flag = z.boolean().optional().default(false);

const Sheets = z.object({
  includeCustomerSheet: flag,
  includeCustomerReviewSheet: flag,
  includePrioritizedInvoices: flag,
  includeForecast: flag,
});

/** POST /api/sellers/{id}/reports/{type} (portal), and the welcome report (recipients chosen at send). */
const SellerRequest = z.object({ recipientIds: Ids.min(1) });

/** POST /api/reports, report options (admin.md section 3). */
const ReportOptions = Sheets.extend({
  admin: flag,
  archive: flag,
  subscriberIds: Ids.nullable().optional(),
  sections: z.array(ReportSection).min(1).nullable().optional(),
});

/** POST /api/reports, workflow options, and the scheduled sends (report-schedules/). */
const WorkflowOptions = z.object({
  /** A scheduled send's due time: its reports are as of then, however late the run. */
  scheduledAt: z.iso.datetime().optional(),
  frequency: z.enum(['weekly', 'monthly', 'none']).default('weekly'),
  noOverride: z.boolean().default(true),
  noRecent: z.boolean().default(true),
  onlyArchive: flag,
  skipRecentDataChecks: flag,
});

const pdfFrequencies = ['weekly', 'monthly', 'welcome', 'scorecard', 'ondemand'] as const;
const isPdfFrequency = (type: unknown): type is PdfFrequency =>
  pdfFrequencies.some((frequency) => frequency === type);

const noSheets: SheetOptions = {
  includeCustomerSheet: false,
  includeCustomerReviewSheet: false,
  includePrioritizedInvoices: false,
  includeForecast: false,
};

const base = (job: RecordedJob & { sellerId: number }) => ({
  jobId: job.jobId,
  tenantId: job.tenantId,
  sellerId: job.sellerId,
  asOf: job.createdAt,
  jobType: typeof job.parameters.type === 'string' ? job.parameters.type : 'report',
});

const frequencyRun = (job: RecordedJob & { sellerId: number }, pdf: PdfFrequency): ReportJobInput | null => {
  const request = SellerRequest.safeParse(job.parameters);
  if (request.success)
    return {
      ...base(job),
      pdf,
      sheets: noSheets,
      sections: null,
      recipients: { kind: 'recipients', recipientIds: request.data.recipientIds },
      archive: false,
      noOverride: false,
      requireRecentData: false,
    };
  const parsed = ReportOptions.safeParse(job.parameters);
  if (!parsed.success) return null;
  const options = parsed.data;
  const recipients: RecipientSelection =
    options.subscriberIds && options.subscriberIds.length > 0
      ? { kind: 'subscribers', userIds: options.subscriberIds }
      : options.admin
        ? { kind: 'admins' }
        : { kind: 'subscribed' };
  const { admin: _admin, archive, subscriberIds: _subscribers, sections, ...sheets } = options;
  return {
    ...base(job),
    pdf,
    sheets,
    sections: pdf === 'ondemand' ? (sections ?? null) : null,
    recipients,
    archive,
    noOverride: false,
    requireRecentData: false,
  };
};

const workflowRun = (job: RecordedJob & { sellerId: number }): ReportJobInput | null => {
  const parsed = WorkflowOptions.safeParse(job.parameters);
  if (!parsed.success) return null;
  const options = parsed.data;
  const sends = options.frequency !== 'none' && !options.onlyArchive;
  return {
    ...base(job),
    ...(options.scheduledAt ? { asOf: options.scheduledAt } : {}),
    // Frequency none archives the weekly report and sends nothing (docs/adr/0038).
    pdf: options.frequency === 'none' ? 'weekly' : options.frequency,
    sheets: noSheets,
    sections: null,
    recipients: sends ? { kind: 'subscribed' } : { kind: 'nobody' },
    archive: true,
    noOverride: options.noOverride,
    requireRecentData: options.noRecent && !options.skipRecentDataChecks,
  };
};

/**
 * The run a recorded report job asks for, or null when no pipeline of this issue runs it (a kind other
 * than report, a job without a seller such as CLIENT_PERFORMANCE, a type this code does not know, or
 * parameters this code cannot read: one bad job must not stop the reactor behind it).
 */
export const reportRunOf = (job: RecordedJob): ReportJobInput | null => {
  if (job.kind !== 'report' || job.sellerId === null) return null;
  const seller = { ...job, sellerId: job.sellerId };
  const type = job.parameters.type;
  if (type === 'workflow') return workflowRun(seller);
  if (isPdfFrequency(type)) return frequencyRun(seller, type);
  return null;
};
