import type { Db } from 'mongodb';
import { contentTypeOf, type ArchivedReportType, type ReportSection } from '../../../contracts/api/reports';
import type { ReportHighlight } from '../email/report-email';
import { gatherBenchmarksData, NotEnoughPeersError } from '../report-data/benchmarks-data';
import { gatherReportData } from '../report-data/gather-report-data';
import type { ReportData } from '../report-data/report-data';
import { loadReportSubject } from '../report-data/report-subject';
import { gatherScorecardData } from '../report-data/scorecard-data';
import { gatherWelcomeData } from '../report-data/welcome-data';
import type { RenderedReport } from '../rendered-report';
import { changeOf, count, days, longDate, longMonth, money, periodLabel, signedShare } from './pdf-format';
import type { PdfJob } from './pdf-job';
import { renderPdf } from './pdf-renderer';

export type SellerReportType = Extract<
  ArchivedReportType,
  | 'WEEKLY_REPORT'
  | 'MONTHLY_REPORT'
  | 'WELCOME_REPORT'
  | 'SCORECARD_REPORT'
  | 'ONDEMAND_REPORT'
  | 'BENCHMARKS_REPORT'
>;

export const reportTitles: Record<SellerReportType | 'CLIENT_PERFORMANCE_REPORT', string> = {
  WEEKLY_REPORT: 'Weekly Report',
  MONTHLY_REPORT: 'Monthly Report',
  WELCOME_REPORT: 'Welcome Report',
  SCORECARD_REPORT: 'Scorecard',
  ONDEMAND_REPORT: 'On-demand Report',
  BENCHMARKS_REPORT: 'Benchmarks Report',
  CLIENT_PERFORMANCE_REPORT: 'Client Performance Summary',
};

/** Every section, in print order: an on-demand report without a choice holds them all. */
export const allSections: ReportSection[] = [
  'summary',
  'revenue-collections',
  'receivables-aging',
  'payment-habits',
  'invoices-to-chase',
  'collections-forecast',
  'health-score',
  'benchmarks',
];

/**
 * A name safe in a Content-Disposition header and on any file system: printable ASCII without
 * quotes, slashes or other separators; accents are dropped to their letters.
 */
export const safeFileName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 .,&()'_+-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120) || 'Report';

/** `Acme Ltd - Weekly Report - 2026-11-24.pdf` and `Weekly Report 2026-11-24` (issue 14's shapes). */
export const reportNames = (report: {
  company: string;
  title: string;
  asOf: Date;
  extension: 'pdf' | 'xlsx';
}) => {
  const { company, title, extension } = report;
  const day = report.asOf.toISOString().slice(0, 10);
  return {
    fileName: `${safeFileName(company)} - ${title} - ${day}.${extension}`,
    displayName: `${title} ${day}`,
  };
};

export type SellerReportRequest = {
  sellerId: number;
  type: SellerReportType;
  asOf: Date;
  /** ONDEMAND_REPORT only: the sections it holds (all when absent). */
  sections?: readonly ReportSection[] | undefined;
};

/** What the email says about a report: its period and headline figures. */
export type ReportSummary = { periodLabel: string; highlights: ReportHighlight[] };

const periodicSummary = (data: ReportData): ReportSummary => {
  const { currency } = data.company;
  const versus = (now: number, before: number) => {
    const change = changeOf(now, before);
    return change === null
      ? undefined
      : `${signedShare(change)} vs previous ${data.frequency === 'weekly' ? 'week' : 'month'}`;
  };
  return {
    periodLabel: periodLabel(data.period, data.frequency),
    highlights: [
      {
        label: 'Revenue',
        value: money(data.revenue.current, currency),
        note: versus(data.revenue.current, data.revenue.previous),
      },
      {
        label: 'Collections',
        value: money(data.collections.current, currency),
        note: versus(data.collections.current, data.collections.previous),
      },
      { label: 'Open receivables', value: money(data.receivables.open, currency) },
      { label: 'Overdue', value: money(data.receivables.overdue, currency) },
      { label: 'DSO', value: days(data.dso.current) },
    ].map(({ note, ...h }) => (note === undefined ? h : { ...h, note })),
  };
};

