import type { Collection, Db } from 'mongodb';
import type { LedgerEntity } from '../../contracts/ledger';
import type {
  AnalyticsFrequency,
  SellerAnalyticsRow,
  SellerMonthTotals,
} from '../../contracts/kafka/analytics';

/**
 * The analytics read models (docs/adr/0041-analytics-exactly-once.md):
 * - `analytics_fact_groups`: the ledger records as the feed delivered them, reduced to the fields the
 *   figures need, one document per entity, seller and applied batch (`FactGroupDoc`). The version of
 *   a record that counts is the newest one stored (higher epoch, or same epoch and a later offset of
 *   the record's partition), chosen when the facts are read, so applying a record twice, late or out
 *   of turn changes nothing; the recompute compacts a seller's groups.
 * - `analytics_dirty_batches`: per applied batch, the sellers whose facts it changed, until their
 *   figures are recomputed (one document per batch, not one write per seller).
 * - `seller_analytics`: per seller and frequency, the periods computed from its facts.
 * - `seller_analytics_totals`: per seller, the monthly counts the platform totals add up.
 * Figures are a function of the facts alone, so they are the same whatever order or how often
 * the records were applied.
 */
export const ANALYTICS_FACTS = 'analytics_fact_groups';
/** The former layout, one document per record: moved into groups on start (`ensureAnalyticsIndexes`). */
export const LEGACY_ANALYTICS_FACTS = 'analytics_ledger_facts';
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
 * One version of a ledger record's fact as the code sees it (stored packed inside a `FactGroupDoc`).
 * `_id` is its key, `<entity>:<sellerId>:<providerId>` (`factIdOf`; `providerIdOf` reads it back).
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
  const groups = db.collection<FactGroupDoc>(ANALYTICS_FACTS);
  const existing = new Set((await groups.indexes().catch(() => [])).map((i) => i.name));
  // Groups are read by seller only; each index path costs every insert.
  if (!existing.has('seller')) await groups.createIndex({ sellerId: 1 }, { name: 'seller' });
  await migrateLegacyFacts(db);
  const rows = db.collection<SellerAnalyticsDoc>(SELLER_ANALYTICS);
  const rowIndexes = new Set((await rows.indexes().catch(() => [])).map((i) => i.name));
  if (!rowIndexes.has('seller')) await rows.createIndex({ sellerId: 1 }, { name: 'seller' });
  indexed.add(db);
};

/**
 * Facts stored one document per record (before the groups) become groups of up to
 * `COMPACT_GROUP_FACTS`, then the old collection is dropped. The group ids name their content, so a
 * migration killed half-way and run again inserts nothing twice.
 */
const migrateLegacyFacts = async (db: Db): Promise<void> => {
  const names = await db.listCollections({ name: LEGACY_ANALYTICS_FACTS }, { nameOnly: true }).toArray();
  if (names.length === 0) return;
  const legacy = db.collection<FactDoc>(LEGACY_ANALYTICS_FACTS);
  const groups = db.collection<FactGroupDoc>(ANALYTICS_FACTS);
  const pending = new Map<string, FactDoc[]>();
  const flush = async (key: string) => {
    const list = pending.get(key) ?? [];
    pending.delete(key);
    if (list.length > 0) await insertIdempotent(groups, [groupOf(`m.${list[0]!.entity}`, list)]);
  };
  for await (const fact of legacy.find({})) {
    const key = `${fact.entity}:${fact.sellerId}`;
    const list = pending.get(key) ?? [];
    list.push(fact);
    pending.set(key, list);
    if (list.length >= COMPACT_GROUP_FACTS) await flush(key);
  }
  for (const key of [...pending.keys()]) await flush(key);
  await legacy.drop();
};

/** Tests drop databases between files; a new Db object is a new store. */
export const forgetAnalyticsIndexes = () => {
  indexed = new WeakSet<Db>();
};

/** Every failed write of a bulk write was a duplicate key (the same document is stored already). */
const onlyDuplicateKeys = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const { writeErrors, code } = error as { writeErrors?: unknown; code?: unknown };
  const list: unknown[] = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  return list.length > 0 ? list.every((e) => (e as { code?: unknown }).code === 11000) : code === 11000;
};

