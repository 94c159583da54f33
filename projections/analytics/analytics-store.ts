import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { LedgerEntity } from '../../contracts/ledger';
import type {
  AnalyticsFrequency,
  SellerAnalyticsRow,
  SellerMonthTotals,
} from '../../contracts/kafka/analytics';

/**
 * The analytics read models (docs/adr/0041-analytics-exactly-once.md):
 * - `analytics_ledger_facts`: the latest version of each ledger record as the feed delivered it, one
 *   document per (entity, seller, provider id), reduced to the fields the figures need. A write
 *   replaces it only with a newer version (higher epoch, or same epoch and a later offset of the
 *   record's partition), so applying a record twice, late or out of turn changes nothing.
 * - `analytics_dirty_batches`: per applied batch, the sellers whose facts it changed, until their
 *   figures are recomputed (one document per batch, not one write per seller).
 * - `seller_analytics`: per seller and frequency, the periods computed from its facts.
 * - `seller_analytics_totals`: per seller, the monthly counts the platform totals add up.
 * Figures are a function of the facts alone, so they are the same whatever order or how often
 * the records were applied.
 */
export const ANALYTICS_FACTS = 'analytics_ledger_facts';
export const ANALYTICS_DIRTY = 'analytics_dirty_batches';
export const SELLER_ANALYTICS = 'seller_analytics';
export const SELLER_ANALYTICS_TOTALS = 'seller_analytics_totals';

/** Days are UTC day numbers (days since 1970-01-01). */
export type FactFields =
  | { entity: 'customers'; customerId: number; createdDay: number }
  | { entity: 'products' }
  | {
      entity: 'invoices';
      customerId: number;
      day: number;
      dueDay: number;
      amount: number;
      balance: number;
    }
  | {
      entity: 'payments' | 'creditMemos';
      customerId: number;
      day: number;
      amount: number;
      /** [invoice provider id, amount applied] */
      apps: [string, number][];
    };

/**
 * The key is `<entity>:<sellerId>:<providerId>` (`factIdOf`); the provider id is not stored again
 * (`providerIdOf` reads it from the key), nor the record id: every stored byte is paid per record.
 */
export type FactDoc = {
  _id: string;
  sellerId: number;
  epoch: number;
  /** The record's partition offset: a key always lives on one partition of its entity's topic. */
  offset: number;
  /**
   * A tombstone's fact: the record was deleted. It is kept (newer-wins like any version, so a late
   * older version cannot bring the record back) and left out of the figures.
   */
  deleted?: true;
} & FactFields;

/** One applied batch: `<topic>:<partition>:<first offset>` (a redelivery rewrites the same mark). */
export type DirtyBatchDoc = { _id: string; sellerIds: number[]; at: Date };

export type SellerAnalyticsDoc = {
  _id: string;
  sellerId: number;
  frequency: AnalyticsFrequency;
  epoch: number;
  asOf: string | null;
  computedAt: Date;
  rows: SellerAnalyticsRow[];
};

export type SellerTotalsDoc = {
  _id: number;
  epoch: number;
  asOf: string | null;
  customers: number;
  invoices: number;
  sales: number;
  months: SellerMonthTotals[];
  computedAt: Date;
};

export const factIdOf = (entity: LedgerEntity, sellerId: number, providerId: string) =>
  `${entity}:${sellerId}:${providerId}`;

/** The provider id in a fact's key (it may itself contain colons). */
export const providerIdOf = (fact: Pick<FactDoc, '_id'>): string => {
  const afterEntity = fact._id.indexOf(':');
  return fact._id.slice(fact._id.indexOf(':', afterEntity + 1) + 1);
};

let indexed = new WeakSet<Db>();
export const ensureAnalyticsIndexes = async (db: Db): Promise<void> => {
  if (indexed.has(db)) return;
  const facts = db.collection<FactDoc>(ANALYTICS_FACTS);
  const existing = new Set((await facts.indexes().catch(() => [])).map((i) => i.name));
  // Facts are read by seller only; each index path costs every insert (the embedded store extracts
  // it from the JSON), so the former (sellerId, entity) index gave way to this one.
  if (!existing.has('seller')) await facts.createIndex({ sellerId: 1 }, { name: 'seller' });
  if (existing.has('seller_entity')) await facts.dropIndex('seller_entity');
  const rows = db.collection<SellerAnalyticsDoc>(SELLER_ANALYTICS);
  const rowIndexes = new Set((await rows.indexes().catch(() => [])).map((i) => i.name));
  if (!rowIndexes.has('seller')) await rows.createIndex({ sellerId: 1 }, { name: 'seller' });
  indexed.add(db);
};

