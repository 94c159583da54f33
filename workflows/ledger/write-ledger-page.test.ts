import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from 'mongodb';
import { EmbeddedDb } from '../../projections/read-store/embedded/embedded-db';
import { fetchDemoPage } from '../demo/demo-connector';
import { ensureLedgerIndexes, ledgerCollections, ledgerEntities } from './ledger-collections';
import { LEDGER_OUTBOX, outboxEntryRecordIds, toFeedRecord, type LedgerOutboxEntry } from './ledger-outbox';
import {
  commitLedgerPage,
  isMergeable,
  mergePreparedPages,
  prepareLedgerPage,
  type LedgerWriteContext,
} from './write-ledger-page';

const profile = { seed: 11, startDate: '2022-01-01', invoicesPerYear: 400 };
const until = new Date('2024-06-30T12:00:00.000Z');

/** The first `count` pages of a DEMO company of seller 5. */
const demoPages = (count: number) => {
  const pages = [];
  let cursor: string | null = null;
  do {
    const fetched = fetchDemoPage(profile, { sellerId: 5, since: null, until, cursor, pageSize: 60 });
    pages.push(fetched.page);
    cursor = fetched.nextCursor;
  } while (cursor !== null && pages.length < count);
  return pages;
};

/** Every stored ledger row of the store, by entity, without the write time. */
const storedRows = async (db: Db) => {
  const rows: Record<string, unknown[]> = {};
  for (const entity of ledgerEntities)
    rows[entity] = (await db.collection(ledgerCollections[entity]).find({}).sort({ _id: 1 }).toArray()).map(
      ({ changedAt, ...row }) => (void changedAt, row),
    );
  return rows;
};

describe('pages of a populate written as one group', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-groups-'));
  const stores: EmbeddedDb[] = [];
  const openDb = async (name: string) => {
    const store = new EmbeddedDb({ path: join(dir, `${name}.sqlite`) });
    stores.push(store);
    const db = store as unknown as Db;
    await ensureLedgerIndexes(db);
    return db;
  };
  const contextOf = (db: Db, compare = false): LedgerWriteContext => ({
    db,
    tenantId: 3,
    epoch: 9,
    now: new Date('2024-07-01T08:00:00.000Z'),
    compare,
  });

  afterAll(() => {
    for (const store of stores) store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('store the same rows and outbox records as the pages written one by one', async () => {
    const pages = demoPages(4);
    expect(pages.length).toBe(4);

    const oneByOne = await openDb('one-by-one');
    let writtenOneByOne = 0;
    for (const page of pages) {
      const prepared = await prepareLedgerPage(contextOf(oneByOne), page);
      writtenOneByOne += (await commitLedgerPage(contextOf(oneByOne), prepared)).written;
    }

    const grouped = await openDb('grouped');
    const prepared = [];
    for (const page of pages) prepared.push(await prepareLedgerPage(contextOf(grouped), page));
    expect(prepared.every(isMergeable)).toBe(true);
    const committed = await commitLedgerPage(contextOf(grouped), mergePreparedPages(prepared));

    expect(committed.written).toBe(writtenOneByOne);
    expect(committed.written).toBe(
      pages.reduce((n, p) => n + ledgerEntities.reduce((m, e) => m + p[e].length, 0), 0),
    );
    const rows = await storedRows(grouped);
    expect(rows).toEqual(await storedRows(oneByOne));
    // The group's outbox entries are every page's, in page order, and name every stored row.
    expect(committed.entries).toEqual(prepared.flatMap((p) => p.entries));
    const outbox = await grouped.collection<LedgerOutboxEntry>(LEDGER_OUTBOX).find({}).toArray();
    const ids = new Set(outbox.flatMap(outboxEntryRecordIds));
    const storedIds = new Set<string>();
    for (const entity of ledgerEntities)
      for (const doc of await grouped.collection(ledgerCollections[entity]).find({}).toArray())
        storedIds.add(toFeedRecord(entity, doc as never).recordId);
    expect(ids).toEqual(storedIds);
  });

  it('never take a page that compares with stored rows or deletes some', async () => {
    const db = await openDb('refused');
    const [first, second] = demoPages(2);
    const populate = await prepareLedgerPage(contextOf(db), first!);
    const comparing = await prepareLedgerPage(contextOf(db, true), second!);
    const deleting = await prepareLedgerPage(contextOf(db), {
      ...second!,
      deletions: [{ entity: 'invoices', sellerId: 5, providerId: second!.invoices[0]!.providerId }],
    });
    expect(isMergeable(comparing)).toBe(false);
    expect(isMergeable(deleting)).toBe(false);
    expect(() => mergePreparedPages([populate, comparing])).toThrow(/Only pages/);
    expect(() => mergePreparedPages([populate, deleting])).toThrow(/Only pages/);
  });
});
