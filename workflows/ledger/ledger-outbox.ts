import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { deflateRaw, inflateRawSync } from 'node:zlib';
import { Binary, type Db } from 'mongodb';
import type { LedgerEntity } from '../../contracts/ledger';
import { ledgerRecordIdOf, type LedgerFeedRecord } from '../../contracts/kafka/ledger-records';
import type { LedgerDoc } from './ledger-collections';

/**
 * The ledger's outbox (docs/kafka-topics.md): one entry per written page, holding the feed records of
 * what the page changed, serialized. Entries are inserted before the ledger rows and deleted by the
 * publisher once Kafka acknowledged them. One entry per page (not a flag per row) because the local
 * FerretDB answers every query by scanning: a flag per row would cost a scan of the ledger per row.
 */
export const LEDGER_OUTBOX = 'ledger_outbox';

export type LedgerOutboxEntry = {
  _id: string;
  sellerId: number;
  createdAt: Date;
  /**
   * 'deflate-raw': `records` and `recordIds` are raw-deflated bytes. FerretDB reads (parses) every
   * entry on each lookup and delete, even by _id, so the outbox is kept about ten times smaller.
   * Absent on entries written before: `records` plain bytes, `recordIds` plain strings.
   */
  encoding?: 'deflate-raw';
  /**
   * Set when the sync that wrote the entry sends it itself: the publisher leaves it alone until then,
   * and sends it only if the sync died or could not (docs/kafka-topics.md). Absent: the publisher's.
   */
  sendAfter?: Date;
  /** Per entity, the JSON of each LedgerFeedRecord in write order, one per line. */
  records: Partial<Record<LedgerEntity, Binary>>;
  /**
   * Entries written before 'deflate-raw' only: the record ids, one per line in the same order. Since,
   * each id is read from the start of its record's JSON (a third of the bytes saved).
   */
  recordIds?: Partial<Record<LedgerEntity, Binary | string>>;
};

const deflate = promisify(deflateRaw);

const textOf = (entry: LedgerOutboxEntry, value: Binary | string | undefined): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  const bytes = Buffer.from(value.buffer);
  return (entry.encoding === 'deflate-raw' ? inflateRawSync(bytes) : bytes).toString('utf8');
};

/**
 * The feed lines of entries made in this process, before packing: the sync sends the entries it just
 * wrote, and reads their lines from here instead of inflating what it deflated a moment before.
 * Entries read back from the store are other objects, and are inflated.
 */
const linesOfMadeEntries = new WeakMap<LedgerOutboxEntry, Partial<Record<LedgerEntity, string[]>>>();

/** JSON.stringify escapes newlines inside strings, so a newline always separates two records. */
export const outboxValuesOf = (entry: LedgerOutboxEntry, entity: LedgerEntity): string[] =>
  linesOfMadeEntries.get(entry)?.[entity] ?? textOf(entry, entry.records[entity])?.split('\n') ?? [];

const ID_START = '{"schemaVersion":1,"recordId":'.length;

/**
 * The recordId of a feed line as feedLine writes it: the JSON string between the fixed start and
 * `,"entity":`, which cannot occur inside a JSON string (its quotes are escaped).
 */
export const recordIdOfLine = (line: string): string =>
  JSON.parse(line.slice(ID_START, line.indexOf(',"entity":', ID_START))) as string;

export const outboxRecordIdsOf = (entry: LedgerOutboxEntry, entity: LedgerEntity): string[] => {
  const listed = textOf(entry, entry.recordIds?.[entity]);
  return listed !== undefined ? listed.split('\n') : outboxValuesOf(entry, entity).map(recordIdOfLine);
};

/** Every record id an entry holds, all entities. */
export const outboxEntryRecordIds = (entry: LedgerOutboxEntry): string[] =>
  (Object.keys(entry.records) as LedgerEntity[]).flatMap((entity) => outboxRecordIdsOf(entry, entity));

/** Keeps an entry well under the 16 MB document limit (a DEMO record is under 1 kB of JSON). */
const MAX_RECORDS_PER_ENTRY = 5000;

/** A stored row with the JSON of its record (the fields the provider gave), as its hash digested it. */
export type SerializedLedgerDoc = { doc: LedgerDoc<LedgerEntity>; recordJson: string };

export const toFeedRecord = (entity: LedgerEntity, doc: LedgerDoc<LedgerEntity>): LedgerFeedRecord => {
  const { _id, tenantId, epoch, hash, changedAt, ...record } = doc;
  void _id;
  return {
    schemaVersion: 1,
    recordId: ledgerRecordIdOf({ entity, sellerId: doc.sellerId, providerId: doc.providerId, epoch, hash }),
    entity,
    sellerId: doc.sellerId,
    tenantId,
    providerId: doc.providerId,
    epoch,
    changedAt: changedAt.toISOString(),
    // Dates become ISO strings through JSON.
    record: JSON.parse(JSON.stringify(record)) as LedgerFeedRecord['record'],
  };
};