/** Inserts documents whose ids name their content: a stored id is the same document, skipped. */
const insertIdempotent = async <T extends { _id: string }>(
  collection: Collection<T>,
  docs: T[],
): Promise<void> => {
  if (docs.length === 0) return;
  try {
    await collection.insertMany(docs as never[], { ordered: false });
  } catch (error) {
    if (!onlyDuplicateKeys(error)) throw error;
  }
};

/**
 * Versions are stored inside their group as one JSON text, not as arrays: the store walks, copies and
 * encodes every value of a document, so one string per group costs a fraction of 20 arrays of 8
 * values, and JSON.stringify of the arrays is native. A version is the array
 * `[providerId, epoch, offset, deleted (0|1), ...its fields]` (`packFact`); a payment's or credit
 * memo's applications are its last field, `[[invoiceProviderId, amount], ...]`.
 */
export type PackedFact = (string | number | [string, number][])[];

/** The identity of one version: its key's provider id, epoch, offset and whether it is a tombstone. */
export type FactVersion = {
  entity: LedgerEntity;
  sellerId: number;
  providerId: string;
  epoch: number;
  offset: number;
  deleted?: boolean;
};

/** One version as stored in its group. */
export const packFact = (version: FactVersion, fact: FactFields): PackedFact => {
  const { providerId, epoch, offset } = version;
  const deleted = version.deleted ? 1 : 0;
  switch (fact.entity) {
    case 'customers':
      return [providerId, epoch, offset, deleted, fact.customerId, fact.createdDay];
    case 'products':
      return [providerId, epoch, offset, deleted];
    case 'invoices':
      return [
        providerId,
        epoch,
        offset,
        deleted,
        fact.customerId,
        fact.day,
        fact.dueDay,
        fact.amount,
        fact.balance,
      ];
    case 'payments':
    case 'creditMemos':
      return [providerId, epoch, offset, deleted, fact.customerId, fact.day, fact.amount, fact.apps];
  }
};

const versionOf = (fact: FactDoc): FactVersion => ({
  entity: fact.entity,
  sellerId: fact.sellerId,
  providerId: providerIdOf(fact),
  epoch: fact.epoch,
  offset: fact.offset,
  deleted: fact.deleted,
});

/** A stored version back to its fact (plain literals: this runs for every version a recompute reads). */
const unpackFact = (group: Pick<FactGroupDoc, 'sellerId' | 'entity'>, packed: PackedFact): FactDoc => {
  const p = packed as number[];
  const _id = factIdOf(group.entity, group.sellerId, packed[0] as string);
  const { sellerId, entity } = group;
  let fact: FactDoc;
  switch (entity) {
    case 'customers':
      fact = { _id, sellerId, epoch: p[1]!, offset: p[2]!, entity, customerId: p[4]!, createdDay: p[5]! };
      break;
    case 'products':
      fact = { _id, sellerId, epoch: p[1]!, offset: p[2]!, entity };
      break;
    case 'invoices':
      fact = {
        _id,
        sellerId,
        epoch: p[1]!,
        offset: p[2]!,
        entity,
        customerId: p[4]!,
        day: p[5]!,
        dueDay: p[6]!,
        amount: p[7]!,
        balance: p[8]!,
      };
      break;
    case 'payments':
    case 'creditMemos':
      fact = {
        _id,
        sellerId,
        epoch: p[1]!,
        offset: p[2]!,
        entity,
        customerId: p[4]!,
        day: p[5]!,
        amount: p[6]!,
        apps: packed[7] as [string, number][],
      };
      break;
  }
  if (p[3] === 1) fact.deleted = true;
  return fact;
};

/** The versions of a group. */
const packedOf = (group: Pick<FactGroupDoc, 'facts'>): PackedFact[] =>
  JSON.parse(group.facts) as PackedFact[];

/**
 * The stored form (docs/adr/0041): one document per entity, seller and applied batch, holding the
 * fact versions the batch brought, not one document per record (each stored document costs about
 * 10 us on the embedded store, whatever its size). `_id` names the content: entity, seller, first and
 * last offset, and a hash of the versions. A seller's records of one entity all live on one
 * partition, so a redelivered batch, whoever delivers it, gives the same id for the same offsets and
 * its insert is skipped; a batch cut at other offsets is another group with overlapping versions,
 * which the read resolves newest-wins. The recompute folds a seller's groups into compacted ones
 * (`compactSellerFacts`) when they hold many repeats or many small groups.
 */
