import type { Db } from 'mongodb';
import { dayOfMonthIndex, monthIndexOf, periodStartDay, toDay } from '../../metrics/compute-metrics';
import { CUSTOMER_RECEIVABLES, liveGenerationOf, querySellerMetricSummary } from '../../metrics/metric-store';
import { agingTypes } from './gather-report-data';
import { healthScore, type HealthDriver } from './health-score';
import { ratioAt, readMetricSeries, valueAt } from './metric-series';
import type { AgingFigure, ReportCompany } from './report-data';
import { loadReportSubject, type ReportSubject } from './report-subject';

export type ScorecardData = {
  company: ReportCompany;
  asOf: string;
  /** When the figures are as of: the last metrics run's date; null before the first run. */
  dataAsOf: string | null;
  score: number;
  drivers: HealthDriver[];
  receivables: { open: number; overdue: number; aging: AgingFigure[] };
  /** The five customers owing the most, largest first. */
  topCustomers: { customerId: number; name: string; openBalance: number }[];
};

const TOP = 5;

/** The five largest positive balances and the total of all positive balances, from the customers table. */
const balancesOf = async (db: Db, sellerId: number, excluded: readonly number[]) => {
  const generation = await liveGenerationOf(db, sellerId, 'receivables');
  if (generation === undefined) return { top: [], total: 0 };
  const docs = await db
    .collection<{ customerId: number; name: string; openBalance: number }>(CUSTOMER_RECEIVABLES)
    .find(
      { sellerId, generation, openBalance: { $gt: 0 } },
      { projection: { _id: 0, customerId: 1, name: 1, openBalance: 1 } },
    )
    .toArray();
  const kept = docs.filter((doc) => !excluded.includes(doc.customerId));
  kept.sort((a, b) => b.openBalance - a.openBalance || a.customerId - b.customerId);
  return { top: kept.slice(0, TOP), total: kept.reduce((sum, doc) => sum + doc.openBalance, 0) };
};

/**
 * The scorecard's figures (ADR 36), all as of the seller's last metrics run: DSO over the trailing
 * 3 months and its change from 3 months before (the TRAILING3MONTHS rows), the overdue share (the
 * aging row of the week holding that day) and the five largest customer balances (the customers
 * table of that run).
 */
export const gatherScorecardData = async (
  db: Db,
  query: { sellerId: number; asOf: Date },
  loaded?: ReportSubject,
): Promise<ScorecardData> => {
  const subject = loaded ?? (await loadReportSubject(db, query.sellerId));
  const summary = await querySellerMetricSummary(db, query.sellerId);
  if (!summary) {
    const { score, drivers } = healthScore({
      dso: null,
      overdueShare: null,
      concentration: null,
      dsoChange: null,
    });
    return {
      company: subject.company,
      asOf: query.asOf.toISOString(),
      dataAsOf: null,
      score,
      drivers,
      receivables: { open: 0, overdue: 0, aging: [] },
      topCustomers: [],
    };
  }
  const day = toDay(new Date(summary.asOf));
  const month = monthIndexOf(day);
  const trailingStart = dayOfMonthIndex(month - 2);
  const earlierStart = dayOfMonthIndex(month - 5);
  const week = periodStartDay('WEEKLY', day);
  const [trailing, aging, balances] = await Promise.all([
    readMetricSeries(db, {
      sellerId: query.sellerId,
      types: ['DSO'],
      frequency: 'TRAILING3MONTHS',
      fromDay: earlierStart,
      toDay: trailingStart,
    }),
    readMetricSeries(db, {
      sellerId: query.sellerId,
      types: agingTypes.map(([, type]) => type),
      frequency: 'WEEKLY',
      fromDay: week,
      toDay: week,
    }),
    balancesOf(db, query.sellerId, subject.exclusions.customerIds),
  ]);
  const open = agingTypes.reduce((sum, [, type]) => sum + valueAt(aging, type, week), 0);
  const overdue = open - valueAt(aging, 'AGING_CURRENT', week);
  const dso = ratioAt(trailing, 'DSO', trailingStart);
  const earlierDso = ratioAt(trailing, 'DSO', earlierStart);
  const { score, drivers } = healthScore({
    dso,
    overdueShare: open > 0 ? overdue / open : null,
    concentration:
      balances.total > 0 ? balances.top.reduce((sum, c) => sum + c.openBalance, 0) / balances.total : null,
    dsoChange: dso === null || earlierDso === null ? null : Math.round((dso - earlierDso) * 100) / 100,
  });
  return {
    company: subject.company,
    asOf: query.asOf.toISOString(),
    dataAsOf: summary.asOf,
    score,
    drivers,
    receivables: {
      open,
      overdue,
      aging: agingTypes.map(([bucket, type]) => ({
        bucket,
        amount: valueAt(aging, type, week),
        invoices: aging.get(type)?.get(week)?.count ?? 0,
      })),
    },
    topCustomers: balances.top.map(({ customerId, name, openBalance }) => ({
      customerId,
      name,
      openBalance,
    })),
  };
};