const recordIdOfDoc = (entity: LedgerEntity, doc: LedgerDoc<LedgerEntity>) =>
  ledgerRecordIdOf({
    entity,
    sellerId: doc.sellerId,
    providerId: doc.providerId,
    epoch: doc.epoch,
    hash: doc.hash,
  });

/**
 * The JSON of toFeedRecord(entity, doc), character for character, around the record's JSON that was
 * already made for its hash: serializing each record once instead of three times.
 */
export const feedRecordJson = (entity: LedgerEntity, { doc, recordJson }: SerializedLedgerDoc) =>
  `{"schemaVersion":1,"recordId":${JSON.stringify(recordIdOfDoc(entity, doc))},` +
  `"entity":${JSON.stringify(entity)},"sellerId":${doc.sellerId},"tenantId":${doc.tenantId},` +
  `"providerId":${JSON.stringify(doc.providerId)},"epoch":${doc.epoch},` +
  `"changedAt":${JSON.stringify(doc.changedAt)},"record":${recordJson}}`;

/** The recordId of a tombstone: one per deleted record and epoch, so a redelivery dedupes. */
export const tombstoneRecordIdOf = (parts: {
  entity: LedgerEntity;
  sellerId: number;
  providerId: string;
  epoch: number;
}) => `${parts.entity}:${parts.sellerId}:${parts.providerId}:${parts.epoch}:deleted`;

/** The feed line of a deleted record (same leading fields as feedRecordJson, so its id reads the same). */
export const tombstoneJson = (
  entity: LedgerEntity,
  gone: { sellerId: number; tenantId: number; providerId: string; epoch: number; changedAt: Date },
) =>
  `{"schemaVersion":1,"recordId":${JSON.stringify(tombstoneRecordIdOf({ entity, ...gone }))},` +
  `"entity":${JSON.stringify(entity)},"sellerId":${gone.sellerId},"tenantId":${gone.tenantId},` +
  `"providerId":${JSON.stringify(gone.providerId)},"epoch":${gone.epoch},` +
  `"changedAt":${JSON.stringify(gone.changedAt)},"deleted":true,"record":{}}`;

/** Level 1: about 7x smaller at a third of the default level's time. */
const packed = async (lines: string[]) =>
  new Binary(await deflate(Buffer.from(lines.join('\n')), { level: 1 }));

/**
 * The outbox entries of one page's changed rows and tombstones (tombstoneJson lines), split so that
 * none grows too large.
 */
export const outboxEntriesOf = async (
  sellerId: number,
  changed: { entity: LedgerEntity; docs: SerializedLedgerDoc[]; tombstones?: string[] }[],
  options: { sendAfter?: Date } = {},
): Promise<LedgerOutboxEntry[]> => {
  const all = changed.flatMap(({ entity, docs, tombstones = [] }) => [
    ...docs.map((doc) => ({ entity, line: () => feedRecordJson(entity, doc) })),
    ...tombstones.map((line) => ({ entity, line: () => line })),
  ]);
  const entries: LedgerOutboxEntry[] = [];
  for (let start = 0; start < all.length; start += MAX_RECORDS_PER_ENTRY) {
    const chunk = all.slice(start, start + MAX_RECORDS_PER_ENTRY);
    const entry: LedgerOutboxEntry = {
      _id: `${sellerId}:${randomUUID()}`,
      sellerId,
      createdAt: new Date(),
      encoding: 'deflate-raw',
      ...(options.sendAfter ? { sendAfter: options.sendAfter } : {}),
      records: {},
    };
    const lines: Partial<Record<LedgerEntity, string[]>> = {};
    for (const entity of new Set(chunk.map((r) => r.entity))) {
      lines[entity] = chunk.filter((r) => r.entity === entity).map((r) => r.line());
      entry.records[entity] = await packed(lines[entity]);
    }
    linesOfMadeEntries.set(entry, lines);
    entries.push(entry);
  }
  return entries;
};

export const writeOutboxEntries = async (db: Db, entries: LedgerOutboxEntry[]): Promise<void> => {
  if (entries.length > 0)
    await db.collection<LedgerOutboxEntry>(LEDGER_OUTBOX).insertMany(entries, { ordered: true });
};

/** Records waiting for Kafka (reads every entry: for tests, benchmarks and health, not hot paths). */
export const pendingOutboxRecords = async (db: Db): Promise<number> => {
  let pending = 0;
  for await (const entry of db.collection<LedgerOutboxEntry>(LEDGER_OUTBOX).find({}))
    pending += outboxEntryRecordIds(entry).length;
  return pending;
};