/** Tests drop databases between files; a new Db object is a new store. */
export const forgetAnalyticsIndexes = () => {
  indexed = new WeakSet<Db>();
};

/** Every failed write of a bulk write was a duplicate key (a newer version is stored). */
const onlyDuplicateKeys = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const { writeErrors, code } = error as { writeErrors?: unknown; code?: unknown };
  const list: unknown[] = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  return list.length > 0 ? list.every((e) => (e as { code?: unknown }).code === 11000) : code === 11000;
};

/** The conditional write: replaces the stored version only when the given one is newer. */
const replaceIfNewer = (fact: FactDoc): AnyBulkWriteOperation<FactDoc> => ({
  replaceOne: {
    filter: {
      _id: fact._id,
      $or: [{ epoch: { $lt: fact.epoch } }, { epoch: fact.epoch, offset: { $lt: fact.offset } }],
    },
    replacement: fact,
    upsert: true,
  },
});

const isNewer = (fact: FactDoc, stored: Pick<FactDoc, 'epoch' | 'offset'>) =>
  fact.epoch > stored.epoch || (fact.epoch === stored.epoch && fact.offset > stored.offset);

/** Inserts facts; the ones whose key is stored already (duplicate key) are returned. */
const insertNew = async (collection: Collection<FactDoc>, inserts: FactDoc[]): Promise<FactDoc[]> => {
  if (inserts.length === 0) return [];
  try {
    await collection.insertMany(inserts, { ordered: false });
    return [];
  } catch (error) {
    if (!onlyDuplicateKeys(error)) throw error;
    const failed = new Set(
      ((error as { writeErrors?: unknown }).writeErrors as { index: number }[] | undefined)?.map(
        (e) => e.index,
      ) ?? inserts.map((_, index) => index),
    );
    return inserts.filter((_, index) => failed.has(index));
  }
};

/**
 * Applies fact versions: each replaces its stored version only when newer (higher epoch, or the same
 * epoch and a later offset). A batch whose first and last keys are both unknown (a first delivery,
 * the common case) is inserted whole without reading anything; otherwise (a redelivery, corrections)
 * one indexed read of the batch's keys sorts them: unknown keys are inserted, stored older versions
 * are replaced with the conditional write, the rest are skipped. An insert that meets a stored key
 * (a newer version among new records, or a key written meanwhile by another consumer during a
 * rebalance) retries as the conditional write; that write, finding a newer version stored, tries to
 * insert an existing _id and fails with a duplicate key: that is "nothing to do", not an error.
 */
export const applyFacts = async (db: Db, facts: FactDoc[]): Promise<void> => {
  if (facts.length === 0) return;
  // The last version of a key within one call wins; earlier ones would be replaced anyway.
  const latest = new Map<string, FactDoc>();
  for (const fact of facts) latest.set(fact._id, fact);
  const collection = db.collection<FactDoc>(ANALYTICS_FACTS);
  const keys = [...latest.keys()];
  const probe = [...new Set([keys[0]!, keys[keys.length - 1]!])];
  const known = await collection.countDocuments({ _id: { $in: probe } });
  const replaces: FactDoc[] = [];
  if (known === 0) replaces.push(...(await insertNew(collection, [...latest.values()])));
  else {
    const stored = new Map<string, Pick<FactDoc, 'epoch' | 'offset'>>();
    for (const doc of await collection
      .find({ _id: { $in: keys } }, { projection: { epoch: 1, offset: 1 } })
      .toArray())
      stored.set(doc._id, doc);
    const inserts: FactDoc[] = [];
    for (const fact of latest.values()) {
      const before = stored.get(fact._id);
      if (!before) inserts.push(fact);
      else if (isNewer(fact, before)) replaces.push(fact);
    }
    replaces.push(...(await insertNew(collection, inserts)));
  }
  if (replaces.length === 0) return;
  try {
    await collection.bulkWrite(replaces.map(replaceIfNewer), { ordered: false });
  } catch (error) {
    if (!onlyDuplicateKeys(error)) throw error;
  }
};

