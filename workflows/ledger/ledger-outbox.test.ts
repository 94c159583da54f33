import { Binary } from 'mongodb';
import { fetchDemoPage } from '../demo/demo-connector';
import { ledgerEntities } from './ledger-collections';
import {
  feedRecordJson,
  outboxEntriesOf,
  outboxEntryRecordIds,
  outboxRecordIdsOf,
  outboxValuesOf,
  toFeedRecord,
  tombstoneJson,
  type LedgerOutboxEntry,
} from './ledger-outbox';
import { LedgerFeedRecord } from '../../contracts/kafka/ledger-records';
import { serializedDocsOf } from './write-ledger-page';

const page = fetchDemoPage(
  { seed: 3, startDate: '2022-01-01', invoicesPerYear: 3000 },
  { sellerId: 12, since: null, until: new Date('2024-06-30T12:00:00.000Z'), cursor: null, pageSize: 12_000 },
).page;
const context = { tenantId: 4, epoch: 77, now: new Date('2024-07-01T08:30:00.000Z') };
const changed = ledgerEntities.map((entity) => ({ entity, docs: serializedDocsOf(context, page[entity]) }));

describe('the ledger outbox entries', () => {
  it('carry a deleted record as a tombstone after the page’s rows, its id read like any other', async () => {
    const line = tombstoneJson('invoices', {
      sellerId: 12,
      tenantId: 4,
      providerId: 'INV:7"x',
      epoch: 77,
      changedAt: context.now,
    });
    expect(LedgerFeedRecord.parse(JSON.parse(line))).toEqual({
      schemaVersion: 1,
      recordId: 'invoices:12:INV:7"x:77:deleted',
      entity: 'invoices',
      sellerId: 12,
      tenantId: 4,
      providerId: 'INV:7"x',
      epoch: 77,
      changedAt: context.now.toISOString(),
      deleted: true,
      record: {},
    });
    const invoices = changed.find((c) => c.entity === 'invoices')!.docs.slice(0, 3);
    const [entry] = await outboxEntriesOf(12, [{ entity: 'invoices', docs: invoices, tombstones: [line] }]);
    expect(outboxRecordIdsOf(entry!, 'invoices')).toEqual([
      ...invoices.map((d) => toFeedRecord('invoices', d.doc).recordId),
      'invoices:12:INV:7"x:77:deleted',
    ]);
  });

  it('hold each feed record exactly as toFeedRecord serializes it', () => {
    for (const { entity, docs } of changed) {
      expect(docs.length).toBeGreaterThan(0);
      for (const doc of docs)
        expect(feedRecordJson(entity, doc)).toBe(JSON.stringify(toFeedRecord(entity, doc.doc)));
    }
  });

  it('give back every record and id in write order, split into entries of at most 5000 records', async () => {
    const made = await outboxEntriesOf(12, changed);
    expect(made.length).toBeGreaterThan(1);
    // As made (their lines kept in this process) and as read back from the store (inflated).
    for (const entries of [made, made.map((entry) => ({ ...entry }))])
      for (const { entity, docs } of changed) {
        const values = entries.flatMap((entry) => outboxValuesOf(entry, entity));
        expect(values.map((v) => JSON.parse(v) as unknown)).toEqual(
          docs.map((d) => JSON.parse(JSON.stringify(toFeedRecord(entity, d.doc))) as unknown),
        );
        expect(entries.flatMap((entry) => outboxRecordIdsOf(entry, entity))).toEqual(
          docs.map((d) => toFeedRecord(entity, d.doc).recordId),
        );
      }
    const entries = made;
    for (const entry of entries) expect(outboxEntryRecordIds(entry).length).toBeLessThanOrEqual(5000);
    // Compressed: the entries are a fraction of the JSON they carry.
    const stored = entries.reduce(
      (n, e) => n + Object.values(e.records).reduce((m, b) => m + (b?.length() ?? 0), 0),
      0,
    );
    const json = changed.reduce(
      (n, c) => n + c.docs.reduce((m, d) => m + feedRecordJson(c.entity, d).length, 0),
      0,
    );
    expect(stored).toBeLessThan(json / 4);
  });

  it('read each record id back from its JSON, whatever characters the provider id holds', async () => {
    const [invoice] = page.invoices;
    const tricky = serializedDocsOf(context, [
      { ...invoice!, providerId: 'a","entity":"x\\' },
      { ...invoice!, providerId: 'b\\","entity":\n' },
    ]);
    const [entry] = await outboxEntriesOf(12, [{ entity: 'invoices', docs: tricky }]);
    expect(outboxRecordIdsOf(entry!, 'invoices')).toEqual(
      tricky.map((d) => toFeedRecord('invoices', d.doc).recordId),
    );
  });

  it('still read entries written before compression (plain bytes and id strings)', () => {
    const legacy: LedgerOutboxEntry = {
      _id: '12:legacy',
      sellerId: 12,
      createdAt: new Date(),
      records: { invoices: new Binary(Buffer.from('{"a":1}\n{"b":2}')) },
      recordIds: { invoices: 'invoices:12:A:1:x\ninvoices:12:B:1:y' },
    };
    expect(outboxValuesOf(legacy, 'invoices')).toEqual(['{"a":1}', '{"b":2}']);
    expect(outboxEntryRecordIds(legacy)).toEqual(['invoices:12:A:1:x', 'invoices:12:B:1:y']);
    expect(outboxValuesOf(legacy, 'payments')).toEqual([]);
  });
});
