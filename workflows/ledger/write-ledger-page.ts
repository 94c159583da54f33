import { createHash } from 'node:crypto';
import { MongoBulkWriteError, type Collection, type Db, type WriteError } from 'mongodb';
import type { LedgerDeletion, LedgerEntity, LedgerPage } from '../../contracts/ledger';
import { ledgerCollections, ledgerDocId, ledgerEntities, type LedgerDoc } from './ledger-collections';
import {
  outboxEntriesOf,
  tombstoneJson,
  writeOutboxEntries,
  type LedgerOutboxEntry,
  type SerializedLedgerDoc,
} from './ledger-outbox';

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
  /**
   * When the caller sends the page's outbox entries to Kafka itself: until then the publisher leaves
   * them alone (the entries are the fallback if the caller dies first).
   */
  sendAfter?: Date;
};

type AnyLedgerDoc = LedgerDoc<LedgerEntity>;

const digest = (json: string) => createHash('sha1').update(json).digest('base64url');

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

/** The rows of a page's records. One serialization per record: its hash and its feed record use it. */
export const serializedDocsOf = (
  context: Pick<LedgerWriteContext, 'tenantId' | 'epoch' | 'now'>,
  records: LedgerPage[LedgerEntity],
): SerializedLedgerDoc[] =>
  records.map((record) => {
    const recordJson = JSON.stringify(record);
    return {
      recordJson,
      doc: {
        ...record,
        _id: ledgerDocId(record.sellerId, record.providerId),
        tenantId: context.tenantId,
        epoch: context.epoch,
        hash: digest(recordJson),
        changedAt: context.now,
      },
    };
  });

type EntityWrites = {
  entity: LedgerEntity;
  fresh: SerializedLedgerDoc[];
  changed: SerializedLedgerDoc[];
  /** How many of the page's rows were stored already (changed or not); 0 when not compared. */
  stored: number;
};

/** Splits a page's rows into new and changed ones; unchanged stored rows are left out. */
const compareWithStored = async (
  context: LedgerWriteContext,
  entity: LedgerEntity,
  docs: SerializedLedgerDoc[],
): Promise<EntityWrites> => {
  if (!context.compare || docs.length === 0) return { entity, fresh: docs, changed: [], stored: 0 };
  const stored = await context.db
    .collection<AnyLedgerDoc>(ledgerCollections[entity])
    .find({ _id: { $in: docs.map((d) => d.doc._id) } } as never, { projection: { hash: 1, epoch: 1 } })
    .toArray();
  const known = new Map(stored.map((d) => [String(d._id), `${d.epoch}:${d.hash}`]));
  const version = ({ doc }: SerializedLedgerDoc) => `${doc.epoch}:${doc.hash}`;
  return {
    entity,
    stored: known.size,
    fresh: docs.filter((d) => !known.has(d.doc._id)),
    changed: docs.filter((d) => known.has(d.doc._id) && known.get(d.doc._id) !== version(d)),
  };
};

/**
 * A page serialized for writing: its rows, and its outbox entries, already written, when nothing
 * needed comparing.
 */
export type PreparedLedgerPage = {
  sellerId: number | undefined;
  docs: { entity: LedgerEntity; docs: SerializedLedgerDoc[] }[];
  /** Rows to remove (their tombstones go in the outbox first); never also in `docs`. */
  deletions: LedgerDeletion[];
  entries: LedgerOutboxEntry[] | null;
};

/**
 * The first half of writing a page: rows, hashes and compressed outbox entries, and when nothing
 * needs comparing (a populate), the outbox entries written. A sync prepares the next page while the
 * previous one's rows are being written: a page's entries need only be written before its own rows,
 * and entries written early for a page whose rows never come are resent records, never lost ones.
 */
export const prepareLedgerPage = async (
  context: LedgerWriteContext,
  page: LedgerPage,
): Promise<PreparedLedgerPage> => {
  const deletions = page.deletions ?? [];
  // A record the page both writes and deletes is deleted: the deletion is the platform's last word.
  const deleted = new Set(deletions.map((d) => `${d.entity}:${ledgerDocId(d.sellerId, d.providerId)}`));
  const kept = <E extends LedgerEntity>(entity: E): LedgerPage[E] =>
    deleted.size === 0
      ? page[entity]
      : (page[entity].filter(
          (r) => !deleted.has(`${entity}:${ledgerDocId(r.sellerId, r.providerId)}`),
        ) as LedgerPage[E]);
  const docs = ledgerEntities.map((entity) => ({ entity, docs: serializedDocsOf(context, kept(entity)) }));
  const sellerId =
    ledgerEntities
      .map((entity): { sellerId: number } | undefined => page[entity][0])
      .find((record) => record !== undefined)?.sellerId ?? deletions[0]?.sellerId;
  // Tombstones need the stored rows read: written with the rows in commitLedgerPage.
  if (context.compare || sellerId === undefined || deletions.length > 0)
    return { sellerId, docs, deletions, entries: null };
  const entries = await outboxEntriesOf(sellerId, docs, { sendAfter: context.sendAfter });
  await writeOutboxEntries(context.db, entries);
  return { sellerId, docs, deletions, entries };
};

/**
 * Whether a prepared page can be written together with others (mergePreparedPages): its outbox
 * entries are written already (a populate that compares nothing) and it deletes nothing.
 */
export const isMergeable = (prepared: PreparedLedgerPage): boolean =>
  prepared.entries !== null && prepared.deletions.length === 0 && prepared.sellerId !== undefined;

