import type { Db } from 'mongodb';
import type { MetricType } from '../../../contracts/ledger';
import { currentCollection } from '../../../projections/framework/read-model-versions';
import {
  sellersProjection,
  type SellerCollections,
  type SellerDoc,
} from '../../../projections/sellers/sellers-projection';
import { tenantsCollection } from '../../../projections/tenants/tenant-view';
import { agingTypes } from './gather-report-data';
import { ratioOf, readMonthRows } from './month-rows';
import type { ReportCompany, ReportPeriod } from './report-data';
import { isoDay, reportPeriodOf } from './report-period';
import { loadReportSubject, type ReportSubject } from './report-subject';

export const MIN_PEERS = 5;

/** Thrown when a company's industry has fewer than MIN_PEERS peers with figures: no benchmark is shown. */
export class NotEnoughPeersError extends Error {
  readonly code = 'NOT_ENOUGH_PEERS';
  constructor(readonly peers: number) {
    super('Not enough peers in this industry to benchmark (at least 5 are needed).');
    this.name = 'NotEnoughPeersError';
  }
}

/** NAICS sectors: the 2-digit code, where three sectors span several codes. */
const sectors: { codes: string[]; name: string }[] = [
  { codes: ['11'], name: 'Agriculture, Forestry, Fishing and Hunting' },
  { codes: ['21'], name: 'Mining, Quarrying, and Oil and Gas Extraction' },
  { codes: ['22'], name: 'Utilities' },
  { codes: ['23'], name: 'Construction' },
  { codes: ['31', '32', '33'], name: 'Manufacturing' },
  { codes: ['42'], name: 'Wholesale Trade' },
  { codes: ['44', '45'], name: 'Retail Trade' },
  { codes: ['48', '49'], name: 'Transportation and Warehousing' },
  { codes: ['51'], name: 'Information' },
  { codes: ['52'], name: 'Finance and Insurance' },
  { codes: ['53'], name: 'Real Estate and Rental and Leasing' },
  { codes: ['54'], name: 'Professional, Scientific, and Technical Services' },
  { codes: ['55'], name: 'Management of Companies and Enterprises' },
  { codes: ['56'], name: 'Administrative and Support and Waste Management and Remediation Services' },
  { codes: ['61'], name: 'Educational Services' },
  { codes: ['62'], name: 'Health Care and Social Assistance' },
  { codes: ['71'], name: 'Arts, Entertainment, and Recreation' },
  { codes: ['72'], name: 'Accommodation and Food Services' },
  { codes: ['81'], name: 'Other Services (except Public Administration)' },
  { codes: ['92'], name: 'Public Administration' },
];

export const sectorOf = (naics: string | null) => {
  const prefix = naics?.slice(0, 2);
  const sector = sectors.find((s) => prefix !== undefined && s.codes.includes(prefix));
  return sector ? { code: sector.codes.join('-'), codes: sector.codes, name: sector.name } : null;
};

export type BenchmarkMetricId = 'dso' | 'daysDelinquent' | 'cei' | 'overdueShare';

export type BenchmarkMetric = {
  id: BenchmarkMetricId;
  label: string;
  unit: 'days' | 'percent';
  better: 'lower' | 'higher';
  /** The company's figure; null when it has none for the month. */
  company: number | null;
  /** How many peers have the figure, and their quartiles (null with none). */
  peers: number;
  p25: number | null;
  median: number | null;
  p75: number | null;
  /** Share (0-100) of those peers the company does better than; null without a company figure. */
  betterThan: number | null;
};

export type BenchmarksData = {
  company: ReportCompany;
  asOf: string;
  /** The month compared: the last whole month before asOf. */
  period: ReportPeriod;
  sector: { code: string; name: string };
  peers: number;
  metrics: BenchmarkMetric[];
};

type Figures = Record<BenchmarkMetricId, number | null>;

const metricDefinitions: Omit<
  BenchmarkMetric,
  'company' | 'peers' | 'p25' | 'median' | 'p75' | 'betterThan'
>[] = [
  { id: 'dso', label: 'Days sales outstanding', unit: 'days', better: 'lower' },
  { id: 'daysDelinquent', label: 'Average days delinquent', unit: 'days', better: 'lower' },
  { id: 'cei', label: 'Collection effectiveness index', unit: 'percent', better: 'higher' },
  { id: 'overdueShare', label: 'Overdue share of receivables', unit: 'percent', better: 'lower' },
];

const rowTypes: MetricType[] = [
  'DSO',
  'AVG_DAYS_DELINQUENT',
  'COLLECTION_EFFECTIVENESS_INDEX',
  ...agingTypes.map(([, type]) => type),
];

