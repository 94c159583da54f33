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

/** One row of GET /api/reports/managed (live reports kept in a CRM or cloud drive). */
export const ManagedReport = z.object({
  Type: z.string(),
  Provider: z.string(),
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
