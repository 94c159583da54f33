import { z } from 'zod';
import { ReportSection } from './reports';
import { EntityId } from '../events/values';
import { JobJson, JobKind } from '../events/job';

const Id = EntityId.max(2 ** 31);
const QueryId = z.coerce.number().pipe(Id);

/** A pipeline request as the browser follows it (GET /api/jobs, and the answer of every request). */
export const Job = z.object({
  Id,
  Kind: JobKind,
  /** What was asked within the kind: a metrics jobType, a report type or frequency, a dataset, a task. */
  Type: z.string(),
  Status: z.enum(['created', 'running', 'completed', 'failed', 'cancelled']),
  TenantId: Id,
  SellerId: Id.nullable(),
  Parameters: JobJson,
  WorkflowId: z.string(),
  Progress: z
    .object({ stage: z.string(), done: z.int(), total: z.int().nullable(), recordedAt: z.string() })
    .nullable(),
  Result: JobJson.nullable(),
  /** Why it failed or was cancelled. */
  Failure: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type Job = z.infer<typeof Job>;

/** The jobs a request created ("Jobs created for N selected sellers"), or a list of jobs. */
export const JobsResponse = z.object({ jobs: z.array(Job) });
export type JobsResponse = z.infer<typeof JobsResponse>;

/** GET /api/jobs: the current tenant's jobs, one seller's, or (platform admins) every tenant's. */
export const JobsQuery = z
  .object({
    sellerId: QueryId.optional(),
    scope: z.literal('all').optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();
export type JobsQuery = z.infer<typeof JobsQuery>;

/**
 * POST /api/metrics/sellers?jobType=: the admin sellers table's per-row buttons. Without a jobType
 * the seller's metrics (S); forecasts (F S), forecastByCustomer (F C), customers (C), historical.
 */
export const MetricsJobType = z.enum([
  'sellers',
  'forecasts',
  'forecastByCustomer',
  'customers',
  'historical',
]);
export type MetricsJobType = z.infer<typeof MetricsJobType>;

export const MetricsJobQuery = z.object({ jobType: MetricsJobType.default('sellers') }).strict();
export type MetricsJobQuery = z.infer<typeof MetricsJobQuery>;

export const MetricsJobRequest = z
  .object({
    /** The seller. */
    id: Id,
    /** Generate only the periods that have no figures yet. */
    onlyMissing: z.boolean().default(false),
  })
  .strict();
export type MetricsJobRequest = z.infer<typeof MetricsJobRequest>;

const SellerIds = z.array(Id).min(1, 'Select at least one seller.').max(1000);

/** admin.md section 9: report frequencies (on-demand also). */
export const ReportFrequency = z.enum(['welcome', 'weekly', 'monthly', 'scorecard', 'ondemand']);
export type ReportFrequency = z.infer<typeof ReportFrequency>;

/** POST /api/reports: the report options of admin.md section 3, for the selected sellers. */
export const SellerReportsRequest = z
  .object({
    type: z.literal('REPORTS'),
    frequency: ReportFrequency.default('weekly'),
    admin: z.boolean().default(false),
    archive: z.boolean().default(false),
    sellerIds: SellerIds,
    /** Send only to these subscribers (users); omitted: every active recipient. */
    subscriberIds: z.array(Id).max(1000).optional(),
    includeCustomerSheet: z.boolean().default(false),
    includeCustomerReviewSheet: z.boolean().default(false),
    includePrioritizedInvoices: z.boolean().default(false),
    includeForecast: z.boolean().default(false),
    /** An on-demand report's sections, from a report template; other frequencies ignore them. */
    sections: z.array(ReportSection).min(1).max(ReportSection.options.length).optional(),
  })
  .strict();

/** POST /api/reports: the workflow options (the scheduled send, run now for the selected sellers). */
export const ReportWorkflowRequest = z
  .object({
    type: z.literal('WORKFLOW'),
    frequency: z.enum(['weekly', 'monthly', 'none']).default('weekly'),
    noOverride: z.boolean().default(true),
    noRecent: z.boolean().default(true),
    onlyArchive: z.boolean().default(false),
    /** Send even when no data was received in the past 24 hours. */
    skipRecentDataChecks: z.boolean().default(false),
    sellerIds: SellerIds,
  })
  .strict();

/** POST /api/reports: the advisors' Client Performance report (admin users table). */
export const ClientPerformanceReportRequest = z
  .object({
    type: z.literal('CLIENT_PERFORMANCE'),
    excludeAdmins: z.boolean().default(false),
    hasSellers: z.boolean().default(false),
    dryRun: z.boolean().default(false),
    admin: z.boolean().default(false),
    /** One advisor; omitted: every advisor. */
    userId: Id.optional(),
  })
  .strict();

export const ReportsRequest = z.discriminatedUnion('type', [
  SellerReportsRequest,
  ReportWorkflowRequest,
  ClientPerformanceReportRequest,
]);
export type ReportsRequest = z.infer<typeof ReportsRequest>;

/** GET and POST /api/sellers/{id}/reports/{type}. */
export const SellerReportType = z.enum(['monthly', 'weekly', 'scorecard']);
export type SellerReportType = z.infer<typeof SellerReportType>;

export const SellerReportParams = z.object({ id: QueryId, type: SellerReportType }).strict();
export type SellerReportParams = z.infer<typeof SellerReportParams>;

/** The report recipients (report subscription ids of the seller) to send to now. */
export const SellerReportRequest = z
  .object({
    recipientIds: z.array(Id).min(1, 'Select at least one recipient.').max(1000),
  })
  .strict();
export type SellerReportRequest = z.infer<typeof SellerReportRequest>;

/** The latest request of this report for the seller; `processing` while it has not finished. */
export const SellerReportStatus = z.object({ processing: z.boolean(), job: Job.nullable() });
export type SellerReportStatus = z.infer<typeof SellerReportStatus>;

/** admin.md section 7: data-set types. */
export const DatasetType = z.enum([
  'ar_forecast_aiml',
  'ar_forecast_dso',
  'ar_forecast_validations',
  'ar_customer_forecast_validations',
  'ar_forecast_summary',
  'seller_analytics_weekly',
  'seller_analytics_monthly',
]);
export type DatasetType = z.infer<typeof DatasetType>;

/** awsForecast is a layout of the AI/ML data set only. */
export const DatasetContentType = z.enum(['json', 'csv', 'awsForecast']);
export type DatasetContentType = z.infer<typeof DatasetContentType>;

export const noSellerSelected = 'No Seller Selected';

/** POST /api/datasets: dates default to the spec's range (see gateway/use-cases/jobs/request-datasets.ts). */
export const DatasetRequest = z
  .object({
    dataset: DatasetType,
    contentType: DatasetContentType.default('json'),
    startDate: z.iso.date().optional(),
    endDate: z.iso.date().optional(),
    sellerIds: z.array(Id).min(1, noSellerSelected).max(1000),
  })
  .strict();
export type DatasetRequest = z.infer<typeof DatasetRequest>;

/** POST /api/tasks: the admin tasks page. */
export const TaskRequest = z.discriminatedUnion('name', [
  z
    .object({
      name: z.literal('update_demo_seller'),
      /** Update even when the demo data looks current. */
      force: z.boolean().default(false),
      /** Bring the ledger up to date without generating metrics. */
      onlyFetch: z.boolean().default(false),
    })
    .strict(),
  z.object({ name: z.literal('moveIndirectCustomer'), customerId: Id }).strict(),
]);
export type TaskRequest = z.infer<typeof TaskRequest>;

export const JobIdParam = z.object({ id: QueryId }).strict();

/** The tasks the admin tasks page can trigger: GET /api/cron/{name} describes one, POST /api/tasks runs it. */
export const CronName = z.enum(['update_demo_seller', 'moveIndirectCustomer']);
export type CronName = z.infer<typeof CronName>;
export const CronParams = z.object({ name: CronName }).strict();

export const CronParameter = z.object({
  name: z.string(),
  type: z.enum(['boolean', 'id']),
  required: z.boolean(),
  description: z.string(),
});
export type CronParameter = z.infer<typeof CronParameter>;

/** GET /api/cron/{name}: the task's parameters and its latest runs (newest first). */
export const CronResponse = z.object({
  name: CronName,
  description: z.string(),
  parameters: z.array(CronParameter),
  recentJobs: z.array(Job),
});
export type CronResponse = z.infer<typeof CronResponse>;
