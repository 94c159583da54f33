import { createHash } from 'node:crypto';
import { MongoBulkWriteError, type Collection, type Db, type WriteError } from 'mongodb';
import type { LedgerEntity, LedgerPage } from '../../contracts/ledger';
import { ledgerCollections, ledgerDocId, ledgerEntities, type LedgerDoc } from './ledger-collections';
import { outboxEntriesOf, writeOutboxEntries } from './ledger-outbox';

export type LedgerWriteContext = {
  db: Db;
  tenantId: number;
  epoch: number;
  now: Date;
  /**
   * Whether records may already be stored: then unchanged ones are skipped (one read per entity and
   * page). A populate into an empty ledger skips the read; a record it resumed over is replaced.
   */
  compare: boolean;
};

type AnyLedgerDoc = LedgerDoc<LedgerEntity>;

const digest = (record: object) => createHash('sha1').update(JSON.stringify(record)).digest('base64url');

const DUPLICATE_KEY = 11000;

const replaceAll = async (collection: Collection<AnyLedgerDoc>, docs: AnyLedgerDoc[]) => {
  if (docs.length === 0) return;
  await collection.bulkWrite(
    docs.map((doc) => ({
      replaceOne: { filter: { _id: doc._id } as never, replacement: doc, upsert: true },
    })),
    { ordered: false },
  );
};

/**
 * Inserts in one round trip; rows that exist already (a page rewritten after a crash) are replaced
 * one by one. Inserting first matters on the local FerretDB, where a replace by _id scans the table.
 */
const insertOrReplace = async (collection: Collection<AnyLedgerDoc>, docs: AnyLedgerDoc[]) => {
  try {
    await collection.insertMany(docs, { ordered: false });
  } catch (error) {
    if (!(error instanceof MongoBulkWriteError)) throw error;
    const failures: readonly WriteError[] = ([] as WriteError[]).concat(error.writeErrors);
    if (failures.some((failure) => failure.code !== DUPLICATE_KEY)) throw error;
    await replaceAll(
      collection,
      failures.map((failure) => docs[failure.index]).filter((doc) => doc !== undefined),
    );
  }
};

const changedDocs = async (
  context: LedgerWriteContext,
  entity: LedgerEntity,
  records: LedgerPage[LedgerEntity],
): Promise<{ fresh: AnyLedgerDoc[]; changed: AnyLedgerDoc[] }> => {
  const docs: AnyLedgerDoc[] = records.map((record) => ({
    ...record,
    _id: ledgerDocId(record.sellerId, record.providerId),
    tenantId: context.tenantId,
    epoch: context.epoch,
    hash: digest(record),
    changedAt: context.now,
  }));
  if (!context.compare || docs.length === 0) return { fresh: docs, changed: [] };
  const stored = await context.db
    .collection<AnyLedgerDoc>(ledgerCollections[entity])
    .find({ _id: { $in: docs.map((d) => d._id) } } as never, { projection: { hash: 1, epoch: 1 } })
    .toArray();
  const known = new Map(stored.map((d) => [String(d._id), `${d.epoch}:${d.hash}`]));
  return {
    fresh: docs.filter((d) => !known.has(d._id)),
    changed: docs.filter((d) => known.has(d._id) && known.get(d._id) !== `${d.epoch}:${d.hash}`),
  };
};

/**
 * Writes one connector page keyed by (sellerId, provider id), unchanged records skipped: writing the
 * same page twice leaves the same rows, so a resumed sync duplicates nothing. The page's feed records
 * go to the outbox first, then the rows: a crash in between republishes them on the page's rewrite
 * (same record ids), never loses them.
 */
export const writeLedgerPage = async (context: LedgerWriteContext, page: LedgerPage): Promise<number> => {
  const writes: { entity: LedgerEntity; fresh: AnyLedgerDoc[]; changed: AnyLedgerDoc[] }[] = [];
  for (const entity of ledgerEntities)
    writes.push({ entity, ...(await changedDocs(context, entity, page[entity])) });
  const sellerId = ledgerEntities
    .map((entity): { sellerId: number } | undefined => page[entity][0])
    .find((record) => record !== undefined)?.sellerId;
  if (sellerId === undefined) return 0;
  await writeOutboxEntries(
    context.db,
    outboxEntriesOf(
      sellerId,
      writes.map((w) => ({ entity: w.entity, docs: [...w.fresh, ...w.changed] })),
    ),
  );
  let written = 0;
  for (const { entity, fresh, changed } of writes) {
    const collection = context.db.collection<AnyLedgerDoc>(ledgerCollections[entity]);
    if (fresh.length > 0) await insertOrReplace(collection, fresh);
    await replaceAll(collection, changed);
    written += fresh.length + changed.length;
  }
  return written;
};

/** Repopulate starts from nothing: every ledger record of the seller goes. */
export const deleteSellerLedger = async (db: Db, sellerId: number): Promise<void> => {
  for (const entity of ledgerEntities)
    await db.collection(ledgerCollections[entity]).deleteMany({ sellerId });
};
