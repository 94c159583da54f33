import type Database from 'better-sqlite3';
import { pathExpression } from './filter-sql';

/**
 * What one connection knows of the embedded read store's schema: which collections exist and their
 * indexes. Several processes share the file, so the knowledge is refreshed whenever another connection
 * changed it: SQLite bumps `schema_version` on every CREATE or DROP, and the store bumps `user_version`
 * whenever it marks an index multikey (a row change, which schema_version does not see). Both are read
 * from the file header, so checking them before each operation costs next to nothing.
 */
export type IndexInfo = {
  name: string;
  key: Record<string, 1 | -1>;
  unique: boolean;
  /** Some document put an array on one of the index's paths: queries on it cannot be exact in SQL. */
  multikey: boolean;
};

export const CATALOG_SCHEMA = `
  CREATE TABLE IF NOT EXISTS _read_store_indexes (
    collection TEXT NOT NULL,
    name TEXT NOT NULL,
    key TEXT NOT NULL,
    is_unique INTEGER NOT NULL,
    multikey INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (collection, name)
  );
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

/** MongoDB's default index name: `a_1_b_-1`. */
export const defaultIndexName = (key: Record<string, 1 | -1>) =>
  Object.entries(key)
    .map(([path, direction]) => `${path}_${direction}`)
    .join('_');

export class EmbeddedCatalog {
  private schemaVersion = -1;
  private userVersion = -1;
  private tables = new Set<string>();
  private indexes = new Map<string, IndexInfo[]>();
  private readonly readSchemaVersion: Database.Statement;
  private readonly readUserVersion: Database.Statement;

  constructor(private readonly sqlite: Database.Database) {
    sqlite.exec(CATALOG_SCHEMA);
    this.readSchemaVersion = sqlite.prepare('PRAGMA schema_version').pluck();
    this.readUserVersion = sqlite.prepare('PRAGMA user_version').pluck();
  }

  /** Reloads what another connection changed since the last look. */
  refresh(): void {
    const schema = this.readSchemaVersion.get() as number;
    const user = this.readUserVersion.get() as number;
    if (schema === this.schemaVersion && user === this.userVersion) return;
    this.schemaVersion = schema;
    this.userVersion = user;
    this.tables = new Set(
      (
        this.sqlite
          .prepare(
            `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '${COLLECTION_PREFIX}%'`,
          )
          .pluck()
          .all() as string[]
      ).map((name) => name.slice(COLLECTION_PREFIX.length)),
    );
    const rows = this.sqlite
      .prepare('SELECT collection, name, key, is_unique, multikey FROM _read_store_indexes ORDER BY rowid')
      .all() as { collection: string; name: string; key: string; is_unique: number; multikey: number }[];
    this.indexes = new Map();
    for (const row of rows) {
      const list = this.indexes.get(row.collection) ?? [];
      list.push({
        name: row.name,
        key: JSON.parse(row.key) as Record<string, 1 | -1>,
        unique: row.is_unique === 1,
        multikey: row.multikey === 1,
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

  /** Paths SQL can decide exactly: those of single-key indexes (arrays never seen on them). */
  singleKeyPaths(collection: string): Set<string> {
    const paths = new Set<string>();
    const multikeyPaths = new Set<string>();
    for (const index of this.indexesOf(collection)) {
      for (const path of Object.keys(index.key)) (index.multikey ? multikeyPaths : paths).add(path);
    }
    for (const path of multikeyPaths) paths.delete(path);
    return paths;
  }

  /** Creates the collection's table if it is missing (inside the caller's write transaction). */
  ensureTable(collection: string): void {
    if (this.tables.has(collection)) return;
    this.sqlite.exec(
      `CREATE TABLE IF NOT EXISTS ${tableName(collection)} (id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL, tags TEXT)`,
    );
    this.tables.add(collection);
  }

  createIndex(collection: string, index: Omit<IndexInfo, 'multikey'>): void {
    this.ensureTable(collection);
    const existing = this.indexesOf(collection).find((candidate) => candidate.name === index.name);
    if (existing) {
      if (JSON.stringify(existing.key) !== JSON.stringify(index.key) || existing.unique !== index.unique) {
        throw new Error(`An index named ${index.name} already exists on ${collection} with another key.`);
      }
      return;
    }
    const columns = Object.entries(index.key)
      .map(([path, direction]) => `${pathExpression(path)} ${direction === -1 ? 'DESC' : 'ASC'}`)
      .join(', ');
    this.sqlite.exec(
      `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${sqlIndexName(collection, index.name)} ON ${tableName(collection)} (${columns})`,
    );
    const multikey = this.anyArrayOn(collection, Object.keys(index.key));
    this.sqlite
      .prepare(
        'INSERT INTO _read_store_indexes (collection, name, key, is_unique, multikey) VALUES (?, ?, ?, ?, ?)',
      )
      .run(collection, index.name, JSON.stringify(index.key), index.unique ? 1 : 0, multikey ? 1 : 0);
    this.bumpUserVersion();
  }

  /** Marks the index multikey (MongoDB does the same when a document first puts an array on its path). */
  markMultikey(collection: string, index: string): void {
    this.sqlite
      .prepare('UPDATE _read_store_indexes SET multikey = 1 WHERE collection = ? AND name = ?')
      .run(collection, index);
    this.bumpUserVersion();
  }

  dropCollection(collection: string): boolean {
    const existed = this.tables.has(collection);
    for (const index of this.indexesOf(collection)) {
      this.sqlite.exec(`DROP INDEX IF EXISTS ${sqlIndexName(collection, index.name)}`);
    }
    this.sqlite.exec(`DROP TABLE IF EXISTS ${tableName(collection)}`);
    this.sqlite.prepare('DELETE FROM _read_store_indexes WHERE collection = ?').run(collection);
    this.bumpUserVersion();
    this.tables.delete(collection);
    return existed;
  }

  private anyArrayOn(collection: string, paths: string[]): boolean {
    const rows = this.sqlite
      .prepare(`SELECT doc FROM ${tableName(collection)}`)
      .pluck()
      .iterate() as Iterable<string>;
    for (const json of rows) {
      const doc = JSON.parse(json) as Record<string, unknown>;
      if (paths.some((path) => hasArrayOnPath(doc, path))) return true;
    }
    return false;
  }

  private bumpUserVersion(): void {
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
