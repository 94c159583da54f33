import type Database from 'better-sqlite3';
import { isDate } from './document-codec';
import { pathExpression } from './filter-sql';
import { SearchStatistics } from './search-statistics';

/**
 * What one connection knows of the embedded read store's schema: which collections exist and their
 * indexes. Several processes share the file, so the knowledge is refreshed whenever another connection
 * changed it: SQLite bumps `schema_version` on every CREATE or DROP, and the store bumps `user_version`
 * whenever it marks an index multikey (a row change, which schema_version does not see). Before each
 * operation one `PRAGMA data_version` says whether any other connection committed since the last look
 * (it does not move for this connection's own commits, which mark the catalog stale themselves); only
 * then are the two versions read, and the catalog reloaded if either moved.
 */
export type IndexInfo = {
  name: string;
  key: Record<string, 1 | -1>;
  unique: boolean;
  /** Some document put an array on one of the index's paths: queries on it cannot be exact in SQL. */
  multikey: boolean;
  /**
   * The index's paths where arrays were seen, as MongoDB tracks them: in `{sellerIds: 1, createdAt: -1}`
   * an array of seller ids keeps `sellerIds` out of exact SQL, not `createdAt`.
   */
  multikeyPaths: string[];
  /**
   * Some document put a date outside 2001-09-09..2286-11-20 (not 13 digits of milliseconds) on one of
   * the index's paths: stored dates then no longer sort as text, so date ranges on it stay out of SQL.
   */
  wideDates: boolean;
  /**
   * The store keeps a count of documents per distinct key (`_read_store_counts`, kept by triggers in
   * the writes' own transactions), so a count whose filter is equalities and `$in`s on these paths
   * reads a few counters instead of every matching entry (docs/adr/0051-admin-table-counts-and-search.md).
   * The counters are the whole index: no B-tree, which would only tempt SQLite's planner away from the
   * indexes that serve the pages' order.
   */
  counted: boolean;
  /**
   * A trigram full-text index (SQLite FTS5) instead of a B-tree: it serves contains-searches (a
   * case-insensitive regex of literal text, search-pattern.ts) on these paths. No expression index.
   */
  search: boolean;
};

/** What a caller may declare beyond MongoDB's key, name and unique (see IndexInfo). */
export type IndexOptions = { counted?: boolean; search?: boolean };

export const CATALOG_SCHEMA = `
  CREATE TABLE IF NOT EXISTS _read_store_indexes (
    collection TEXT NOT NULL,
    name TEXT NOT NULL,
    key TEXT NOT NULL,
    is_unique INTEGER NOT NULL,
    multikey INTEGER NOT NULL DEFAULT 0,
    wide_dates INTEGER NOT NULL DEFAULT 0,
    multikey_paths TEXT NOT NULL DEFAULT '[]',
    options TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (collection, name)
  );
  CREATE TABLE IF NOT EXISTS _read_store_counts (
    collection TEXT NOT NULL,
    name TEXT NOT NULL,
    key TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (collection, name, key)
  ) WITHOUT ROWID;
`;

const COLLECTION_PREFIX = 'c:';

export const tableName = (collection: string): string => {
  if (collection.length === 0 || collection.includes('"') || collection.includes('\0')) {
    throw new Error(`"${collection}" is not a valid collection name.`);
  }
  return `"${COLLECTION_PREFIX}${collection}"`;
};

const sqlIndexName = (collection: string, index: string) =>
  `"${COLLECTION_PREFIX}${collection}.${index.replace(/"/g, '')}"`;

const SEARCH_MARK = '#search.';

/** The FTS5 table of a search index: one column per path, c0, c1, ... in the key's order. */
export const searchTableName = (collection: string, index: string) =>
  `"${COLLECTION_PREFIX}${collection}${SEARCH_MARK}${index.replace(/"/g, '')}"`;

const triggerName = (collection: string, index: string, event: string) =>
  `"${COLLECTION_PREFIX}${collection}.${index.replace(/"/g, '')}#${event}"`;

