import type { AgingBucket } from '../../../contracts/api/receivables';
import type { Currency } from '../../../contracts/events/tenant';
import type { ReportFrequency } from './report-period';

/**
 * What a weekly or monthly report shows, gathered from the read models (gather-report-data.ts). A
 * plain JSON-able object, so a Temporal activity can return it and the PDF process can receive it.
 * Money is integer cents in the tenant's currency, days are ISO dates (YYYY-MM-DD, UTC), and the
 * formulas are those of docs/adr/0036-report-content.md.
 */
export type ReportPeriod = { start: string; end: string };

/** Revenue (invoiced) or collections (payments received) of the period and of the two it is set against. */
export type PeriodComparison = {
  current: number;
  previous: number;
  lastYear: number;
};

export type TrendPoint = { start: string; revenue: number; collections: number };

export type AgingFigure = { bucket: AgingBucket; amount: number; invoices: number };

/** A customer whose average days late moved by 10 days or more between the two habit windows. */
export type HabitChange = {
  customerId: number;
  name: string;
  /** Amount-weighted days late of the payments of each window, two decimals. */
  daysLateBefore: number;
  daysLateAfter: number;
  /** after - before: positive pays later than it did. */
  change: number;
};

/** An invoice to chase: still open at the last sync and overdue at the period's end. */
export type ChaseInvoice = {
  customerId: number;
  customerName: string;
  docNumber: string;
  dueDate: string;
  daysOverdue: number;
  /** What is still owed (the invoice's balance at the last sync). */
  balance: number;
};

export type ForecastWeek = { start: string; mean: number; lower80: number; upper80: number };

export type CollectionsForecastData = {
  asOf: string;
  openBalance: number;
  weeks: ForecastWeek[];
};

/** The company the report is about, as its header shows it. */
export type ReportCompany = {
  sellerId: number;
  tenantId: number;
  /** The seller's company name, else the tenant's display name. */
  name: string;
  currency: Currency;
  /** A PNG or JPEG logo, base64; null without one (or for a GIF or SVG logo, see ADR 36). */
  logo: { contentType: 'image/png' | 'image/jpeg'; base64: string } | null;
  /** The tenant's NAICS 2017 code, when it chose one. */
  naics: string | null;
  weeklyDay: number;
  monthlyDay: number;
};

export type ReportData = {
  company: ReportCompany;
  frequency: ReportFrequency;
  /** When the report is made (its send time). */
  asOf: string;
  /** The date of the metrics run the figures come from; null before the first one. */
  dataAsOf: string | null;
  period: ReportPeriod;
  previousPeriod: ReportPeriod;
  lastYearPeriod: ReportPeriod;
  revenue: PeriodComparison;
  collections: PeriodComparison;
  /** The last 8 weeks or 12 months up to the period, oldest first. */
  trend: TrendPoint[];
  /** Open receivables at the end of the period, by age; `overdue` is everything past due. */
  receivables: { open: number; overdue: number; openInvoices: number; aging: AgingFigure[] };
  /** Receivables at the end of the previous period, for the change arrows. */
  previousReceivables: { open: number; overdue: number };
  /** Days, two decimals; null for a period without sales. */
  dso: { current: number | null; previous: number | null };
  habits: { windows: { before: ReportPeriod; after: ReportPeriod }; changes: HabitChange[]; total: number };
  chase: { invoices: ChaseInvoice[]; overdueInvoices: number };
  forecast: CollectionsForecastData | null;
};
