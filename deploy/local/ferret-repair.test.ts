import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setAsideDamagedFerretDatabases } from './ferret-repair';

describe('FerretDB start-up repair', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lw-ferret-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('moves aside the database files FerretDB could not open and keeps the healthy ones', async () => {
    const healthy = new Database(join(dir, 'lw_live.sqlite'));
    healthy.exec('CREATE TABLE _ferretdb_collections (name TEXT)');
    healthy.close();
    new Database(join(dir, 'lw_dropped.sqlite')).close(); // what a drop under open connections left
    writeFileSync(join(dir, 'lw_garbage.sqlite'), 'not a database');

    const setAside = await setAsideDamagedFerretDatabases(dir);

    expect(setAside.sort()).toEqual(['lw_dropped.sqlite', 'lw_garbage.sqlite']);
    expect(existsSync(join(dir, 'lw_live.sqlite'))).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.sqlite'))).toEqual(['lw_live.sqlite']);
    expect(readdirSync(dir).filter((f) => f.includes('.damaged-'))).toHaveLength(2);
  });
});