/**
 * Consecutive mergeable pages of one seller as one prepared page: commitLedgerPage then writes their
 * rows in one insert per entity, so one transaction instead of one per page. Each commit of the
 * embedded store writes every index page it dirtied, and the ledger's date, due-date and balance
 * indexes take a page's rows all over their range (the DEMO platform pages customer by customer):
 * a commit of 2,000 records rewrites most of those indexes, 10x more bytes at 1M invoices than at
 * 100k. Ten pages in one commit write each such index page once instead of ten times.
 */
export const mergePreparedPages = (pages: readonly PreparedLedgerPage[]): PreparedLedgerPage => {
  const [first] = pages;
  if (first === undefined) throw new Error('No pages to merge.');
  if (!pages.every((page) => isMergeable(page) && page.sellerId === first.sellerId))
    throw new Error('Only pages of one seller with their outbox entries written can be merged.');
  if (pages.length === 1) return first;
  return {
    sellerId: first.sellerId,
    docs: ledgerEntities.map((entity) => ({
      entity,
      docs: pages.flatMap((page) => page.docs.find((d) => d.entity === entity)?.docs ?? []),
    })),
    deletions: [],
    entries: pages.flatMap((page) => page.entries ?? []),
  };
};

export type CommittedLedgerPage = {
  /** Rows new, changed or removed. */
  written: number;
  /** Rows that were stored already (changed or not); 0 when not compared. */
  alreadyStored: number;
  /** The page's outbox entries, as written. */
  entries: LedgerOutboxEntry[];
};

/**
 * Writes a prepared page keyed by (sellerId, provider id), unchanged records skipped: writing the
 * same page twice leaves the same rows, so a resumed sync duplicates nothing. The page's feed records
 * are in the outbox before the rows (written here unless prepared): a crash in between republishes
 * them on the page's rewrite (same record ids), never loses them.
 */
export const commitLedgerPage = async (
  context: LedgerWriteContext,
  prepared: PreparedLedgerPage,
): Promise<CommittedLedgerPage> => {
  const { sellerId } = prepared;
  if (sellerId === undefined) return { written: 0, alreadyStored: 0, entries: [] };
  const writes: EntityWrites[] = [];
  for (const { entity, docs } of prepared.docs) writes.push(await compareWithStored(context, entity, docs));
  // Only stored rows are removed and tombstoned: a page rewritten after its rows went sends nothing
  // new (its tombstones are in the outbox already, with the same record ids).
  const gone = await storedDeletions(context.db, prepared.deletions);
  let entries = prepared.entries;
  if (entries === null) {
    entries = await outboxEntriesOf(
      sellerId,
      writes.map((w) => ({
        entity: w.entity,
        docs: [...w.fresh, ...w.changed],
        tombstones: (gone.get(w.entity) ?? []).map((row) =>
          tombstoneJson(w.entity, {
            sellerId: row.sellerId,
            tenantId: context.tenantId,
            providerId: row.providerId,
            epoch: context.epoch,
            changedAt: context.now,
          }),
        ),
      })),
      { sendAfter: context.sendAfter },
    );
    await writeOutboxEntries(context.db, entries);
  }
  let written = 0;
  for (const { entity, fresh, changed } of writes) {
    const collection = context.db.collection<AnyLedgerDoc>(ledgerCollections[entity]);
    if (fresh.length > 0)
      await insertOrReplace(
        collection,
        fresh.map((d) => d.doc),
      );
    await replaceAll(
      collection,
      changed.map((d) => d.doc),
    );
    written += fresh.length + changed.length;
  }
  for (const [entity, rows] of gone) {
    await context.db
      .collection<AnyLedgerDoc>(ledgerCollections[entity])
      .deleteMany({ _id: { $in: rows.map((row) => row._id) } });
    written += rows.length;
  }
  const alreadyStored = writes.reduce((n, w) => n + w.stored, 0);
  return { written, alreadyStored, entries };
};

/** The deleted records that are stored, per entity. */
const storedDeletions = async (db: Db, deletions: readonly LedgerDeletion[]) => {
  const gone = new Map<LedgerEntity, { _id: string; sellerId: number; providerId: string }[]>();
  for (const entity of ['invoices', 'payments', 'creditMemos'] as const) {
    const ids = [
      ...new Set(
        deletions.filter((d) => d.entity === entity).map((d) => ledgerDocId(d.sellerId, d.providerId)),
      ),
    ];
    if (ids.length === 0) continue;
    const rows = await db
      .collection<AnyLedgerDoc>(ledgerCollections[entity])
      .find({ _id: { $in: ids } } as never, { projection: { _id: 1, sellerId: 1, providerId: 1 } })
      .toArray();
    if (rows.length > 0)
      gone.set(
        entity,
        rows.map((r) => ({ _id: String(r._id), sellerId: r.sellerId, providerId: r.providerId })),
      );
  }
  return gone;
};

/** Prepares and writes one connector page (see commitLedgerPage); the rows new or changed. */
export const writeLedgerPage = async (context: LedgerWriteContext, page: LedgerPage): Promise<number> =>
  (await commitLedgerPage(context, await prepareLedgerPage(context, page))).written;

/** Repopulate starts from nothing: every ledger record of the seller goes. */
export const deleteSellerLedger = async (db: Db, sellerId: number): Promise<void> => {
  for (const entity of ledgerEntities)
    await db.collection(ledgerCollections[entity]).deleteMany({ sellerId });
};
