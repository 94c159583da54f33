import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectId, type Db, type Document } from 'mongodb';
import type { EmbeddedDb } from '../../projections/read-store/embedded/embedded-db';
import { findWithKeyLookup } from '../../projections/read-store/lookup-by-key';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { isolatedNames, wireMongoUrl } from '../harness/isolation';

/**
 * findWithKeyLookup (the team page's one read: memberships with their users) means the same on both
 * stores: one statement on the embedded store, a find and an `_id: {$in}` query on MongoDB's wire.
 */
type Seen = { collection: string; sql: string; params: unknown[] };
const seen: Seen[] = [];
const stores: [string, () => Promise<ReadStore>][] = [
  [
    'embedded',
    () =>
      openReadStore(
        { DATA_DIR: mkdtempSync(join(tmpdir(), 'lw-lookup-')) },
        { observeStatements: (statement) => seen.push(statement) },
      ),
  ],
  [
    'mongodb wire (FerretDB)',
    () =>
      openReadStore({ DATA_DIR: '.data', MONGO_URL: wireMongoUrl(isolatedNames(__filename).mongoDatabase) }),
  ],
];

describe.each(stores)('findWithKeyLookup: %s', (name, open) => {
  let store: ReadStore;
  let db: Db;
  beforeAll(async () => {
    store = await open();
    db = store.db;
    const people = db.collection<Document>('people');
    await people.insertMany([
      { _id: 1, name: 'Ann', joined: new Date('2026-01-02T03:04:05.678Z') },
      { _id: 2, name: 'Bob' },
      { _id: 'c"3', name: 'Quoted' },
    ] as never[]);
    const links = db.collection<Document>('links');
    await links.createIndex({ team: 1, personId: 1 }, { name: 'team_person' });
    await links.insertMany([
      { _id: 'a', team: 7, personId: 1, role: 'admin', gone: false },
      { _id: 'b', team: 7, personId: 2, role: 'user', gone: false },
      { _id: 'c', team: 7, personId: 404, role: 'user', gone: false },
      { _id: 'd', team: 7, personId: 'c"3', role: 'user', gone: false },
      { _id: 'e', team: 7, personId: 1, role: 'user', gone: true },
      { _id: 'f', team: 8, personId: 2, role: 'admin', gone: false },
    ] as never[]);
  });
  afterAll(async () => {
    await db.dropDatabase();
    await store.close();
    if (store.kind === 'embedded') rmSync(db.databaseName, { force: true });
  });

  const lookup = (filter: Document) =>
    findWithKeyLookup(db.collection<Document>('links'), filter, {
      from: db.collection<Document & { _id: unknown }>('people'),
      localField: 'personId',
      as: 'person',
    });

  it('gives each matching row its document by key, or null when there is none', async () => {
    const rows = await lookup({ team: 7, gone: false });
    const byId = new Map(rows.map((row) => [row._id as string, row]));
    expect([...byId.keys()].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(byId.get('a')).toMatchObject({ role: 'admin', person: { _id: 1, name: 'Ann' } });
    // Dates in the joined document come back as dates.
    expect((byId.get('a')?.person as { joined?: unknown } | null)?.joined).toEqual(
      new Date('2026-01-02T03:04:05.678Z'),
    );
    expect(byId.get('b')?.person).toEqual({ _id: 2, name: 'Bob' });
    expect(byId.get('c')?.person).toBeNull();
    expect(byId.get('d')?.person).toEqual({ _id: 'c"3', name: 'Quoted' });
  });

  it('applies the filter exactly, and finds nothing in a collection that does not exist', async () => {
    expect(
      (await lookup({ team: 8 })).map((row): unknown[] => [row._id, (row.person as Document | null)?.name]),
    ).toEqual([['f', 'Bob']]);
    expect(await lookup({ team: 9 })).toEqual([]);
    const none = await findWithKeyLookup(
      db.collection<Document>('links'),
      { team: 8 },
      {
        from: db.collection<Document & { _id: unknown }>('nobody'),
        localField: 'personId',
        as: 'person',
      },
    );
    expect(none.map((row) => row.person)).toEqual([null]);
  });

  it('gives the joined document as it is now: a renamed person reads renamed', async () => {
    await db.collection<Document>('people').updateOne({ _id: 2 } as never, { $set: { name: 'Robert' } });
    const rows = await lookup({ team: 8 });
    expect(rows.map((row): unknown => (row.person as Document | null)?.name)).toEqual(['Robert']);
    await db.collection<Document>('people').updateOne({ _id: 2 } as never, { $set: { name: 'Bob' } });
  });

  it('looks up ids that are not numbers or strings (an ObjectId)', async () => {
    const id = new ObjectId();
    await db.collection<Document>('people').insertOne({ _id: id, name: 'Object' });
    await db.collection<Document>('links').insertOne({ _id: 'g', team: 10, personId: id } as never);
    const [row] = await lookup({ team: 10 });
    expect((row?.person as Document | null)?.name).toBe('Object');
  });

  if (name === 'embedded') {
    it('reads the rows through their index and each joined document by its key, in one statement', async () => {
      seen.length = 0;
      await lookup({ team: 7, gone: false });
      expect(seen).toHaveLength(1);
      const [statement] = seen as [Seen];
      const plan = (db as unknown as EmbeddedDb).explain(statement.sql, statement.params);
      // The outer rows from the team index; each subquery a search of the people table's id.
      expect(plan.some((line) => /SEARCH lw_outer USING INDEX .*team_person/.test(line))).toBe(true);
      const subqueries = plan.filter((line) => /c:people/.test(line));
      expect(subqueries.length).toBeGreaterThan(0);
      expect(subqueries.every((line) => /^SEARCH .* USING INDEX .*\(id=\?\)/.test(line))).toBe(true);
      expect(plan.some((line) => /^SCAN /.test(line))).toBe(false);
    });
  }
});
