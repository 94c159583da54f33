import type { ArchivedReportType, ReportExtension } from '../../contracts/api/reports';

/**
 * One rendered report file, the unit the report workflow archives, attaches and sends. Renderers
 * (pdf/, sheets/) produce them; the archive (report-archive.ts) stores them; the email attaches them.
 */
export type RenderedReport = {
  type: ArchivedReportType;
  extension: ReportExtension;
  /** `Acme Ltd - Weekly Report - 2026-11-24.pdf`: safe for a Content-Disposition header. */
  fileName: string;
  /** What tables show: `Weekly Report 2026-11-24`. */
  displayName: string;
  contentType: string;
  bytes: Uint8Array;
};
