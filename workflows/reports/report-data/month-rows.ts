import type { Db } from 'mongodb';
import type { MetricType } from '../../../contracts/ledger';
import { METRIC_GENERATIONS, METRIC_ROWS } from '../../metrics/metric-store';
import type { RowFigures } from './metric-series';

type RowDoc = { sellerId: number; type: MetricType; value: number; count: number; generation: string };

/**
 * Several sellers' live MONTHLY rows of one month, in two reads whatever their number: their live
 * generations, then the rows through the (seller, type, frequency, startDate) index. Sellers
 * without metrics are absent.
 */
export const readMonthRows = async (
  db: Db,
  query: { sellerIds: readonly number[]; types: readonly MetricType[]; monthStart: number },
): Promise<Map<number, Map<MetricType, RowFigures>>> => {
  if (query.sellerIds.length === 0) return new Map();
  const generations = await db
    .collection<{ _id: number; rows?: string }>(METRIC_GENERATIONS)
    .find({ _id: { $in: [...query.sellerIds] } })
    .toArray();
  const live = new Map(generations.flatMap((g) => (g.rows === undefined ? [] : [[g._id, g.rows] as const])));
  if (live.size === 0) return new Map();
  const rows = await db
    .collection<RowDoc>(METRIC_ROWS)
    .find(
      {
        sellerId: { $in: [...live.keys()] },
        type: { $in: [...query.types] },
        frequency: 'MONTHLY',
        startDate: new Date(query.monthStart * 86_400_000),
      },
      { projection: { _id: 0, sellerId: 1, type: 1, value: 1, count: 1, generation: 1 } },
    )
    .toArray();
  const bySeller = new Map<number, Map<MetricType, RowFigures>>(
    [...live.keys()].map((id) => [id, new Map()]),
  );
  for (const row of rows)
    if (live.get(row.sellerId) === row.generation)
      bySeller.get(row.sellerId)?.set(row.type, { value: row.value, count: row.count });
  return bySeller;
};

/** A ratio row's value (hundredths to units), null for a missing row or Count 0 (no value). */
export const ratioOf = (rows: Map<MetricType, RowFigures> | undefined, type: MetricType): number | null => {
  const row = rows?.get(type);
  return row === undefined || row.count === 0 ? null : row.value / 100;
};
