import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { EmbeddedDb } from '../../projections/read-store/embedded/embedded-db';

/**
 * A read-store file made before the catalog tracked multikey paths and wide dates (the columns
 * multikey_paths and wide_dates of _read_store_indexes) opens with both computed from its rows, so a
 * date range on an index that already holds a date before 2001 keeps finding it.
 */
describe('embedded read store catalog upgrade', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lw-catalog-upgrade-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('computes the new columns for existing indexes from the stored rows', async () => {
    const path = join(dir, 'read-models.sqlite');
    const before = new EmbeddedDb({ path });
    const jobs = before.collection('jobs');
    await jobs.createIndexes([
      { key: { sellerIds: 1, createdAt: -1 }, name: 'seller_created' },
      { key: { createdAt: 1 }, name: 'created' },
    ] as never);
    await jobs.insertMany([
      { _id: 1, sellerIds: [7, 8], createdAt: new Date('1999-05-01T00:00:00Z') },
      { _id: 2, sellerIds: [7], createdAt: new Date('2026-05-01T00:00:00Z') },
    ]);
    before.close();

    // The catalog as the previous version left it: no new columns, the index marked multikey as a whole.
    const raw = new Database(path);
    raw.exec('ALTER TABLE _read_store_indexes DROP COLUMN wide_dates');
    raw.exec('ALTER TABLE _read_store_indexes DROP COLUMN multikey_paths');
    raw.close();

    const after = new EmbeddedDb({ path });
    try {
      const catalog = new Database(path, { readonly: true });
      const rows = catalog
        .prepare('SELECT name, multikey, wide_dates, multikey_paths FROM _read_store_indexes ORDER BY name')
        .all();
      catalog.close();
      expect(rows).toEqual([
        { name: 'created', multikey: 0, wide_dates: 1, multikey_paths: '[]' },
        { name: 'seller_created', multikey: 1, wide_dates: 1, multikey_paths: '["sellerIds"]' },
      ]);
      const found = await after
        .collection('jobs')
        .find({ createdAt: { $lt: new Date('2026-01-01T00:00:00Z') } })
        .toArray();
      expect(found.map((job) => job._id)).toEqual([1]);
    } finally {
      after.close();
    }
  });
});