/** Gathers a seller report's data and says what the PDF process must draw. */
const prepare = async (
  db: Db,
  request: SellerReportRequest,
): Promise<{ job: PdfJob; company: string; summary: ReportSummary }> => {
  const subject = await loadReportSubject(db, request.sellerId);
  const query = { sellerId: request.sellerId, asOf: request.asOf };
  const company = subject.company.name;
  switch (request.type) {
    case 'WEEKLY_REPORT':
    case 'MONTHLY_REPORT': {
      const frequency = request.type === 'WEEKLY_REPORT' ? 'weekly' : 'monthly';
      const data = await gatherReportData(db, { ...query, frequency }, subject);
      return { job: { kind: 'periodic', data }, company, summary: periodicSummary(data) };
    }
    case 'WELCOME_REPORT': {
      const data = await gatherWelcomeData(db, query, subject);
      const { currency } = subject.company;
      return {
        job: { kind: 'welcome', data },
        company,
        summary: {
          periodLabel: longDate(request.asOf.toISOString()),
          highlights: [
            { label: 'Customers (36 months)', value: count(data.found?.customersT36M ?? 0) },
            { label: 'Open receivables', value: money(data.standing.receivables.open, currency) },
            { label: 'Overdue', value: money(data.standing.receivables.overdue, currency) },
          ],
        },
      };
    }
    case 'SCORECARD_REPORT': {
      const data = await gatherScorecardData(db, query, subject);
      return {
        job: { kind: 'scorecard', data },
        company,
        summary: {
          periodLabel: longDate(request.asOf.toISOString()),
          highlights: [{ label: 'Health score', value: `${data.score} / 100` }],
        },
      };
    }
    case 'BENCHMARKS_REPORT': {
      const data = await gatherBenchmarksData(db, query, subject);
      return {
        job: { kind: 'benchmarks', data },
        company,
        summary: {
          periodLabel: longMonth(data.period.start),
          highlights: [{ label: 'Peers', value: count(data.peers) }],
        },
      };
    }
    case 'ONDEMAND_REPORT': {
      const sections = allSections.filter((s) => (request.sections ?? allSections).includes(s));
      const data = await gatherReportData(db, { ...query, frequency: 'monthly' }, subject);
      const scorecard = sections.includes('health-score')
        ? await gatherScorecardData(db, query, subject)
        : null;
      const benchmarks = sections.includes('benchmarks')
        ? await gatherBenchmarksData(db, query, subject).catch((error: unknown) => {
            if (error instanceof NotEnoughPeersError) return { unavailable: error.message };
            throw error;
          })
        : null;
      return {
        job: { kind: 'ondemand', sections, data, scorecard, benchmarks },
        company,
        summary: periodicSummary(data),
      };
    }
  }
};

/**
 * A seller's PDF report (WEEKLY, MONTHLY, WELCOME, SCORECARD, ONDEMAND or BENCHMARKS) as of a
 * date, with the headline the email shows. Throws ReportSubjectNotFound for an unknown seller and
 * NotEnoughPeersError for a benchmark with fewer than 5 peers.
 */
export const renderSellerReportWithSummary = async (
  db: Db,
  request: SellerReportRequest,
): Promise<{ report: RenderedReport; summary: ReportSummary }> => {
  const { job, company, summary } = await prepare(db, request);
  const { bytes } = await renderPdf(job);
  const title = reportTitles[request.type];
  return {
    report: {
      type: request.type,
      extension: 'pdf',
      ...reportNames({ company, title, asOf: request.asOf, extension: 'pdf' }),
      contentType: contentTypeOf.pdf,
      bytes,
    },
    summary,
  };
};

/** A seller's PDF report as of a date (see renderSellerReportWithSummary). */
export const renderSellerReport = async (db: Db, request: SellerReportRequest): Promise<RenderedReport> =>
  (await renderSellerReportWithSummary(db, request)).report;