export type FactGroupDoc = {
  _id: string;
  sellerId: number;
  entity: LedgerEntity;
  /** The newest epoch among its facts: a group entirely of older epochs is dropped whole. */
  epoch: number;
  /** Its versions (`packFact`), as JSON text. */
  facts: string;
};

type GroupDraft = {
  sellerId: number;
  entity: LedgerEntity;
  first: number;
  last: number;
  epoch: number;
  hash: number;
  facts: PackedFact[];
};

const FNV_PRIME = 0x01000193;

/**
 * Collects versions into groups, one per entity and seller, in the order added. Each group's id is
 * `<name>:<seller>:<first offset>-<last offset>:<hash>`, the hash (FNV-1a) over its versions' provider
 * ids, epochs and offsets: two groups of one id hold the same versions (a version is its key, epoch
 * and offset: one offset of one partition is one record).
 */
export const factGroups = (name: (entity: LedgerEntity) => string = (entity) => entity) => {
  const drafts = new Map<LedgerEntity, Map<number, GroupDraft>>();
  return {
    add: (version: FactVersion, fields: FactFields) => {
      const { entity, sellerId, epoch, offset } = version;
      let ofEntity = drafts.get(entity);
      if (!ofEntity) drafts.set(entity, (ofEntity = new Map<number, GroupDraft>()));
      let draft = ofEntity.get(sellerId);
      if (!draft) {
        draft = { sellerId, entity, first: Infinity, last: -Infinity, epoch: 0, hash: 0x811c9dc5, facts: [] };
        ofEntity.set(sellerId, draft);
      }
      const { providerId } = version;
      let hash = draft.hash;
      for (let i = 0; i < providerId.length; i += 1)
        hash = Math.imul(hash ^ providerId.charCodeAt(i), FNV_PRIME);
      hash = Math.imul(hash ^ epoch, FNV_PRIME);
      hash = Math.imul(hash ^ (offset % 0x100000000), FNV_PRIME);
      draft.hash = Math.imul(hash ^ Math.floor(offset / 0x100000000), FNV_PRIME);
      if (offset < draft.first) draft.first = offset;
      if (offset > draft.last) draft.last = offset;
      if (epoch > draft.epoch) draft.epoch = epoch;
      draft.facts.push(packFact(version, fields));
    },
    build: (): FactGroupDoc[] => {
      const groups: FactGroupDoc[] = [];
      for (const ofEntity of drafts.values())
        for (const draft of ofEntity.values())
          groups.push({
            _id: `${name(draft.entity)}:${draft.sellerId}:${draft.first}-${draft.last}:${(draft.hash >>> 0).toString(36)}`,
            sellerId: draft.sellerId,
            entity: draft.entity,
            epoch: draft.epoch,
            facts: JSON.stringify(draft.facts),
          });
      return groups;
    },
  };
};

const groupOf = (name: string, facts: readonly FactDoc[]): FactGroupDoc => {
  const groups = factGroups(() => name);
  for (const fact of facts) groups.add(versionOf(fact), fact);
  return groups.build()[0]!;
};

const isNewer = (fact: FactDoc, stored: Pick<FactDoc, 'epoch' | 'offset'>) =>
  fact.epoch > stored.epoch || (fact.epoch === stored.epoch && fact.offset > stored.offset);

/**
 * Applies fact versions (normally one partition batch of one topic): grouped by entity and seller,
 * each group one document, inserted without reading anything. A stored id is the same group
 * delivered again (a redelivery after a kill, a rebalance's late batch) and is skipped. Which
 * version of a key counts is decided when the facts are read (`sellerFactVersions`): the highest
 * epoch, then the latest offset, so a late older version or a repeat changes no figure.
 */
export const applyFacts = async (db: Db, facts: FactDoc[]): Promise<void> => {
  const groups = factGroups();
  for (const fact of facts) groups.add(versionOf(fact), fact);
  await insertFactGroups(db, groups.build());
};

/** Inserts groups as built by `factGroups`; a stored id is the same group, skipped. */
export const insertFactGroups = (db: Db, groups: FactGroupDoc[]): Promise<void> =>
  insertIdempotent(db.collection<FactGroupDoc>(ANALYTICS_FACTS), groups);

