import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore } from '../event-store/event-store';
import { SqliteEventStore } from '../event-store/sqlite-event-store';

/**
 * For the tests of commands/: the real SQLite event store on files in a temporary folder, removed
 * when the test file ends. Call `useTempSqliteFiles()` at the top of a test file.
 */
export const useTempSqliteFiles = () => {
  let dir = '';
  let count = 0;
  const opened: { close: () => Promise<void> }[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledgerwise-commands-'));
  });
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  const freshPath = (name: string) => join(dir, `${name}-${(count += 1)}.db`);
  /** A new store on a new file, or another connection to `path` (as another process would have). */
  const openStore = (path: string = freshPath('events')): EventStore & { path: string } => {
    const store = new SqliteEventStore({ path });
    opened.push(store);
    return Object.assign(store, { path });
  };
  return { freshPath, openStore, track: (closable: { close: () => Promise<void> }) => opened.push(closable) };
};
