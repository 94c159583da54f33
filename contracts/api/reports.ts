import { z } from 'zod';
import { IsoDateTime } from '../events/values';

/**
 * Reports (issue 14): what is archived, what is managed elsewhere, and a downloaded file.
 * portal.md sections 3 and 7, admin.md sections 3 and 7.
 */

/** Archived report types (portal.md section 3). */
export const ArchivedReportType = z.enum([
  'CUSTOMER_SHEET',
  'PRODUCT_SHEET',
  'PRIORITIZED_INVOICES_SHEET',
  'AR_FORECAST_SHEET',
  'MONTHLY_REPORT',
  'WEEKLY_REPORT',
  'SCORECARD_REPORT',
  'ONDEMAND_REPORT',
  'WELCOME_REPORT',
  'BENCHMARKS_REPORT',
  'CLIENT_PERFORMANCE_REPORT',
]);
export type ArchivedReportType = z.infer<typeof ArchivedReportType>;

export const ReportExtension = z.enum(['pdf', 'xlsx']);
export type ReportExtension = z.infer<typeof ReportExtension>;

/** One row of GET /api/reports/archived. */
export const ArchivedReport = z.object({
  Id: z.int().positive(),
  Type: ArchivedReportType,
  Extension: ReportExtension,
  DisplayName: z.string(),
  /** Bytes of the stored file. */
  Size: z.int().nonnegative(),
  createdAt: IsoDateTime,
  SellerId: z.int().positive().nullable(),
  TenantId: z.int().positive(),
  Seller: z.object({ CompanyName: z.string() }).nullable(),
});
export type ArchivedReport = z.infer<typeof ArchivedReport>;

/** The Live Reports kinds (portal.md sections 2.3 and 3): the sheets an integration keeps in a cloud drive. */
export const ManagedReportType = z.enum(['CUSTOMER_SHEET', 'AR_FORECAST_SHEET']);
export type ManagedReportType = z.infer<typeof ManagedReportType>;

/** The cloud drives Live Reports are written to (integration providers GOOGLE and MICROSOFT). */
export const ManagedReportProvider = z.enum(['GOOGLE', 'MICROSOFT']);
export type ManagedReportProvider = z.infer<typeof ManagedReportProvider>;

/**
 * One row of GET /api/reports/managed: a live report kept in a cloud drive and rewritten after every
 * sync (docs/adr/0049-live-reports.md); StorageUrl opens the file at its provider.
 */
export const ManagedReport = z.object({
  Type: ManagedReportType,
  Provider: ManagedReportProvider,
  StorageUrl: z.string(),
  DisplayName: z.string(),
  updatedAt: IsoDateTime,
  Seller: z.object({ CompanyName: z.string() }).nullable(),
});
export type ManagedReport = z.infer<typeof ManagedReport>;

/**
 * A downloaded file in JSON: GET /api/reports/archived/{id}/content and the client reports
 * (GET /api/tenants/{id}/reports/client, GET /api/users/{id}/reports/client).
 */
export const FileContent = z.object({
  encoding: z.literal('base64'),
  data: z.string(),
  contentType: z.string(),
  fileName: z.string(),
});
export type FileContent = z.infer<typeof FileContent>;

export const contentTypeOf = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const satisfies Record<ReportExtension, string>;

const QueryId = z.coerce.number().pipe(
  z
    .int()
    .positive()
    .max(2 ** 31),
);

/**
 * GET /api/reports/archived: the current tenant's archived reports, or one seller's (any seller's for
 * platform admins), newest first, `limit` at a time from `offset`.
 */
export const ArchivedReportsQuery = z
  .object({
    sellerId: QueryId.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    offset: z.coerce.number().int().min(0).max(100_000).default(0),
  })
  .strict();
export type ArchivedReportsQuery = z.infer<typeof ArchivedReportsQuery>;

export const ArchivedReportsResponse = z.object({ rows: z.array(ArchivedReport) });
export type ArchivedReportsResponse = z.infer<typeof ArchivedReportsResponse>;

/** /api/reports/archived/{id}/content and /download. */
export const ArchivedReportParams = z.object({ id: QueryId }).strict();

/** GET /api/reports/managed: the current tenant's live reports. */
export const ManagedReportsQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(500).default(100) })
  .strict();

export const ManagedReportsResponse = z.object({ rows: z.array(ManagedReport) });
export type ManagedReportsResponse = z.infer<typeof ManagedReportsResponse>;

/** Larger archived files are refused as JSON (base64 adds a third): the download route streams them. */
export const maxContentBytes = 20 * 1024 * 1024;

/**
 * The sections an on-demand report (ONDEMAND_REPORT, from a report template) is made of, in the
 * order they print; docs/adr/0036-report-content.md says what each holds.
 */
export const ReportSection = z.enum([
  'summary',
  'revenue-collections',
  'receivables-aging',
  'payment-habits',
  'invoices-to-chase',
  'collections-forecast',
  'health-score',
  'benchmarks',
]);
export type ReportSection = z.infer<typeof ReportSection>;

/**
 * A report template (portal.md /reports/new and /reports/{templateId}/edit, development only): the
 * sections of an on-demand report. Kept per user and tenant as browser state under
 * `reportTemplatesKey`, since nothing but the template pages reads them.
 */
export const ReportTemplate = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/),
  name: z.string().trim().min(1, 'Name is required').max(100, 'At most 100 characters'),
  sections: z
    .array(ReportSection)
    .min(1, 'Choose at least one section')
    .refine((sections) => new Set(sections).size === sections.length, 'Each section once'),
});
export type ReportTemplate = z.infer<typeof ReportTemplate>;

export const ReportTemplates = z.array(ReportTemplate).max(50);
export const reportTemplatesKey = 'report-templates';
