import type { Db } from 'mongodb';
import {
  metricTypeCodes,
  type MetricFrequency,
  type MetricRow,
  type MetricType,
  type SellerMetricSummary,
} from '../../contracts/ledger';
import type { ComputedMetrics, CustomerMetrics } from './compute-metrics';

export const METRIC_ROWS = 'metric_rows';
export const CUSTOMER_METRICS = 'customer_metrics';
export const SELLER_METRIC_SUMMARIES = 'seller_metric_summaries';

type MetricRowDoc = {
  _id: string;
  sellerId: number;
  type: MetricType;
  typeCode: number;
  frequency: MetricFrequency;
  startDate: Date;
  value: number;
  count: number;
  generation: string;
};

const ensureIndex = async (db: Db, collection: string, spec: { key: Record<string, 1>; name: string }) => {
  const names = (await db.listCollections({ name: collection }, { nameOnly: true }).toArray()).length
    ? (await db.collection(collection).listIndexes().toArray()).map((index: { name?: unknown }) =>
        String(index.name),
      )
    : [];
  if (!names.includes(spec.name)) await db.collection(collection).createIndexes([spec]);
};

const BATCH = 1000;

const upsertAll = async (db: Db, collection: string, docs: { _id: string }[]) => {
  for (let i = 0; i < docs.length; i += BATCH)
    await db.collection<{ _id: string }>(collection).bulkWrite(
      docs.slice(i, i + BATCH).map((doc) => ({
        replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true },
      })),
      { ordered: false },
    );
};

/** Replaces a seller's customer metrics the same way (the customers job stores only these). */
export const storeCustomerMetrics = async (
  db: Db,
  run: { sellerId: number; generation: string },
  customers: CustomerMetrics[],
) => {
  const { sellerId, generation } = run;
  await ensureIndex(db, CUSTOMER_METRICS, { key: { sellerId: 1, customerId: 1 }, name: 'seller_customer' });
  await upsertAll(
    db,
    CUSTOMER_METRICS,
    customers.map((c) => ({ _id: `${sellerId}:${c.customerId}`, sellerId, ...c, generation })),
  );
  await db.collection(CUSTOMER_METRICS).deleteMany({ sellerId, generation: { $ne: generation } });
};

/** The customer counts of a seller's summary, when it has one (its first GenerateMetrics writes it). */
export const updateCustomerCounts = async (
  db: Db,
  sellerId: number,
  counts: Pick<SellerMetricSummary, 'customersT36M' | 'activeCustomers' | 'retentionMonths'>,
) => {
  const updated = await db
    .collection<{ _id: number }>(SELLER_METRIC_SUMMARIES)
    .updateOne({ _id: sellerId }, { $set: counts });
  return updated.matchedCount === 1;
};

/**
 * Replaces a seller's metrics without a gap: the new generation is upserted first, then rows of
 * older generations go. A reader sees old or new rows, never none.
 */
export const storeMetrics = async (
  db: Db,
  run: { sellerId: number; tenantId: number; asOf: Date; generation: string },
  metrics: ComputedMetrics,
) => {
  const { sellerId, generation } = run;
  await ensureIndex(db, METRIC_ROWS, {
    key: { sellerId: 1, type: 1, frequency: 1, startDate: 1 },
    name: 'seller_series',
  });
  const rows: MetricRowDoc[] = metrics.rows.map((row) => ({
    _id: `${sellerId}:${row.type}:${row.frequency}:${row.startDate.toISOString()}`,
    sellerId,
    type: row.type,
    typeCode: metricTypeCodes[row.type],
    frequency: row.frequency,
    startDate: row.startDate,
    value: row.value,
    count: row.count,
    generation,
  }));
  await upsertAll(db, METRIC_ROWS, rows);
  await db.collection(METRIC_ROWS).deleteMany({ sellerId, generation: { $ne: generation } });
  await storeCustomerMetrics(db, run, metrics.customers);
  const summary: SellerMetricSummary = {
    sellerId,
    tenantId: run.tenantId,
    asOf: run.asOf.toISOString(),
    ...metrics.summary,
  };
  await db
    .collection<{ _id: number }>(SELLER_METRIC_SUMMARIES)
    .replaceOne({ _id: sellerId }, { ...summary, generation }, { upsert: true });
};

/** The rows of GET /api/metrics/sellers/{sellerId}?type=&frequency= (admin metrics chart), oldest first. */
export const queryMetricRows = async (
  db: Db,
  query: { sellerId: number; type: MetricType; frequency: MetricFrequency },
): Promise<MetricRow[]> => {
  const docs = await db
    .collection<MetricRowDoc>(METRIC_ROWS)
    .find({ sellerId: query.sellerId, type: query.type, frequency: query.frequency })
    .sort({ startDate: 1 })
    .toArray();
  return docs.map((doc) => ({ StartDate: doc.startDate.toISOString(), Value: doc.value, Count: doc.count }));
};

/** The admin overview's figures of one seller, or null before its first metrics run. */
export const querySellerMetricSummary = async (
  db: Db,
  sellerId: number,
): Promise<SellerMetricSummary | null> => {
  const doc = await db
    .collection<SellerMetricSummary & { _id: number; generation: string }>(SELLER_METRIC_SUMMARIES)
    .findOne({ _id: sellerId }, { projection: { _id: 0, generation: 0 } });
  return doc;
};