const sqlText = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The counted key of a row (NEW or OLD in a trigger, or the table in a SELECT): each path's value and
 * its JSON type, so that `true` and `1`, or a missing field and null, are counted apart.
 */
const countKeyExpression = (paths: readonly string[], row: string) =>
  `json_array(${paths
    .flatMap((path) => {
      const value = pathExpression(path).replace('(doc,', `(${row}doc,`);
      return [value, value.replace('json_extract', 'json_type')];
    })
    .join(', ')})`;

/** MongoDB's default index name: `a_1_b_-1`. */
export const defaultIndexName = (key: Record<string, 1 | -1>) =>
  Object.entries(key)
    .map(([path, direction]) => `${path}_${direction}`)
    .join('_');

/** Rows changed by this connection between two looks at SQLite's statistics (PRAGMA optimize). */
const OPTIMIZE_EVERY_CHANGES = 20_000;

/**
 * Brings SQLite's statistics (sqlite_stat1) up to date for tables that were never analyzed or have
 * grown or shrunk much since: without them the planner takes an equality on `deleted` or `status`,
 * true for nearly every row, for a selective one and prefers it to a search index or to the index
 * that gives the page's order. The analysis reads at most 1,000 rows of each index.
 */
export const optimizeStatistics = (sqlite: Database.Database): void => {
  const busyTimeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
  try {
    // Statistics only steer the planner: another process holding the write lock must neither hold
    // up nor fail an open or a write. The next look tries again.
    sqlite.pragma('busy_timeout = 50');
    sqlite.pragma('analysis_limit = 1000');
    sqlite.pragma('optimize = 0x10002');
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
  } finally {
    sqlite.pragma(`busy_timeout = ${busyTimeout}`);
  }
};

export class EmbeddedCatalog {
  private changesAtOptimize = 0;
  private schemaVersion = -1;
  private userVersion = -1;
  private dataVersion = -1;
  /** This connection changed the catalog's tables: the next refresh reads the versions again. */
  private stale = true;
  private tables = new Set<string>();
  private indexes = new Map<string, IndexInfo[]>();
  private readonly readSchemaVersion: Database.Statement;
  private readonly readUserVersion: Database.Statement;
  private readonly readDataVersion: Database.Statement;
  /** How common each trigram is in each search index, for choosing what a search looks up. */
  readonly searches: SearchStatistics;

  constructor(private readonly sqlite: Database.Database) {
    sqlite.exec(CATALOG_SCHEMA);
    this.searches = new SearchStatistics(sqlite);
    this.readSchemaVersion = sqlite.prepare('PRAGMA schema_version').pluck();
    this.readUserVersion = sqlite.prepare('PRAGMA user_version').pluck();
    this.readDataVersion = sqlite.prepare('PRAGMA data_version').pluck();
    this.addPathColumns();
  }

  /** After a write: refreshes the statistics once this connection has changed enough rows. */
  noteWrites(): void {
    const changes = this.sqlite.prepare('SELECT total_changes()').pluck().get() as number;
    if (changes - this.changesAtOptimize < OPTIMIZE_EVERY_CHANGES) return;
    this.changesAtOptimize = changes;
    optimizeStatistics(this.sqlite);
  }

  /** Reloads what another connection changed since the last look. */
  refresh(): void {
    // One statement when nothing changed: data_version moves only when another connection commits.
    const data = this.readDataVersion.get() as number;
    if (data === this.dataVersion && !this.stale) return;
    this.dataVersion = data;
    this.stale = false;
    const schema = this.readSchemaVersion.get() as number;
    const user = this.readUserVersion.get() as number;
    if (schema === this.schemaVersion && user === this.userVersion) return;
    this.schemaVersion = schema;
    this.userVersion = user;
    this.tables = new Set(
      (
        this.sqlite
          .prepare(
            // A search index's FTS5 table and its shadow tables are not collections.
            `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '${COLLECTION_PREFIX}%' AND instr(name, '${SEARCH_MARK}') = 0`,
          )
          .pluck()
          .all() as string[]
      ).map((name) => name.slice(COLLECTION_PREFIX.length)),
    );
    const rows = this.sqlite
      .prepare(
        'SELECT collection, name, key, is_unique, multikey, wide_dates, multikey_paths, options FROM _read_store_indexes ORDER BY rowid',
      )
      .all() as {
      collection: string;
      name: string;
      key: string;
      is_unique: number;
      multikey: number;
      wide_dates: number;
      multikey_paths: string;
      options: string;
    }[];
    this.indexes = new Map();
    for (const row of rows) {
      const list = this.indexes.get(row.collection) ?? [];
      list.push({
        name: row.name,
        key: JSON.parse(row.key) as Record<string, 1 | -1>,
        unique: row.is_unique === 1,
        multikey: row.multikey === 1,
        wideDates: row.wide_dates === 1,
        multikeyPaths: JSON.parse(row.multikey_paths) as string[],
        counted: (JSON.parse(row.options) as IndexOptions).counted === true,
        search: (JSON.parse(row.options) as IndexOptions).search === true,
      });
      this.indexes.set(row.collection, list);
    }
  }

  exists(collection: string): boolean {
    return this.tables.has(collection);
  }

  collections(): string[] {
    return [...this.tables].sort();
  }

  indexesOf(collection: string): readonly IndexInfo[] {
    return this.indexes.get(collection) ?? [];
  }

  /** Paths SQL can decide exactly: indexed paths where no index has seen an array. */
  singleKeyPaths(collection: string): Set<string> {
    const paths = new Set<string>();
    const multikeyPaths = new Set<string>();
    for (const index of this.indexesOf(collection)) {
      if (index.search) continue; // no B-tree, and FTS5 is a superset whatever the values
      for (const path of Object.keys(index.key)) paths.add(path);
      for (const path of index.multikeyPaths) multikeyPaths.add(path);
    }
    for (const path of multikeyPaths) paths.delete(path);
    return paths;
  }

  /**
   * Paths where SQL can decide a date range exactly: single-key indexed paths whose stored dates all
   * have 13 digits of milliseconds, so that their JSON text sorts as the dates do (document-codec.ts).
   */
  dateRangePaths(collection: string): Set<string> {
    const paths = this.singleKeyPaths(collection);
    for (const index of this.indexesOf(collection)) {
      if (index.wideDates) for (const path of Object.keys(index.key)) paths.delete(path);
    }
    return paths;
  }

  /** Creates the collection's table if it is missing (inside the caller's write transaction). */
  ensureTable(collection: string): void {
    if (this.tables.has(collection)) return;
    this.sqlite.exec(
      `CREATE TABLE IF NOT EXISTS ${tableName(collection)} (id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL, tags TEXT)`,
    );
    this.tables.add(collection);
    this.stale = true;
  }

  createIndex(
    collection: string,
    index: Omit<IndexInfo, 'multikey' | 'multikeyPaths' | 'wideDates' | 'counted' | 'search'> & IndexOptions,
  ): void {
    this.ensureTable(collection);
    const options: IndexOptions = {
      ...(index.counted ? { counted: true } : {}),
      ...(index.search ? { search: true } : {}),
    };
    const existing = this.indexesOf(collection).find((candidate) => candidate.name === index.name);
    if (existing) {
      if (
        JSON.stringify(existing.key) !== JSON.stringify(index.key) ||
        existing.unique !== index.unique ||
        existing.counted !== (options.counted ?? false) ||
        existing.search !== (options.search ?? false)
      ) {
        throw new Error(`An index named ${index.name} already exists on ${collection} with another key.`);
      }
      return;
    }
    if ((options.search || options.counted) && (index.unique || (options.search && options.counted))) {
      throw new Error(`The index ${index.name} can be one of unique, counted or search.`);
    }
    const paths = Object.keys(index.key);
    if (options.search) this.createSearchIndex(collection, index.name, paths);
    else if (!options.counted) {
      const columns = Object.entries(index.key)
        .map(([path, direction]) => `${pathExpression(path)} ${direction === -1 ? 'DESC' : 'ASC'}`)
        .join(', ');
      this.sqlite.exec(
        `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${sqlIndexName(collection, index.name)} ON ${tableName(collection)} (${columns})`,
      );
    }
    if (options.counted) this.createCounts(collection, index.name, paths);
    const { arrayPaths, wideDates } = this.pathsSeen(collection, Object.keys(index.key));
    this.sqlite
      .prepare(
        'INSERT INTO _read_store_indexes (collection, name, key, is_unique, multikey, wide_dates, multikey_paths, options) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        collection,
        index.name,
        JSON.stringify(index.key),
        index.unique ? 1 : 0,
        arrayPaths.length > 0 ? 1 : 0,
        wideDates ? 1 : 0,
        JSON.stringify(arrayPaths),
        JSON.stringify(options),
      );
    this.bumpUserVersion();
  }

  /**
   * Counts per distinct key, kept by triggers inside every write's transaction (so exact across
   * processes), and filled from the rows already stored. Dropping the table drops the triggers.
   */
  private createCounts(collection: string, index: string, paths: readonly string[]): void {
    const table = tableName(collection);
    const c = sqlText(collection);
    const n = sqlText(index);
    const add = (row: string) =>
      `INSERT INTO _read_store_counts (collection, name, key, n) VALUES (${c}, ${n}, ${countKeyExpression(paths, row)}, 1) ON CONFLICT (collection, name, key) DO UPDATE SET n = n + 1;`;
    const remove = (row: string) =>
      `UPDATE _read_store_counts SET n = n - 1 WHERE collection = ${c} AND name = ${n} AND key = ${countKeyExpression(paths, row)};`;
    this.sqlite.exec(`
      DELETE FROM _read_store_counts WHERE collection = ${c} AND name = ${n};
      INSERT INTO _read_store_counts (collection, name, key, n)
        SELECT ${c}, ${n}, ${countKeyExpression(paths, '')}, COUNT(*) FROM ${table} GROUP BY 3;
      CREATE TRIGGER IF NOT EXISTS ${triggerName(collection, index, 'count-insert')} AFTER INSERT ON ${table}
        BEGIN ${add('NEW.')} END;
      CREATE TRIGGER IF NOT EXISTS ${triggerName(collection, index, 'count-delete')} AFTER DELETE ON ${table}
        BEGIN ${remove('OLD.')} END;
      CREATE TRIGGER IF NOT EXISTS ${triggerName(collection, index, 'count-update')} AFTER UPDATE OF doc ON ${table}
        WHEN ${countKeyExpression(paths, 'OLD.')} IS NOT ${countKeyExpression(paths, 'NEW.')}
        BEGIN ${remove('OLD.')} ${add('NEW.')} END;
    `);
  }

  /**
   * A trigram FTS5 table beside the collection, one column per path (the path's value; an array or
   * object as its JSON text), kept by triggers and filled from the rows already stored.
   */
  private createSearchIndex(collection: string, index: string, paths: readonly string[]): void {
    const table = tableName(collection);
    const fts = searchTableName(collection, index);
    const columns = paths.map((_, i) => `c${i}`);
    const values = (row: string) =>
      paths.map((path) => pathExpression(path).replace('(doc,', `(${row}doc,`)).join(', ');
    const changed = paths
      .map((path) => {
        const value = (row: string) => pathExpression(path).replace('(doc,', `(${row}doc,`);
        return `${value('OLD.')} IS NOT ${value('NEW.')}`;
      })
      .join(' OR ');
    this.sqlite.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS ${fts} USING fts5(${columns.join(', ')}, tokenize = 'trigram');
      INSERT INTO ${fts} (rowid, ${columns.join(', ')}) SELECT rowid, ${values('')} FROM ${table};
      CREATE TRIGGER IF NOT EXISTS ${triggerName(collection, index, 'search-insert')} AFTER INSERT ON ${table}
        BEGIN INSERT INTO ${fts} (rowid, ${columns.join(', ')}) VALUES (NEW.rowid, ${values('NEW.')}); END;
      CREATE TRIGGER IF NOT EXISTS ${triggerName(collection, index, 'search-delete')} AFTER DELETE ON ${table}
        BEGIN DELETE FROM ${fts} WHERE rowid = OLD.rowid; END;
      CREATE TRIGGER IF NOT EXISTS ${triggerName(collection, index, 'search-update')} AFTER UPDATE OF doc ON ${table}
        WHEN ${changed}
        BEGIN
          DELETE FROM ${fts} WHERE rowid = OLD.rowid;
          INSERT INTO ${fts} (rowid, ${columns.join(', ')}) VALUES (NEW.rowid, ${values('NEW.')});
        END;
    `);
  }

  /** The counted indexes of a collection (see IndexInfo.counted). */
  countedIndexes(collection: string): IndexInfo[] {
    return this.indexesOf(collection).filter((index) => index.counted);
  }

  /** Search paths of a collection: each path's FTS5 table and column (see IndexInfo.search). */
  searchPaths(collection: string): Map<string, { table: string; column: string }> {
    const paths = new Map<string, { table: string; column: string }>();
    for (const index of this.indexesOf(collection)) {
      if (!index.search) continue;
      Object.keys(index.key).forEach((path, i) => {
        if (!paths.has(path))
          paths.set(path, { table: searchTableName(collection, index.name), column: `c${i}` });
      });
    }
    return paths;
  }

  /**
   * Marks the index multikey on these paths besides those already marked (MongoDB does the same when a
   * document first puts an array on one of its paths).
   */
  markMultikey(collection: string, index: string, paths: readonly string[]): void {
    // Read inside the caller's write transaction, not from this connection's cache: another process
    // may have marked other paths meanwhile.
    const stored = this.sqlite
      .prepare('SELECT multikey_paths FROM _read_store_indexes WHERE collection = ? AND name = ?')
      .pluck()
      .get(collection, index) as string | undefined;
    const known = stored === undefined ? [] : (JSON.parse(stored) as string[]);
    this.sqlite
      .prepare(
        'UPDATE _read_store_indexes SET multikey = 1, multikey_paths = ? WHERE collection = ? AND name = ?',
      )
      .run(JSON.stringify([...new Set([...known, ...paths])]), collection, index);
    this.bumpUserVersion();
  }

  /** Marks the index as holding a date outside the 13-digit range (see IndexInfo.wideDates). */
  markWideDates(collection: string, index: string): void {
    this.sqlite
      .prepare('UPDATE _read_store_indexes SET wide_dates = 1 WHERE collection = ? AND name = ?')
      .run(collection, index);
    this.bumpUserVersion();
  }

  dropCollection(collection: string): boolean {
    const existed = this.tables.has(collection);
    for (const index of this.indexesOf(collection)) {
      this.sqlite.exec(`DROP INDEX IF EXISTS ${sqlIndexName(collection, index.name)}`);
      if (index.search) this.sqlite.exec(`DROP TABLE IF EXISTS ${searchTableName(collection, index.name)}`);
    }
    this.sqlite.exec(`DROP TABLE IF EXISTS ${tableName(collection)}`);
    this.sqlite.prepare('DELETE FROM _read_store_indexes WHERE collection = ?').run(collection);
    this.sqlite.prepare('DELETE FROM _read_store_counts WHERE collection = ?').run(collection);
    this.bumpUserVersion();
    this.tables.delete(collection);
    this.stale = true;
    return existed;
  }

  /** Whether stored documents put an array, or a date outside the 13-digit range, on these paths. */
  private pathsSeen(collection: string, paths: string[]): { arrayPaths: string[]; wideDates: boolean } {
    const arrayPaths = new Set<string>();
    let wideDates = false;
    if (
      !this.sqlite
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
        .get(tableName(collection).slice(1, -1))
    ) {
      return { arrayPaths: [], wideDates };
    }
    const rows = this.sqlite
      .prepare(`SELECT doc FROM ${tableName(collection)}`)
      .pluck()
      .iterate() as Iterable<string>;
    for (const json of rows) {
      const doc = JSON.parse(json) as Record<string, unknown>;
      for (const path of paths) if (hasArrayOnPath(doc, path)) arrayPaths.add(path);
      wideDates ||= paths.some((path) => hasWideDateOnPath(doc, path));
    }
    return { arrayPaths: paths.filter((path) => arrayPaths.has(path)), wideDates };
  }

  /**
   * Files made before the wide_dates and multikey_paths columns get them, with each existing index's
   * flags computed from the stored rows (once; another process may be doing the same, hence the
   * re-check inside the write lock).
   */
  private addPathColumns(): void {
    const missing = () => {
      const columns = new Set(
        (this.sqlite.prepare('PRAGMA table_info(_read_store_indexes)').all() as { name: string }[]).map(
          (column) => column.name,
        ),
      );
      return ['wide_dates', 'multikey_paths', 'options'].filter((name) => !columns.has(name));
    };
    if (missing().length === 0) return;
    this.sqlite
      .transaction(() => {
        const absent = missing();
        if (absent.length === 0) return;
        if (absent.includes('wide_dates')) {
          this.sqlite.exec(
            'ALTER TABLE _read_store_indexes ADD COLUMN wide_dates INTEGER NOT NULL DEFAULT 0',
          );
        }
        if (absent.includes('options')) {
          this.sqlite.exec("ALTER TABLE _read_store_indexes ADD COLUMN options TEXT NOT NULL DEFAULT '{}'");
        }
        if (absent.length === 1 && absent[0] === 'options') return;
        if (absent.includes('multikey_paths')) {
          this.sqlite.exec(
            "ALTER TABLE _read_store_indexes ADD COLUMN multikey_paths TEXT NOT NULL DEFAULT '[]'",
          );
        }
        const indexes = this.sqlite
          .prepare('SELECT collection, name, key FROM _read_store_indexes')
          .all() as {
          collection: string;
          name: string;
          key: string;
        }[];
        for (const index of indexes) {
          const paths = Object.keys(JSON.parse(index.key) as Record<string, 1 | -1>);
          const seen = this.pathsSeen(index.collection, paths);
          this.sqlite
            .prepare(
              'UPDATE _read_store_indexes SET wide_dates = ?, multikey = ?, multikey_paths = ? WHERE collection = ? AND name = ?',
            )
            .run(
              seen.wideDates ? 1 : 0,
              seen.arrayPaths.length > 0 ? 1 : 0,
              JSON.stringify(seen.arrayPaths),
              index.collection,
              index.name,
            );
        }
        this.bumpUserVersion();
      })
      .immediate();
  }

  private bumpUserVersion(): void {
    this.stale = true;
    const next = ((this.readUserVersion.get() as number) + 1) % 2_000_000_000;
    this.sqlite.pragma(`user_version = ${next}`);
  }
}

/** Whether reading `path` in `doc` meets an array, as MongoDB's multikey rule sees it. */
export const hasArrayOnPath = (doc: unknown, path: string): boolean => {
  let value: unknown = doc;
  for (const segment of path.split('.')) {
    if (Array.isArray(value)) return true;
    if (value === null || typeof value !== 'object') return false;
    value = (value as Record<string, unknown>)[segment];
  }
  return Array.isArray(value);
};

/** Dates whose milliseconds have 13 digits: their stored JSON text sorts as the dates do. */
export const isNarrowDateMillis = (ms: number): boolean =>
  Number.isInteger(ms) && ms >= 1_000_000_000_000 && ms < 10_000_000_000_000;

/**
 * Whether the value at `path` in `doc` is a date outside the 13-digit range; `doc` is a document as
 * the product holds it (Date values) or as stored (`{"$date": ms}`). Array paths are multikey anyway.
 */
export const hasWideDateOnPath = (doc: unknown, path: string): boolean => {
  let value: unknown = doc;
  for (const segment of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    value = (value as Record<string, unknown>)[segment];
  }
  if (isDate(value)) return !isNarrowDateMillis(value.getTime());
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const stored = (value as Record<string, unknown>).$date;
    return typeof stored === 'number' && !isNarrowDateMillis(stored);
  }
  return false;
};
