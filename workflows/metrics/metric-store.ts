import type { Db } from 'mongodb';
import {
  metricTypeCodes,
  type MetricFrequency,
  type MetricRow,
  type MetricType,
  type SellerMetricSummary,
} from '../../contracts/ledger';
import type { ComputedMetrics, CustomerMetrics } from './compute-metrics';
import {
  customerReceivablesIndexes,
  queryCustomerReceivables,
  type CustomerReceivablesDoc,
} from './customer-receivables';

export const METRIC_ROWS = 'metric_rows';
export const CUSTOMER_METRICS = 'customer_metrics';
export const SELLER_METRIC_SUMMARIES = 'seller_metric_summaries';
/** The seller customers table (GET /api/sellers/{id}/customers): one doc per customer per run. */
export const CUSTOMER_RECEIVABLES = 'customer_receivables';

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

/**
 * Per seller, the generation of its metric rows and of its customer metrics that readers see. A new
 * generation is inserted beside the live one, made live by one write here, then the others go: no
 * gap and no mix for readers, and no replace by _id, which the local FerretDB answers by reading the
 * whole collection (one replace per customer made storing quadratic in the customers).
 */
export const METRIC_GENERATIONS = 'metric_generations';

type Part = 'rows' | 'customers' | 'receivables';
type GenerationsDoc = { _id: number } & Partial<Record<Part, string>>;

const partCollections: Record<Part, string> = {
  rows: METRIC_ROWS,
  customers: CUSTOMER_METRICS,
  receivables: CUSTOMER_RECEIVABLES,
};

export const liveGenerationOf = async (db: Db, sellerId: number, part: Part): Promise<string | undefined> =>
  (await db.collection<GenerationsDoc>(METRIC_GENERATIONS).findOne({ _id: sellerId }))?.[part];

const BATCH = 1000;

/**
 * Stores a seller's new docs of one part as the run's generation and makes it live, then deletes
 * the others. A retried run first deletes what an earlier attempt left unfinished (anything not
 * live); an earlier attempt that made the generation live had stored all of it, which is kept.
 */
const swapGeneration = async <T extends object>(
  db: Db,
  store: { part: Part; sellerId: number; generation: string; docs: T[]; keyOf: (doc: T) => string },
) => {
  const { part, sellerId, generation } = store;
  const collection = db.collection<{ _id: string; sellerId: number; generation: string }>(
    partCollections[part],
  );
  const live = await liveGenerationOf(db, sellerId, part);
  if (live !== generation) {
    // Before the first swap a seller's docs have no live generation: they stay until the new one is.
    await collection.deleteMany(
      live === undefined ? { sellerId, generation } : { sellerId, generation: { $ne: live } },
    );
    const docs = store.docs.map((doc) => ({
      _id: `${sellerId}:${generation}:${store.keyOf(doc)}`,
      sellerId,
      ...doc,
      generation,
    }));
    for (let i = 0; i < docs.length; i += BATCH)
      await collection.insertMany(docs.slice(i, i + BATCH), { ordered: false });
    await db
      .collection<GenerationsDoc>(METRIC_GENERATIONS)
      .updateOne({ _id: sellerId }, { $set: { [part]: generation } }, { upsert: true });
  }
  await collection.deleteMany({ sellerId, generation: { $ne: generation } });
};

/** Replaces a seller's customer metrics (the customers job stores only these). */
export const storeCustomerMetrics = async (
  db: Db,
  run: { sellerId: number; generation: string },
  customers: CustomerMetrics[],
) => {
  await ensureIndex(db, CUSTOMER_METRICS, { key: { sellerId: 1, customerId: 1 }, name: 'seller_customer' });
  await swapGeneration(db, {
    part: 'customers',
    sellerId: run.sellerId,
    generation: run.generation,
    docs: customers,
    keyOf: (c) => String(c.customerId),
  });
};

/**
 * Replaces a seller's customers table docs. Its indexes serve the table's page: the live generation
 * of a seller, in the order of the column sorted on.
 */
export const storeCustomerReceivables = async (
  db: Db,
  run: { sellerId: number; generation: string },
  docs: CustomerReceivablesDoc[],
) => {
  for (const index of customerReceivablesIndexes) await ensureIndex(db, CUSTOMER_RECEIVABLES, index);
  await swapGeneration(db, {
    part: 'receivables',
    sellerId: run.sellerId,
    generation: run.generation,
    docs,
    keyOf: (doc) => String(doc.customerId),
  });
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
 * Replaces a seller's metrics without a gap (see swapGeneration): rows, customer metrics, then the
 * summary of the admin overview.
 */
export const storeMetrics = async (
  db: Db,
  run: { sellerId: number; tenantId: number; asOf: Date; generation: string },
  /** With the customers table's docs when the run computed receivables (ADR 30). */
  metrics: ComputedMetrics & { customerReceivables?: CustomerReceivablesDoc[] },
) => {
  const { sellerId, generation } = run;
  await ensureIndex(db, METRIC_ROWS, {
    key: { sellerId: 1, type: 1, frequency: 1, startDate: 1 },
    name: 'seller_series',
  });
  await swapGeneration(db, {
    part: 'rows',
    sellerId,
    generation,
    docs: metrics.rows.map((row) => ({
      type: row.type,
      typeCode: metricTypeCodes[row.type],
      frequency: row.frequency,
      startDate: row.startDate,
      value: row.value,
      count: row.count,
    })),
    keyOf: (row) => `${row.type}:${row.frequency}:${row.startDate.toISOString()}`,
  });
  await storeCustomerMetrics(db, run, metrics.customers);
  if (metrics.customerReceivables) await storeCustomerReceivables(db, run, metrics.customerReceivables);
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
  const generation = await liveGenerationOf(db, query.sellerId, 'rows');
  const docs = await db
    .collection<MetricRowDoc>(METRIC_ROWS)
    .find({
      sellerId: query.sellerId,
      type: query.type,
      frequency: query.frequency,
      ...(generation === undefined ? {} : { generation }),
    })
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

/** A page of the seller customers table from the live run's docs (empty before the first run). */
export const querySellerCustomers = async (
  db: Db,
  query: Omit<Parameters<typeof queryCustomerReceivables>[1], 'generation'>,
) =>
  queryCustomerReceivables(
    db,
    { ...query, generation: await liveGenerationOf(db, query.sellerId, 'receivables') },
    CUSTOMER_RECEIVABLES,
  );
