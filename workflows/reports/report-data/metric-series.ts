import type { Db } from 'mongodb';
import type { MetricFrequency, MetricType } from '../../../contracts/ledger';
import { toDay } from '../../metrics/compute-metrics';
import { liveGenerationOf, METRIC_ROWS } from '../../metrics/metric-store';

/** One stored metric row's figures: Value in hundredths (cents, hundredths of a day), Count. */
export type RowFigures = { value: number; count: number };

/** Rows by type, then by their period's first day. */
export type MetricSeries = Map<MetricType, Map<number, RowFigures>>;

/**
 * The seller's live metric rows of some types and one frequency whose periods start within
 * [fromDay, toDay]: one read through the rows' (seller, type, frequency, startDate) index.
 */
export const readMetricSeries = async (
  db: Db,
  query: {
    sellerId: number;
    types: readonly MetricType[];
    frequency: MetricFrequency;
    fromDay: number;
    toDay: number;
  },
): Promise<MetricSeries> => {
  const generation = await liveGenerationOf(db, query.sellerId, 'rows');
  const docs = await db
    .collection<{ type: MetricType; startDate: Date; value: number; count: number }>(METRIC_ROWS)
    .find(
      {
        sellerId: query.sellerId,
        type: { $in: [...query.types] },
        frequency: query.frequency,
        startDate: {
          $gte: new Date(query.fromDay * 86_400_000),
          $lte: new Date(query.toDay * 86_400_000),
        },
        ...(generation === undefined ? {} : { generation }),
      },
      { projection: { _id: 0, type: 1, startDate: 1, value: 1, count: 1 } },
    )
    .toArray();
  const series: MetricSeries = new Map(
    query.types.map((type) => [type, new Map<number, RowFigures>()] as const),
  );
  for (const doc of docs)
    series.get(doc.type)?.set(toDay(doc.startDate), { value: doc.value, count: doc.count });
  return series;
};

/** A row's value, 0 when the period has no row (nothing happened, or after the metrics run). */
export const valueAt = (series: MetricSeries, type: MetricType, day: number) =>
  series.get(type)?.get(day)?.value ?? 0;

/** A ratio row's value in days (two decimals), null when its Count is 0 (no sales: no value). */
export const ratioAt = (series: MetricSeries, type: MetricType, day: number): number | null => {
  const row = series.get(type)?.get(day);
  return row === undefined || row.count === 0 ? null : row.value / 100;
};
