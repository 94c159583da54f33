import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDb } from '../../projections/read-store/embedded/embedded-db';

/**
 * Two connections on one read-store file (two processes): what one changes in the catalog (an index,
 * a path marked multikey, a dropped collection) the other's very next query sees. The catalog looks
 * again only when `PRAGMA data_version` says another connection committed (embedded-catalog.ts).
 */
describe('embedded read store catalog across connections', () => {
  let dir: string;
  let a: EmbeddedDb;
  let b: EmbeddedDb;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lw-catalog-connections-'));
    const path = join(dir, 'read-models.sqlite');
    a = new EmbeddedDb({ path });
    b = new EmbeddedDb({ path });
  });
  afterAll(() => {
    a.close();
    b.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the row another connection made multikey, and nothing once it dropped the collection', async () => {
    await a.collection('items').createIndex({ tag: 1 }, { name: 'tag' });
    await a.collection('items').insertOne({ _id: 1, tag: 'x' });
    // b reads with the index single-key: SQL decides `tag = 'x'` exactly.
    expect((await b.collection('items').find({ tag: 'x' }).toArray()).map((doc) => doc._id)).toEqual([1]);

    // a stores an array on the path: the index becomes multikey, and MongoDB's {tag: 'x'} matches it.
    await a.collection('items').insertOne({ _id: 2, tag: ['y', 'x'] });
    expect((await b.collection('items').find({ tag: 'x' }).toArray()).map((doc) => doc._id)).toEqual([1, 2]);

    await a.collection('items').drop();
    expect(await b.collection('items').find({ tag: 'x' }).toArray()).toEqual([]);
    expect(await b.collection('items').countDocuments({})).toBe(0);
  });

  it("sees its own connection's changes without another connection committing", async () => {
    const own = b.collection('own');
    await own.createIndex({ tag: 1 }, { name: 'tag' });
    await own.insertOne({ _id: 1, tag: ['x'] });
    expect((await own.find({ tag: 'x' }).toArray()).map((doc) => doc._id)).toEqual([1]);
    expect((await b.listCollections().toArray()).map((c) => c.name)).toContain('own');
    await own.drop();
    expect((await b.listCollections().toArray()).map((c) => c.name)).not.toContain('own');
  });
});
