import { mkdirSync, renameSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { EmbeddedCatalog, optimizeStatistics } from './embedded-catalog';
import { EmbeddedCollection, type StatementObserver } from './embedded-collection';

export type EmbeddedDbOptions = {
  path: string;
  /** How long a writer waits for another process's write lock. */
  busyTimeoutMs?: number;
  /** Called when a damaged file was set aside and an empty store started in its place. */
  onDamaged?: (message: string, setAsidePath: string) => void;
  /** Sees each query's SQL before it runs (tests of index use). */
  observeStatements?: StatementObserver;
};

const DAMAGED_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

const open = (path: string, busyTimeoutMs: number): Database.Database => {
  const sqlite = new Database(path, { timeout: busyTimeoutMs });
  sqlite.pragma('journal_mode = WAL');
  // Read models are derived data: a power cut may lose the last commits, never corrupt the file.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('cache_size = -65536');
  sqlite.prepare('SELECT count(*) FROM sqlite_master').get();
  return sqlite;
};

/**
 * The embedded read store (docs/adr/0028-embedded-read-store.md): one SQLite file in WAL mode shared
 * by every local process, presenting the part of the MongoDB driver's `Db` the product uses, with real
 * indexes. A file SQLite reports as damaged is renamed aside and an empty store opened in its place:
 * projections rebuild from the event store, so a damaged read store never blocks start-up.
 */
export class EmbeddedDb {
  readonly databaseName: string;
  private readonly sqlite: Database.Database;
  private readonly catalog: EmbeddedCatalog;
  private readonly opened = new Map<string, EmbeddedCollection>();
  private readonly observe: StatementObserver | undefined;

  constructor(options: EmbeddedDbOptions) {
    mkdirSync(dirname(options.path), { recursive: true });
    const busy = options.busyTimeoutMs ?? 10_000;
    let sqlite: Database.Database;
    try {
      sqlite = open(options.path, busy);
    } catch (error) {
      if (!DAMAGED_CODES.has((error as { code?: string }).code ?? '')) throw error;
      const aside = `${options.path}.damaged-${Date.now()}`;
      renameSync(options.path, aside);
      for (const suffix of ['-wal', '-shm']) {
        if (existsSync(options.path + suffix)) renameSync(options.path + suffix, aside + suffix);
      }
      options.onDamaged?.((error as Error).message, aside);
      sqlite = open(options.path, busy);
    }
    this.sqlite = sqlite;
    this.catalog = new EmbeddedCatalog(sqlite);
    optimizeStatistics(sqlite);
    this.databaseName = options.path;
    this.observe = options.observeStatements;
  }

  private changeStatement: Database.Statement | undefined;

  /**
   * Equal on two calls only if nothing was written in between: rows or schema by this connection
   * (total_changes, schema_version) or anything by another one (data_version). Lets a cache in the
   * process skip a keyed read while the store is quiet (docs/adr/0054).
   */
  changeToken(): string {
    this.changeStatement ??= this.sqlite.prepare(
      'SELECT total_changes() AS c, (SELECT data_version FROM pragma_data_version) AS d, (SELECT schema_version FROM pragma_schema_version) AS s',
    );
    const { c, d, s } = this.changeStatement.get() as { c: number; d: number; s: number };
    return `${c}:${d}:${s}`;
  }

  collection<T = Record<string, unknown>>(name: string): EmbeddedCollection<T> {
    let collection = this.opened.get(name);
    if (!collection) {
      collection = new EmbeddedCollection({
        sqlite: this.sqlite,
        catalog: this.catalog,
        name,
        observe: this.observe,
      });
      this.opened.set(name, collection);
    }
    return collection;
  }

  createCollection(name: string) {
    this.sqlite.transaction(() => this.catalog.ensureTable(name)).immediate();
    return Promise.resolve(this.collection(name));
  }

  listCollections(filter: { name?: string } = {}, _options: { nameOnly?: boolean } = {}) {
    this.catalog.refresh();
    const names = this.catalog
      .collections()
      .filter((name) => filter.name === undefined || name === filter.name);
    return { toArray: () => Promise.resolve(names.map((name) => ({ name, type: 'collection' }))) };
  }

  async dropDatabase(): Promise<boolean> {
    this.catalog.refresh();
    for (const name of this.catalog.collections()) await this.collection(name).drop();
    return true;
  }

  command(command: Record<string, unknown>) {
    if ('ping' in command) {
      this.sqlite.prepare('SELECT 1').get();
      return Promise.resolve({ ok: 1 });
    }
    return Promise.reject(new Error(`The embedded read store has no command ${Object.keys(command)[0]}.`));
  }

  admin() {
    return {
      ping: () => this.command({ ping: 1 }),
      command: (command: Record<string, unknown>) => this.command(command),
    };
  }

  /** SQLite's plan for a statement the observer saw (its parameters included). */
  explain(sql: string, params: unknown[]): string[] {
    const rows = this.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
    return rows.map((row) => row.detail);
  }

  close(): void {
    if (this.sqlite.open) this.sqlite.close();
  }
}
