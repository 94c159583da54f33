import { randomUUID } from 'node:crypto';
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
   * Per entity, the JSON of each LedgerFeedRecord in write order, one per line, as bytes: FerretDB
   * keeps bytes as one base64 string, which it parses far faster than thousands of escaped strings.
   */
  records: Partial<Record<LedgerEntity, Binary>>;
  /** Their record ids, one per line in the same order (message headers, without parsing the JSON). */
  recordIds: Partial<Record<LedgerEntity, string>>;
};

/** JSON.stringify escapes newlines inside strings, so a newline always separates two records. */
export const outboxValuesOf = (entry: LedgerOutboxEntry, entity: LedgerEntity): string[] => {
  const bytes = entry.records[entity];
  return bytes ? bytes.toString('utf8').split('\n') : [];
};

export const outboxRecordIdsOf = (entry: LedgerOutboxEntry, entity: LedgerEntity): string[] =>
  entry.recordIds[entity]?.split('\n') ?? [];

/** Keeps an entry well under the 16 MB document limit (a DEMO record is under 1 kB of JSON). */
const MAX_RECORDS_PER_ENTRY = 5000;

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

/** The outbox entries of one page's changed rows, split so that none grows too large. */
export const outboxEntriesOf = (
  sellerId: number,
  changed: { entity: LedgerEntity; docs: LedgerDoc<LedgerEntity>[] }[],
): LedgerOutboxEntry[] => {
  const all = changed.flatMap(({ entity, docs }) => docs.map((doc) => toFeedRecord(entity, doc)));
  const entries: LedgerOutboxEntry[] = [];
  for (let start = 0; start < all.length; start += MAX_RECORDS_PER_ENTRY) {
    const chunk = all.slice(start, start + MAX_RECORDS_PER_ENTRY);
    const entry: LedgerOutboxEntry = {
      _id: `${sellerId}:${randomUUID()}`,
      sellerId,
      createdAt: new Date(),
      records: {},
      recordIds: {},
    };
    for (const entity of new Set(chunk.map((r) => r.entity))) {
      const records = chunk.filter((r) => r.entity === entity);
      entry.records[entity] = new Binary(Buffer.from(records.map((r) => JSON.stringify(r)).join('\n')));
      entry.recordIds[entity] = records.map((r) => r.recordId).join('\n');
    }
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
    for (const ids of Object.values(entry.recordIds)) pending += ids.split('\n').length;
  return pending;
};