/** What a seller's stored groups hold: every group read, and the newest version of each key. */
export type SellerFactsRead = { groups: FactGroupDoc[]; versions: number; latest: FactDoc[] };

export const readSellerFacts = async (db: Db, sellerId: number): Promise<SellerFactsRead> => {
  const groups = await db.collection<FactGroupDoc>(ANALYTICS_FACTS).find({ sellerId }).toArray();
  const latest = new Map<string, FactDoc>();
  let versions = 0;
  for (const group of groups)
    for (const packed of packedOf(group)) {
      versions += 1;
      const fact = unpackFact(group, packed);
      const before = latest.get(fact._id);
      if (!before || isNewer(fact, before)) latest.set(fact._id, fact);
    }
  return { groups, versions, latest: [...latest.values()] };
};

/** The newest version of each of a seller's facts, tombstones included. */
export const sellerFactVersions = async (db: Db, sellerId: number): Promise<FactDoc[]> =>
  (await readSellerFacts(db, sellerId)).latest;

/** A seller's facts: the newest version of each record, deleted records left out. */
export const liveFactsOf = (read: SellerFactsRead): FactDoc[] =>
  read.latest.filter((fact) => fact.deleted !== true);

export const sellerFacts = async (db: Db, sellerId: number): Promise<FactDoc[]> =>
  liveFactsOf(await readSellerFacts(db, sellerId));

/** Distinct records (keys) and stored versions over all sellers (tests and benchmarks). */
export const countFacts = async (db: Db): Promise<{ records: number; versions: number }> => {
  const keys = new Set<string>();
  let versions = 0;
  for await (const group of db.collection<FactGroupDoc>(ANALYTICS_FACTS).find({}))
    for (const packed of packedOf(group)) {
      versions += 1;
      keys.add(`${group.entity}:${group.sellerId}:${String(packed[0])}`);
    }
  return { records: keys.size, versions };
};

/** Groups made only of epochs a repopulate replaced. */
export const dropOlderEpochs = async (db: Db, sellerId: number, epoch: number): Promise<void> => {
  await db.collection<FactGroupDoc>(ANALYTICS_FACTS).deleteMany({ sellerId, epoch: { $lt: epoch } });
};

/** Facts per compacted group: well within a document's size on every store. */
export const COMPACT_GROUP_FACTS = 5_000;

/**
 * Folds a seller's groups (as `read` found them) into compacted ones when they hold many repeats (a
 * quarter more versions than records) or many more groups than compaction would leave: the newest
 * version of each key from `epoch` on, tombstones kept (a late older version must still lose to
 * them), written first, and only then exactly the groups read are deleted. Groups written meanwhile
 * stay; a compaction killed in between leaves repeats, which the read resolves. Returns whether it
 * compacted.
 */
export const compactSellerFacts = async (
  db: Db,
  { read, epoch }: { read: SellerFactsRead; epoch: number },
): Promise<boolean> => {
  const kept = read.latest.filter((fact) => fact.epoch >= epoch);
  const byEntity = new Map<LedgerEntity, FactDoc[]>();
  for (const fact of kept) {
    const list = byEntity.get(fact.entity);
    if (list) list.push(fact);
    else byEntity.set(fact.entity, [fact]);
  }
  const pieces = [...byEntity.values()].reduce(
    (sum, list) => sum + Math.ceil(list.length / COMPACT_GROUP_FACTS),
    0,
  );
  const manyRepeats = read.versions > kept.length * 1.25;
  const manyGroups = read.groups.length > pieces * 2 + 16;
  if (!manyRepeats && !manyGroups) return false;
  const compacted: FactGroupDoc[] = [];
  for (const [entity, list] of byEntity)
    for (let at = 0; at < list.length; at += COMPACT_GROUP_FACTS)
      compacted.push(groupOf(`c.${entity}`, list.slice(at, at + COMPACT_GROUP_FACTS)));
  const collection = db.collection<FactGroupDoc>(ANALYTICS_FACTS);
  await insertIdempotent(collection, compacted);
  const written = new Set(compacted.map((group) => group._id));
  const stale = read.groups.map((group) => group._id).filter((id) => !written.has(id));
  if (stale.length > 0) await collection.deleteMany({ _id: { $in: stale } });
  return true;
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
