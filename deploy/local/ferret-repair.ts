import { readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';

/**
 * FerretDB on SQLite keeps one file per database with its own metadata table. A database dropped while
 * clients were still connected has left an empty file without that table, and FerretDB then refused to
 * start ("no such table: _ferretdb_collections"). Such a file holds nothing, and read models are derived
 * data the projector rebuilds from the event store, so it is moved aside (kept for a look) before start.
 */
export const setAsideDamagedFerretDatabases = async (sqliteDir: string): Promise<string[]> => {
  const { default: Database } = await import('better-sqlite3');
  const setAside: string[] = [];
  for (const file of readdirSync(sqliteDir).filter((f) => f.endsWith('.sqlite'))) {
    const path = join(sqliteDir, file);
    let healthy = false;
    try {
      const db = new Database(path, { readonly: true, fileMustExist: true });
      try {
        healthy =
          db
            .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_ferretdb_collections'")
            .get() !== undefined;
      } finally {
        db.close();
      }
    } catch {
      healthy = false; // not even readable as SQLite
    }
    if (healthy) continue;
    const aside = `${path}.damaged-${Date.now()}`;
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        renameSync(`${path}${suffix}`, `${aside}${suffix}`);
      } catch {
        /* a missing -wal or -shm file is normal */
      }
    }
    process.stdout.write(`FerretDB: ${file} had no FerretDB metadata (damaged); moved aside to ${aside}\n`);
    setAside.push(file);
  }
  return setAside;
};
