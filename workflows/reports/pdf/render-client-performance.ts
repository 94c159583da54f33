import type { Db } from 'mongodb';
import { contentTypeOf } from '../../../contracts/api/reports';
import {
  CLIENT_PERFORMANCE_PDF_LIMIT,
  gatherClientPerformanceData,
  type ClientPerformanceScope,
} from '../report-data/client-performance-data';
import type { RenderedReport } from '../rendered-report';
import { clientPerformanceSheet } from './client-performance-sheet';
import { renderPdf } from './pdf-renderer';
import { reportNames, reportTitles } from './render-seller-report';

/**
 * The advisors' Client Performance Summary (portal.md section 9) of a firm's clients or an
 * advisor's: a PDF table for 1 to 29 clients; from 30 clients, or when `xlsx` is asked for, the
 * same rows as a sheet. Null when the firm or user does not exist; throws NoClientsToReportError
 * when no client qualifies (real businesses with a connected platform).
 */
export const renderClientPerformance = async (
  db: Db,
  query: ClientPerformanceScope & { asOf: Date; format: 'pdf' | 'xlsx' },
): Promise<RenderedReport | null> => {
  const data = await gatherClientPerformanceData(db, query);
  if (!data) return null;
  const extension =
    query.format === 'xlsx' || data.clients.length >= CLIENT_PERFORMANCE_PDF_LIMIT ? 'xlsx' : 'pdf';
  const bytes =
    extension === 'pdf'
      ? (await renderPdf({ kind: 'clientPerformance', data })).bytes
      : await clientPerformanceSheet(data);
  return {
    type: 'CLIENT_PERFORMANCE_REPORT',
    extension,
    ...reportNames({
      company: data.preparedFor,
      title: reportTitles.CLIENT_PERFORMANCE_REPORT,
      asOf: query.asOf,
      extension,
    }),
    contentType: contentTypeOf[extension],
    bytes,
  };
};
