import { createHash } from 'node:crypto';
import type { AnyBulkWriteOperation, Db } from 'mongodb';
import type { LedgerEntity, LedgerPage } from '../../contracts/ledger';
import { ledgerCollections, ledgerDocId, ledgerEntities, type LedgerDoc } from './ledger-collections';

export type LedgerWriteContext = {
  db: Db;
  tenantId: number;
  epoch: number;
  now: Date;
  /**
   * Whether records may already be stored: then unchanged ones are skipped (one read per page). A
   * populate into an empty ledger skips the read; rewriting a record it resumed over is harmless.
   */
  compare: boolean;
};

const digest = (record: object) => createHash('sha1').update(JSON.stringify(record)).digest('base64url');

const writeEntity = async <E extends LedgerEntity>(
  context: LedgerWriteContext,
  entity: E,
  records: LedgerPage[E],
): Promise<number> => {
  if (records.length === 0) return 0;
  const collection = context.db.collection<LedgerDoc<E>>(ledgerCollections[entity]);
  const docs = records.map((record) => ({
    ...record,
    _id: ledgerDocId(record.sellerId, record.providerId),
    tenantId: context.tenantId,
    epoch: context.epoch,
    hash: digest(record),
    changedAt: context.now,
    outboxPending: true,
  }));
  let changed = docs;
  if (context.compare) {
    const stored = await collection
      .find({ _id: { $in: docs.map((d) => d._id) } } as never, { projection: { hash: 1, epoch: 1 } })
      .toArray();
    const known = new Map(stored.map((d) => [String(d._id), `${d.epoch}:${d.hash}`]));
    changed = docs.filter((d) => known.get(d._id) !== `${d.epoch}:${d.hash}`);
  }
  if (changed.length === 0) return 0;
  const operations = changed.map((doc): AnyBulkWriteOperation<LedgerDoc<E>> => ({
    replaceOne: { filter: { _id: doc._id } as never, replacement: doc, upsert: true },
  }));
  await collection.bulkWrite(operations, { ordered: false });
  return changed.length;
};

/**
 * Upserts one connector page, each record with its outbox mark, keyed by (sellerId, provider id):
 * writing the same page twice leaves the same documents, so a resumed sync duplicates nothing.
 */
export const writeLedgerPage = async (context: LedgerWriteContext, page: LedgerPage): Promise<number> => {
  let written = 0;
  for (const entity of ledgerEntities) written += await writeEntity(context, entity, page[entity]);
  return written;
};

/** Repopulate starts from nothing: every ledger record of the seller goes. */
export const deleteSellerLedger = async (db: Db, sellerId: number): Promise<void> => {
  for (const entity of ledgerEntities)
    await db.collection(ledgerCollections[entity]).deleteMany({ sellerId });
};