/** Each seller's benchmark figures of one month, from its live MONTHLY rows. */
const monthFigures = async (db: Db, sellerIds: readonly number[], monthStart: number) => {
  const rows = await readMonthRows(db, { sellerIds, types: rowTypes, monthStart });
  const figures = new Map<number, Figures>();
  for (const [sellerId, of] of rows) {
    if (of.size === 0) continue;
    const open = agingTypes.reduce((sum, [, type]) => sum + (of.get(type)?.value ?? 0), 0);
    const current = of.get('AGING_CURRENT')?.value ?? 0;
    figures.set(sellerId, {
      dso: ratioOf(of, 'DSO'),
      daysDelinquent: ratioOf(of, 'AVG_DAYS_DELINQUENT'),
      cei: ratioOf(of, 'COLLECTION_EFFECTIVENESS_INDEX'),
      overdueShare: open > 0 ? Math.round(((open - current) / open) * 10_000) / 100 : null,
    });
  }
  return figures;
};

/** The q-quantile by linear interpolation between the closest ranks (sorted values). */
export const quantile = (sorted: readonly number[], q: number): number | null => {
  if (sorted.length === 0) return null;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const low = sorted[below] ?? 0;
  const high = sorted[Math.min(below + 1, sorted.length - 1)] ?? low;
  return Math.round((low + (high - low) * (position - below)) * 100) / 100;
};

/**
 * Sellers of other active tenants in the same NAICS sector, connected and not deleted. DEMO sellers
 * hold generated data: they are peers of DEMO sellers only, so they never sway a real benchmark.
 */
const peerSellerIds = async (db: Db, subject: ReportSubject, codes: readonly string[]) => {
  const tenants = await (
    await tenantsCollection(db)
  )
    .find(
      {
        status: 'active',
        _id: { $ne: subject.tenant._id },
        'Industry.NAICS2017': { $regex: `^(${codes.join('|')})` },
      },
      { projection: { _id: 1 } },
    )
    .toArray();
  if (tenants.length === 0) return [];
  const sellers = await (
    await currentCollection<SellerCollections, SellerDoc>(db, sellersProjection, 'sellers')
  )
    .find(
      { tenantId: { $in: tenants.map((t) => t._id) }, active: true, deleted: false },
      { projection: { _id: 1, provider: 1 } },
    )
    .toArray();
  const demo = subject.seller.Provider === 'DEMO';
  return sellers.filter((s) => (s.provider === 'DEMO') === demo).map((s) => s._id);
};

/**
 * The benchmarks report's figures (ADR 36): the company's DSO, average days delinquent, collection
 * effectiveness and overdue share of the last whole month against the quartiles of its anonymised
 * peers, the sellers of other companies in its NAICS sector. Throws NotEnoughPeersError below
 * MIN_PEERS peers with figures for that month (or without an industry).
 */
export const gatherBenchmarksData = async (
  db: Db,
  query: { sellerId: number; asOf: Date },
  loaded?: ReportSubject,
): Promise<BenchmarksData> => {
  const subject = loaded ?? (await loadReportSubject(db, query.sellerId));
  const sector = sectorOf(subject.company.naics);
  if (!sector) throw new NotEnoughPeersError(0);
  const month = reportPeriodOf('monthly', query.asOf);
  const peerIds = await peerSellerIds(db, subject, sector.codes);
  const figures = await monthFigures(db, [query.sellerId, ...peerIds], month.start);
  const peers = peerIds.flatMap((id) => {
    const of = figures.get(id);
    return of && Object.values(of).some((v) => v !== null) ? [of] : [];
  });
  if (peers.length < MIN_PEERS) throw new NotEnoughPeersError(peers.length);
  const own = figures.get(query.sellerId);
  const metrics = metricDefinitions.map((definition): BenchmarkMetric => {
    const values = peers
      .map((p) => p[definition.id])
      .filter((v): v is number => v !== null)
      .sort((a, b) => a - b);
    const company = own?.[definition.id] ?? null;
    const beaten =
      company === null
        ? null
        : values.filter((v) => (definition.better === 'lower' ? v > company : v < company)).length;
    return {
      ...definition,
      company,
      peers: values.length,
      p25: quantile(values, 0.25),
      median: quantile(values, 0.5),
      p75: quantile(values, 0.75),
      betterThan: beaten === null || values.length === 0 ? null : Math.round((beaten / values.length) * 100),
    };
  });
  return {
    company: subject.company,
    asOf: query.asOf.toISOString(),
    period: { start: isoDay(month.start), end: isoDay(month.end) },
    sector: { code: sector.code, name: sector.name },
    peers: peers.length,
    metrics,
  };
};
