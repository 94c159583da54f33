import type { ReportData } from '../report-data/report-data';
import type { PdfJob } from './pdf-job';

/**
 * What the PDF process renders when it starts, before it takes work (pdf-process.ts, ADR 36): a
 * weekly report of a made-up company, with every part a real one has (KPI cards, both charts, the
 * aging bar, full tables, three pages), so that the first report a user asks for is drawn by
 * compiled code instead of paying for loading and compiling react-pdf's pipeline. Not a tenant's
 * data, and never sent anywhere.
 */
const day = (offset: number) => new Date(Date.UTC(2025, 0, 6 + offset)).toISOString().slice(0, 10);

export const warmUpJob = (): PdfJob => {
  const data: ReportData = {
    company: {
      sellerId: 0,
      tenantId: 0,
      name: 'Warm-up Company',
      currency: 'USD',
      logo: null,
      naics: null,
      weeklyDay: 1,
      monthlyDay: 1,
    },
    frequency: 'weekly',
    asOf: `${day(63)}T07:00:00.000Z`,
    dataAsOf: `${day(63)}T07:00:00.000Z`,
    period: { start: day(56), end: day(62) },
    previousPeriod: { start: day(49), end: day(55) },
    lastYearPeriod: { start: day(56 - 364), end: day(62 - 364) },
    revenue: { current: 1_234_567_89, previous: 1_134_567_89, lastYear: 934_567_89 },
    collections: { current: 1_034_567_89, previous: 1_104_567_89, lastYear: 994_567_89 },
    trend: Array.from({ length: 8 }, (_, i) => ({
      start: day(7 * i),
      revenue: 1_000_000_00 + i * 3_000_000,
      collections: 950_000_00 + i * 2_000_000,
    })),
    receivables: {
      open: 5_000_000_00,
      overdue: 2_000_000_00,
      openInvoices: 1_234,
      aging: (['current', '1-30', '31-60', '61-90', 'over-90'] as const).map((bucket, i) => ({
        bucket,
        amount: (5 - i) * 300_000_00,
        invoices: (5 - i) * 50,
      })),
    },
    previousReceivables: { open: 4_800_000_00, overdue: 2_100_000_00 },
    dso: { current: 41.5, previous: 43.25 },
    habits: {
      windows: { before: { start: day(28), end: day(55) }, after: { start: day(35), end: day(62) } },
      changes: Array.from({ length: 10 }, (_, i) => ({
        customerId: i + 1,
        name: `Customer ${i + 1} Trading`,
        daysLateBefore: 5 + i,
        daysLateAfter: 30 + 2 * i,
        change: 25 + i,
      })),
      total: 42,
    },
    chase: {
      invoices: Array.from({ length: 10 }, (_, i) => ({
        customerId: i + 1,
        customerName: `Customer ${i + 1} Trading`,
        docNumber: `INV-${1000 + i}`,
        dueDate: day(20 + i),
        daysOverdue: 42 - i,
        balance: 12_345_67 * (10 - i),
      })),
      overdueInvoices: 321,
    },
    forecast: {
      asOf: `${day(63)}T07:00:00.000Z`,
      openBalance: 5_000_000_00,
      weeks: Array.from({ length: 4 }, (_, i) => ({
        start: day(63 + 7 * i),
        mean: 900_000_00 - i * 50_000_00,
        lower80: 700_000_00 - i * 50_000_00,
        upper80: 1_100_000_00 - i * 50_000_00,
      })),
    },
  };
  return { kind: 'periodic', data };
};
