import type { Db } from 'mongodb';
import type { AgingBucket } from '../../../contracts/api/receivables';
import type { MetricType } from '../../../contracts/ledger';
import { querySellerMetricSummary } from '../../metrics/metric-store';
import { SELLER_FORECASTS, type SellerForecastDoc } from '../../forecast/forecast-store';
import { invoicesToChase } from './chase-list';
import { ratioAt, readMetricSeries, valueAt, type MetricSeries } from './metric-series';
import { paymentHabitChanges } from './payment-habits';
import type { CollectionsForecastData, ReportData, ReportPeriod } from './report-data';
import {
  habitWindowsOf,
  isoDay,
  reportPeriodOf,
  samePeriodLastYear,
  shiftPeriod,
  type DayRange,
  type ReportFrequency,
} from './report-period';
import { loadReportSubject, type ReportSubject } from './report-subject';

export const agingTypes: [AgingBucket, MetricType][] = [
  ['current', 'AGING_CURRENT'],
  ['1-30', 'AGING_1_30'],
  ['31-60', 'AGING_31_60'],
  ['61-90', 'AGING_61_90'],
  ['over-90', 'AGING_OVER_90'],
];
const seriesTypes: MetricType[] = ['TOTAL_REVENUE', 'TOTAL_PAID', 'DSO', ...agingTypes.map(([, t]) => t)];

/** Periods the trend chart shows, the reported one last. */
const TREND_PERIODS: Record<ReportFrequency, number> = { weekly: 8, monthly: 12 };
/** Forecast weeks shown: the next 4 weeks, or the 13 weeks (about 3 months) of the forecast. */
const FORECAST_WEEKS: Record<ReportFrequency, number> = { weekly: 4, monthly: 13 };
export const LIST_LIMIT = 10;

const periodOf = (range: DayRange): ReportPeriod => ({ start: isoDay(range.start), end: isoDay(range.end) });

/** The latest collections forecast issued as of the report's date or before, or null. */
const latestCollectionsForecast = async (
  db: Db,
  query: { sellerId: number; asOf: Date; weeks: number },
): Promise<CollectionsForecastData | null> => {
  const { sellerId, asOf, weeks } = query;
  const doc = await db
    .collection<SellerForecastDoc>(SELLER_FORECASTS)
    .find({ sellerId, kind: 'collections', asOf: { $lte: asOf } })
    .sort({ asOf: -1 })
    .limit(1)
    .next();
  if (!doc) return null;
  return {
    asOf: doc.asOf.toISOString(),
    openBalance: doc.openBalance ?? 0,
    weeks: doc.points.slice(0, weeks).map((point) => ({
      start: point.startDate.toISOString().slice(0, 10),
      mean: Math.round(point.mean),
      lower80: Math.round(point.lower80),
      upper80: Math.round(point.upper80),
    })),
  };
};

const receivablesAt = (series: MetricSeries, start: number) => {
  const aging = agingTypes.map(([bucket, type]) => ({
    bucket,
    amount: valueAt(series, type, start),
    invoices: series.get(type)?.get(start)?.count ?? 0,
  }));
  const open = aging.reduce((sum, b) => sum + b.amount, 0);
  return {
    open,
    overdue: open - (aging[0]?.amount ?? 0),
    openInvoices: aging.reduce((sum, b) => sum + b.invoices, 0),
    aging,
  };
};

/**
 * The figures of a seller's weekly or monthly report (ADR 36), from the read models only: the
 * stored metric rows of the last metrics run (revenue, collections, aging and DSO by period), the
 * open invoices (invoices to chase), the payments of the last two habit windows, and the latest
 * collections forecast. Every read goes through an index and is bounded by the periods asked for,
 * the open invoices or the two windows' payments, never the seller's whole ledger.
 */
export const gatherReportData = async (
  db: Db,
  query: { sellerId: number; frequency: ReportFrequency; asOf: Date },
  loaded?: ReportSubject,
): Promise<ReportData> => {
  const { sellerId, frequency, asOf } = query;
  const subject = loaded ?? (await loadReportSubject(db, sellerId));
  const period = reportPeriodOf(frequency, asOf);
  const previous = shiftPeriod(frequency, period, -1);
  const lastYear = samePeriodLastYear(frequency, period);
  const firstTrend = shiftPeriod(frequency, period, 1 - TREND_PERIODS[frequency]);
  const metricFrequency = frequency === 'weekly' ? 'WEEKLY' : 'MONTHLY';
  const windows = habitWindowsOf(frequency, period);
  const [summary, series, lastYearSeries, habits, chase, forecast] = await Promise.all([
    querySellerMetricSummary(db, sellerId),
    readMetricSeries(db, {
      sellerId,
      types: seriesTypes,
      frequency: metricFrequency,
      fromDay: firstTrend.start,
      toDay: period.start,
    }),
    readMetricSeries(db, {
      sellerId,
      types: ['TOTAL_REVENUE', 'TOTAL_PAID'],
      frequency: metricFrequency,
      fromDay: lastYear.start,
      toDay: lastYear.start,
    }),
    paymentHabitChanges(db, { sellerId, windows, exclusions: subject.exclusions, limit: LIST_LIMIT }),
    invoicesToChase(db, { sellerId, lastDay: period.end, exclusions: subject.exclusions, limit: LIST_LIMIT }),
    latestCollectionsForecast(db, { sellerId, asOf, weeks: FORECAST_WEEKS[frequency] }),
  ]);
  const trend = Array.from({ length: TREND_PERIODS[frequency] }, (_, i) => {
    const start = shiftPeriod(frequency, firstTrend, i).start;
    return {
      start: isoDay(start),
      revenue: valueAt(series, 'TOTAL_REVENUE', start),
      collections: valueAt(series, 'TOTAL_PAID', start),
    };
  });
  const previousReceivables = receivablesAt(series, previous.start);
  return {
    company: subject.company,
    frequency,
    asOf: asOf.toISOString(),
    dataAsOf: summary?.asOf ?? null,
    period: periodOf(period),
    previousPeriod: periodOf(previous),
    lastYearPeriod: periodOf(lastYear),
    revenue: {
      current: valueAt(series, 'TOTAL_REVENUE', period.start),
      previous: valueAt(series, 'TOTAL_REVENUE', previous.start),
      lastYear: valueAt(lastYearSeries, 'TOTAL_REVENUE', lastYear.start),
    },
    collections: {
      current: valueAt(series, 'TOTAL_PAID', period.start),
      previous: valueAt(series, 'TOTAL_PAID', previous.start),
      lastYear: valueAt(lastYearSeries, 'TOTAL_PAID', lastYear.start),
    },
    trend,
    receivables: receivablesAt(series, period.start),
    previousReceivables: { open: previousReceivables.open, overdue: previousReceivables.overdue },
    dso: { current: ratioAt(series, 'DSO', period.start), previous: ratioAt(series, 'DSO', previous.start) },
    habits: { windows: { before: periodOf(windows.before), after: periodOf(windows.after) }, ...habits },
    chase,
    forecast,
  };
};