/** Marks the sellers of one applied batch as changed: their figures are recomputed once it settles. */
export const markSellersDirty = async (
  db: Db,
  batch: { id: string; sellerIds: Iterable<number>; now: Date },
): Promise<void> => {
  const sellerIds = [...new Set(batch.sellerIds)];
  if (sellerIds.length === 0) return;
  await db
    .collection<DirtyBatchDoc>(ANALYTICS_DIRTY)
    .replaceOne({ _id: batch.id }, { sellerIds, at: batch.now }, { upsert: true });
};

export const dirtyBatches = (db: Db): Promise<DirtyBatchDoc[]> =>
  db.collection<DirtyBatchDoc>(ANALYTICS_DIRTY).find({}).toArray();

/** Clears the marks a recompute read; marks written since stay for the next one. */
export const clearDirtyBatches = async (db: Db, marks: readonly DirtyBatchDoc[]): Promise<void> => {
  if (marks.length > 0)
    await db.collection<DirtyBatchDoc>(ANALYTICS_DIRTY).deleteMany({ _id: { $in: marks.map((m) => m._id) } });
};

/** A seller's facts, deleted records left out. */
export const sellerFacts = (db: Db, sellerId: number): Promise<FactDoc[]> =>
  db
    .collection<FactDoc>(ANALYTICS_FACTS)
    .find({ sellerId, deleted: { $ne: true } })
    .toArray();

/** Facts of epochs a repopulate replaced. */
export const dropOlderEpochs = async (db: Db, sellerId: number, epoch: number): Promise<void> => {
  await db.collection<FactDoc>(ANALYTICS_FACTS).deleteMany({ sellerId, epoch: { $lt: epoch } });
};

export type ComputedSellerFigures = {
  sellerId: number;
  epoch: number;
  asOf: string | null;
  computedAt: Date;
  rows: Record<AnalyticsFrequency, SellerAnalyticsRow[]>;
  totals: Omit<SellerTotalsDoc, '_id' | 'epoch' | 'asOf' | 'computedAt'>;
};

/** Replaces a seller's figures (one document per frequency and one of totals, each written whole). */
export const storeSellerAnalytics = async (db: Db, figures: ComputedSellerFigures): Promise<void> => {
  const { sellerId, epoch, asOf, computedAt, rows, totals } = figures;
  for (const frequency of ['WEEKLY', 'MONTHLY'] as const)
    await db
      .collection<SellerAnalyticsDoc>(SELLER_ANALYTICS)
      .replaceOne(
        { _id: `${sellerId}:${frequency}` },
        { sellerId, frequency, epoch, asOf, computedAt, rows: rows[frequency] },
        { upsert: true },
      );
  await db
    .collection<SellerTotalsDoc>(SELLER_ANALYTICS_TOTALS)
    .replaceOne({ _id: sellerId }, { epoch, asOf, computedAt, ...totals }, { upsert: true });
};

/** A seller's stored periods of one frequency, oldest first ([] before its first computation). */
export const querySellerAnalytics = async (
  db: Db,
  query: { sellerId: number; frequency: AnalyticsFrequency; startDate?: string; endDate?: string },
): Promise<SellerAnalyticsRow[]> => {
  const doc = await db
    .collection<SellerAnalyticsDoc>(SELLER_ANALYTICS)
    .findOne({ _id: `${query.sellerId}:${query.frequency}` });
  return (doc?.rows ?? []).filter(
    (row) =>
      (query.startDate === undefined || row.startDate >= query.startDate) &&
      (query.endDate === undefined || row.startDate <= query.endDate),
  );
};

export const allSellerTotals = (db: Db): Promise<SellerTotalsDoc[]> =>
  db.collection<SellerTotalsDoc>(SELLER_ANALYTICS_TOTALS).find({}).toArray();

/** Whether every mark was computed (tests and benchmarks wait for it). */
export const analyticsSettled = async (db: Db): Promise<boolean> =>
  (await db.collection<DirtyBatchDoc>(ANALYTICS_DIRTY).countDocuments({})) === 0;
