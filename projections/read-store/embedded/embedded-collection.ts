import type Database from 'better-sqlite3';
import { Aggregator, update as applyModifier } from 'mingo';
import { MongoBulkWriteError, MongoServerError, ObjectId } from 'mongodb';
import {
  defaultIndexName,
  hasArrayOnPath,
  hasWideDateOnPath,
  tableName,
  type EmbeddedCatalog,
  type IndexOptions,
} from './embedded-catalog';
import { EmbeddedCursor, type FindSpec } from './embedded-cursor';
import { cloneDocument, decodeDocument, encodeDocument, idKey, isDate } from './document-codec';
import { applyDirectUpdate, matcherFor } from './fast-paths';
import { compileFilter, compileSort, pathExpression, type PathKnowledge } from './filter-sql';
import { applyProjection } from './projection';

type Doc = Record<string, unknown>;
type Row = { rowid: number; doc: Doc };
type Filter = Record<string, unknown>;
type UpdateSpec = Record<string, unknown>;

const DUPLICATE_KEY = 11000;
const FIRST_BATCH = 256;
const LARGEST_BATCH = 8192;

const duplicateKeyError = (collection: string, id: unknown) =>
  new MongoServerError({
    message: `E11000 duplicate key error collection: ${collection} dup key: ${JSON.stringify(idKey(id))}`,
    code: DUPLICATE_KEY,
  });

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string })?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
  (error as { code?: string })?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';

/** Equality fields of a filter, which an upsert copies into the document it inserts (as MongoDB does). */
const equalityFields = (filter: Filter, into: Doc = {}): Doc => {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const branch of value as Filter[]) equalityFields(branch, into);
      continue;
    }
    if (key.startsWith('$')) continue;
    const isOperator =
      value !== null &&
      typeof value === 'object' &&
      !isDate(value) &&
      !(value instanceof ObjectId) &&
      Object.keys(value).some((k) => k.startsWith('$'));
    if (isOperator) {
      const operand = (value as Doc).$eq;
      if (operand !== undefined) setPath(into, key, operand);
      continue;
    }
    setPath(into, key, value);
  }
  return into;
};

const setPath = (doc: Doc, path: string, value: unknown) => {
  const segments = path.split('.');
  let parent = doc;
  for (const segment of segments.slice(0, -1)) {
    parent[segment] ??= {};
    parent = parent[segment] as Doc;
  }
  parent[segments[segments.length - 1]!] = value;
};

type CountedScalar = string | number | boolean;
const jsonTypesOf = (value: CountedScalar): string => {
  if (typeof value === 'string') return `('text')`;
  if (typeof value === 'number') return `('integer', 'real')`;
  return value ? `('true')` : `('false')`;
};

/**
 * A filter of equalities and `$in`s of scalars on plain paths (within `$and`s), as the values each
 * path may take; null for any other filter, which counters cannot answer.
 */
export const countableConditions = (
  filter: Filter,
  into = new Map<string, CountedScalar[]>(),
): Map<string, CountedScalar[]> | null => {
  const isCountedScalar = (value: unknown): value is CountedScalar =>
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value));
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(condition)) {
      for (const branch of condition as Filter[]) if (countableConditions(branch, into) === null) return null;
      continue;
    }
    if (key.startsWith('$') || key === '_id' || into.has(key)) return null;
    if (isCountedScalar(condition)) into.set(key, [condition]);
    else if (
      condition !== null &&
      typeof condition === 'object' &&
      Object.keys(condition).length === 1 &&
      Array.isArray((condition as Filter).$in) &&
      ((condition as Filter).$in as unknown[]).length > 0 &&
      ((condition as Filter).$in as unknown[]).every(isCountedScalar)
    ) {
      into.set(key, [...new Set((condition as Filter).$in as CountedScalar[])]);
    } else return null;
  }
  return into;
};

/** A SELECT the store is about to run, for tests that check hot queries use their indexes. */
export type StatementObserver = (statement: {
  collection: string;
  sql: string;
  params: unknown[];
  /** The filter's part of the WHERE clause ('1' when SQL filters nothing). */
  where: string;
  /** Whether SQL decides the whole filter (LIMIT and COUNT then run in SQL too). */
  exact: boolean;
}) => void;

export type WriteResult = {
  matchedCount: number;
  modifiedCount: number;
  upsertedCount: number;
  upsertedId: unknown;
};

/** One collection of the embedded read store, with the driver's method names and result shapes. */
export class EmbeddedCollection<TSchema = Doc> {
  private readonly sqlite: Database.Database;
  private readonly catalog: EmbeddedCatalog;
  private readonly observe: StatementObserver | undefined;
  readonly collectionName: string;

  constructor(store: {
    sqlite: Database.Database;
    catalog: EmbeddedCatalog;
    name: string;
    observe?: StatementObserver | undefined;
  }) {
    this.sqlite = store.sqlite;
    this.catalog = store.catalog;
    this.collectionName = store.name;
    this.observe = store.observe;
  }

  private get table() {
    return tableName(this.collectionName);
  }

  /**
   * Compiled statements by SQL text: compiling costs more than running a keyed lookup. Bounded,
   * since `$in` lists of every length give different texts. SQLite recompiles a cached statement
   * itself when another connection changed the schema.
   */
  private readonly statements = new Map<string, Database.Statement>();
  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= 256) this.statements.clear();
      statement = this.sqlite.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** What the catalog knows of this collection's paths, for compileFilter (call after refresh()). */
  private pathKnowledge(): PathKnowledge {
    return {
      singleKeyPaths: this.catalog.singleKeyPaths(this.collectionName),
      dateRangePaths: this.catalog.dateRangePaths(this.collectionName),
      searchPaths: this.catalog.searchPaths(this.collectionName),
      searchPart: (search) => this.catalog.searches.part(search),
    };
  }

  /**
   * A count read from a counted index's counters (embedded-catalog.ts), or null when no counted index
   * can answer: the filter must be equalities and `$in`s of scalars on single-key paths of one
   * counted index (`{}` included). Reads one counter per distinct key instead of every match.
   */
  private countFromCounters(filter: Filter): number | null {
    const conditions = countableConditions(filter);
    if (conditions === null) return null;
    const singleKey = this.catalog.singleKeyPaths(this.collectionName);
    for (const index of this.catalog.countedIndexes(this.collectionName)) {
      const paths = Object.keys(index.key);
      if (![...conditions.keys()].every((path) => paths.includes(path) && singleKey.has(path))) continue;
      const clauses: string[] = [];
      const params: unknown[] = [this.collectionName, index.name];
      for (const [path, values] of conditions) {
        const at = 2 * paths.indexOf(path);
        clauses.push(
          `(${values
            .map((value) => {
              params.push(typeof value === 'boolean' ? (value ? 1 : 0) : value);
              return `(json_extract(key, '$[${at}]') = ? AND json_extract(key, '$[${at + 1}]') IN ${jsonTypesOf(value)})`;
            })
            .join(' OR ')})`,
        );
      }
      const statement = `SELECT COALESCE(SUM(n), 0) FROM _read_store_counts WHERE collection = ? AND name = ?${clauses.map((clause) => ` AND ${clause}`).join('')}`;
      this.observe?.({
        collection: this.collectionName,
        sql: statement,
        params,
        where: clauses.join(' AND ') || '1',
        exact: true,
      });
      return this.prepare(statement)
        .pluck()
        .get(...params) as number;
    }
    return null;
  }

  /**
   * One write transaction. The catalog is reloaded inside the lock first: a write must see every index
   * (this connection's newest included) to mark it multikey or wide-dated when a document calls for it.
   */
  private write<T>(work: () => T): T {
    const result = this.sqlite
      .transaction(() => {
        this.catalog.refresh();
        return work();
      })
      .immediate();
    this.catalog.noteWrites();
    return result;
  }

  // ---- reads ----------------------------------------------------------------------------------

  /** Matching rows in the requested order, read in batches; exact filters get LIMIT/OFFSET in SQL. */
  private *rows(spec: FindSpec): Generator<Row> {
    this.catalog.refresh();
    if (!this.catalog.exists(this.collectionName)) return;
    const plan = compileFilter(spec.filter, this.pathKnowledge());
    const matcher = plan.exact ? null : matcherFor(spec.filter ?? {});
    const sorted = spec.sort !== undefined && Object.keys(spec.sort).length > 0;
    const orderBy = compileSort(spec.sort);
    let toSkip = spec.skip ?? 0;
    let remaining = spec.limit ?? Number.POSITIVE_INFINITY;
    // Exact filters skip in SQL; otherwise the JavaScript check must see the skipped rows too.
    let offset = plan.exact ? toSkip : 0;
    if (plan.exact) toSkip = 0;
    let lastRowid = 0;
    let batch =
      plan.exact && Number.isFinite(remaining)
        ? Math.min(Math.max(remaining, 1), LARGEST_BATCH)
        : FIRST_BATCH;
    if (!sorted && plan.where !== '1') {
      yield* this.filteredRows(plan, { matcher, toSkip, remaining, offset });
      return;
    }
    let first = true;
    for (;;) {
      const statement = sorted
        ? `SELECT rowid, doc, tags FROM ${this.table} WHERE ${plan.where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`
        : `SELECT rowid, doc, tags FROM ${this.table} WHERE (${plan.where}) AND rowid > ? ORDER BY rowid LIMIT ? OFFSET ?`;
      const params = sorted ? [...plan.params, batch, offset] : [...plan.params, lastRowid, batch, offset];
      if (first)
        this.observe?.({
          collection: this.collectionName,
          sql: statement,
          params,
          where: plan.where,
          exact: plan.exact,
        });
      first = false;
      const found = this.prepare(statement).all(...params) as {
        rowid: number;
        doc: string;
        tags: string | null;
      }[];
      if (sorted) offset += found.length;
      else offset = 0;
      for (const row of found) {
        lastRowid = row.rowid;
        const doc = decodeDocument<Doc>(row.doc, row.tags);
        if (matcher && !matcher.test(doc)) continue;
        if (toSkip > 0) {
          toSkip -= 1;
          continue;
        }
        yield { rowid: row.rowid, doc };
        remaining -= 1;
        if (remaining <= 0) return;
      }
      if (found.length < batch) return;
      batch = Math.min(batch * 2, LARGEST_BATCH);
    }
  }

  /**
   * An unsorted scan with a filter: the matching rowids first, in one query through whatever index
   * serves the filter, then the documents in batches by rowid. Batches of `filter AND rowid > ? ORDER
   * BY rowid` made SQLite search the index and sort every match again for each batch: quadratic, over
   * 6 minutes without finishing for one seller's 1M invoices.
   */
  private *filteredRows(
    plan: ReturnType<typeof compileFilter>,
    state: {
      matcher: ReturnType<typeof matcherFor> | null;
      toSkip: number;
      remaining: number;
      offset: number;
    },
  ): Generator<Row> {
    let { toSkip, remaining } = state;
    const bounded = plan.exact && Number.isFinite(remaining);
    if (bounded) {
      // A bounded exact read (a findOne by key, a page): SQLite finds and orders the matches once for
      // the LIMIT either way, so the documents come in the same statement, with no second lookup.
      const statement = `SELECT rowid, doc, tags FROM ${this.table} WHERE ${plan.where} ORDER BY rowid LIMIT ? OFFSET ?`;
      const params = [...plan.params, remaining, state.offset];
      this.observe?.({
        collection: this.collectionName,
        sql: statement,
        params,
        where: plan.where,
        exact: true,
      });
      for (const row of this.prepare(statement).all(...params) as {
        rowid: number;
        doc: string;
        tags: string | null;
      }[])
        yield { rowid: row.rowid, doc: decodeDocument<Doc>(row.doc, row.tags) };
      return;
    }
    const statement = `SELECT rowid FROM ${this.table} WHERE ${plan.where} ORDER BY rowid`;
    const params = plan.params;
    this.observe?.({
      collection: this.collectionName,
      sql: statement,
      params,
      where: plan.where,
      exact: plan.exact,
    });
    const rowids = this.prepare(statement)
      .raw(true)
      .all(...params)
      .map((row) => (row as [number])[0]);
    const byRowids = this.prepare(
      `SELECT rowid, doc, tags FROM ${this.table} WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY rowid`,
    );
    let batch = FIRST_BATCH;
    for (let start = 0; start < rowids.length; start += batch, batch = Math.min(batch * 2, LARGEST_BATCH)) {
      const found = byRowids.all(JSON.stringify(rowids.slice(start, start + batch))) as {
        rowid: number;
        doc: string;
        tags: string | null;
      }[];
      for (const row of found) {
        const doc = decodeDocument<Doc>(row.doc, row.tags);
        if (state.matcher && !state.matcher.test(doc)) continue;
        if (toSkip > 0) {
          toSkip -= 1;
          continue;
        }
        yield { rowid: row.rowid, doc };
        remaining -= 1;
        if (remaining <= 0) return;
      }
    }
  }

  find<T = TSchema>(filter: Filter = {}, options: Omit<FindSpec, 'filter'> = {}): EmbeddedCursor<T> {
    const source = (spec: FindSpec) => this.documents(spec);
    return new EmbeddedCursor<T>(source, { filter, ...options });
  }

  private *documents(spec: FindSpec): Generator<Doc> {
    for (const row of this.rows(spec))
      yield spec.projection ? applyProjection(row.doc, spec.projection) : row.doc;
  }

  async findOne<T = TSchema>(filter: Filter = {}, options: Omit<FindSpec, 'filter'> = {}): Promise<T | null> {
    return this.find<T>(filter, { ...options, limit: 1 }).next();
  }

  /**
   * Every matching document with the document of collection `from` whose `_id` is the value of its
   * `localField` (or null) under `as`, in one statement: the joined row comes from a keyed subquery
   * on `from`'s id, so both come from one snapshot. Not a driver method: lookup-by-key.ts calls it
   * on this store and makes two queries on MongoDB. `localField` holds one id (not an array of them);
   * a row whose id is no number and was not found in the statement is looked up by a keyed read.
   */
  findWithKeyLookup<T = Doc>(
    filter: Filter,
    lookup: { from: string; localField: string; as: string },
  ): Promise<T[]> {
    this.catalog.refresh();
    if (!this.catalog.exists(this.collectionName)) return Promise.resolve([]);
    const plan = compileFilter(filter, this.pathKnowledge());
    const matcher = plan.exact ? null : matcherFor(filter);
    const joins = this.catalog.exists(lookup.from);
    const key = `json_quote(${pathExpression(lookup.localField).replace('(doc,', '(lw_outer.doc,')})`;
    const foreign = tableName(lookup.from);
    const joined = joins
      ? `(SELECT doc FROM ${foreign} WHERE id = ${key}), (SELECT tags FROM ${foreign} WHERE id = ${key})`
      : 'NULL, NULL';
    const statement = `SELECT rowid, doc, tags, ${joined} FROM ${this.table} AS lw_outer WHERE ${plan.where} ORDER BY rowid`;
    this.observe?.({
      collection: this.collectionName,
      sql: statement,
      params: plan.params,
      where: plan.where,
      exact: plan.exact,
    });
    const rows = this.prepare(statement)
      .raw(true)
      .all(...plan.params) as [number, string, string | null, string | null, string | null][];
    const out: T[] = [];
    let others: EmbeddedCollection | undefined;
    for (const [, json, tags, foreignJson, foreignTags] of rows) {
      const doc = decodeDocument<Doc>(json, tags);
      if (matcher && !matcher.test(doc)) continue;
      let value: unknown = doc;
      for (const segment of lookup.localField.split('.')) {
        value = value !== null && typeof value === 'object' ? (value as Doc)[segment] : undefined;
      }
      let found: Doc | null = foreignJson === null ? null : decodeDocument<Doc>(foreignJson, foreignTags);
      if (found === null && joins && value !== undefined && value !== null) {
        // A number's JSON text is its key; other ids (strings with escapes, ObjectIds, dates) are
        // checked by a keyed read rather than trusting SQLite's quoting to equal idKey's.
        if (typeof value !== 'number') {
          others ??= new EmbeddedCollection({
            sqlite: this.sqlite,
            catalog: this.catalog,
            name: lookup.from,
            observe: this.observe,
          });
          found = others.findOneNow(value);
        }
      }
      doc[lookup.as] = found;
      out.push(doc as T);
    }
    return Promise.resolve(out);
  }

  /** The document with this `_id`, read at once (findWithKeyLookup's fallback). */
  private findOneNow(id: unknown): Doc | null {
    const row = this.prepare(`SELECT doc, tags FROM ${this.table} WHERE id = ?`).raw(true).get(idKey(id)) as
      [string, string | null] | undefined;
    return row ? decodeDocument<Doc>(row[0], row[1]) : null;
  }

  countDocuments(filter: Filter = {}, options: { skip?: number; limit?: number } = {}): Promise<number> {
    this.catalog.refresh();
    if (!this.catalog.exists(this.collectionName)) return Promise.resolve(0);
    if (options.skip === undefined && options.limit === undefined) {
      const counted = this.countFromCounters(filter);
      if (counted !== null) return Promise.resolve(counted);
    }
    const plan = compileFilter(filter, this.pathKnowledge());
    if (plan.exact) {
      const limit = options.limit ?? -1;
      const count = this.prepare(
        `SELECT COUNT(*) FROM (SELECT 1 FROM ${this.table} WHERE ${plan.where} LIMIT ? OFFSET ?)`,
      )
        .pluck()
        .get(...plan.params, limit, options.skip ?? 0) as number;
      return Promise.resolve(count);
    }
    let count = 0;
    for (const _row of this.rows({ filter, skip: options.skip, limit: options.limit })) count += 1;
    return Promise.resolve(count);
  }

  /** The distinct values of a path among matching documents; array values count element by element. */
  distinct(path: string, filter: Filter = {}): Promise<unknown[]> {
    const seen = new Map<string, unknown>();
    const note = (value: unknown) => {
      if (value === undefined) return;
      if (Array.isArray(value)) value.forEach(note);
      else seen.set(idKey(value), value);
    };
    for (const row of this.rows({ filter })) {
      let value: unknown = row.doc;
      for (const segment of path.split('.')) {
        value = value !== null && typeof value === 'object' ? (value as Doc)[segment] : undefined;
      }
      note(value);
    }
    return Promise.resolve([...seen.values()]);
  }

  estimatedDocumentCount(): Promise<number> {
    return this.countDocuments({});
  }

  aggregate<T = Doc>(pipeline: Record<string, unknown>[]): EmbeddedCursor<T> {
    const [first, ...rest] = pipeline;
    const match = first && '$match' in first ? (first.$match as Filter) : undefined;
    const stages = match ? rest : pipeline;
    const source = () => {
      const input = [...this.documents({ filter: match ?? {} })];
      return (function* () {
        yield* new Aggregator(stages).run(input) as T[];
      })();
    };
    return new EmbeddedCursor<T>(source, { filter: {} });
  }

  // ---- writes ---------------------------------------------------------------------------------

  /**
   * Marks indexes multikey when this document puts an array on one of their paths, and as holding wide
   * dates when it puts a date outside the 13-digit range there (both keep SQL from deciding too much).
   */
  private notePaths(doc: Doc) {
    for (const index of this.catalog.indexesOf(this.collectionName)) {
      const arrays = Object.keys(index.key).filter(
        (path) => !index.multikeyPaths.includes(path) && hasArrayOnPath(doc, path),
      );
      if (arrays.length > 0) {
        this.catalog.markMultikey(this.collectionName, index.name, arrays);
        this.catalog.refresh();
      }
      if (!index.wideDates && Object.keys(index.key).some((path) => hasWideDateOnPath(doc, path))) {
        this.catalog.markWideDates(this.collectionName, index.name);
        this.catalog.refresh();
      }
    }
  }

  private insertRow(doc: Doc): unknown {
    if (doc._id === undefined) doc._id = new ObjectId();
    this.catalog.ensureTable(this.collectionName);
    this.notePaths(doc);
    const encoded = encodeDocument(doc);
    try {
      this.prepare(`INSERT INTO ${this.table} (id, doc, tags) VALUES (?, ?, ?)`).run(
        idKey(doc._id),
        encoded.json,
        encoded.tags,
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateKeyError(this.collectionName, doc._id);
      throw error;
    }
    return doc._id;
  }

  private replaceRow(rowid: number, before: Doc, after: Doc): boolean {
    if (idKey(after._id) !== idKey(before._id)) {
      throw new MongoServerError({
        message: "Performing an update on the path '_id' would modify the immutable field '_id'",
        code: 66,
      });
    }
    const encoded = encodeDocument(after);
    const previous = encodeDocument(before);
    if (encoded.json === previous.json && encoded.tags === previous.tags) return false;
    this.notePaths(after);
    try {
      this.prepare(`UPDATE ${this.table} SET doc = ?, tags = ? WHERE rowid = ?`).run(
        encoded.json,
        encoded.tags,
        rowid,
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateKeyError(this.collectionName, after._id);
      throw error;
    }
    return true;
  }

  private applyUpdate(doc: Doc, update: UpdateSpec, inserting: boolean): Doc {
    if (Array.isArray(update))
      throw new Error('Update pipelines are not supported by the embedded read store.');
    const { $setOnInsert, ...modifier } = update as Record<string, Record<string, unknown> | undefined>;
    const next = cloneDocument(doc);
    const operators =
      inserting && $setOnInsert ? { ...modifier, $set: { ...modifier.$set, ...$setOnInsert } } : modifier;
    for (const operator of Object.keys(operators)) {
      if (!operator.startsWith('$'))
        throw new Error('An update needs operators ($set, $inc...); use replaceOne to replace.');
    }
    if (Object.keys(operators).length > 0 && !applyDirectUpdate(next, operators))
      applyModifier(next, operators as Parameters<typeof applyModifier>[1]);
    return next;
  }

  private updateWhere(
    filter: Filter,
    change: { update?: UpdateSpec; replacement?: Doc },
    options: { upsert?: boolean; multi: boolean; sort?: Record<string, 1 | -1> },
  ): WriteResult & { before: Doc | null; after: Doc | null } {
    const matches = [...this.rows({ filter, sort: options.sort, ...(options.multi ? {} : { limit: 1 }) })];
    let modifiedCount = 0;
    let before: Doc | null = null;
    let after: Doc | null = null;
    for (const row of matches) {
      const next = change.replacement
        ? { _id: row.doc._id, ...change.replacement }
        : this.applyUpdate(row.doc, change.update ?? {}, false);
      if (next._id === undefined) next._id = row.doc._id;
      if (this.replaceRow(row.rowid, row.doc, next)) modifiedCount += 1;
      before ??= row.doc;
      after ??= next;
    }
    if (matches.length > 0 || !options.upsert) {
      return {
        matchedCount: matches.length,
        modifiedCount,
        upsertedCount: 0,
        upsertedId: null,
        before,
        after,
      };
    }
    const base = equalityFields(filter);
    const inserted = change.replacement
      ? { ...(base._id === undefined ? {} : { _id: base._id }), ...change.replacement }
      : this.applyUpdate(base, change.update ?? {}, true);
    const upsertedId = this.insertRow(inserted);
    return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId, before: null, after: inserted };
  }

  private static result(result: WriteResult) {
    return {
      acknowledged: true,
      matchedCount: result.matchedCount,
      modifiedCount: result.modifiedCount,
      upsertedCount: result.upsertedCount,
      upsertedId: result.upsertedId,
    };
  }

  insertOne(doc: Doc) {
    return this.attempt(() => ({ acknowledged: true, insertedId: this.write(() => this.insertRow(doc)) }));
  }

  insertMany(docs: Doc[], options: { ordered?: boolean } = {}) {
    return this.bulkWrite(
      docs.map((document) => ({ insertOne: { document } })),
      options,
    ).then((result) => ({
      acknowledged: true,
      insertedCount: result.insertedCount,
      insertedIds: result.insertedIds,
    }));
  }

  updateOne(
    filter: Filter,
    update: UpdateSpec,
    options: { upsert?: boolean; sort?: Record<string, 1 | -1> } = {},
  ) {
    return this.attempt(() =>
      EmbeddedCollection.result(
        this.write(() => this.updateWhere(filter, { update }, { ...options, multi: false })),
      ),
    );
  }

  updateMany(filter: Filter, update: UpdateSpec, options: { upsert?: boolean } = {}) {
    return this.attempt(() =>
      EmbeddedCollection.result(
        this.write(() => this.updateWhere(filter, { update }, { ...options, multi: true })),
      ),
    );
  }

  replaceOne(filter: Filter, replacement: Doc, options: { upsert?: boolean } = {}) {
    return this.attempt(() =>
      EmbeddedCollection.result(
        this.write(() => this.updateWhere(filter, { replacement }, { ...options, multi: false })),
      ),
    );
  }

  findOneAndUpdate(
    filter: Filter,
    update: UpdateSpec,
    options: {
      upsert?: boolean;
      returnDocument?: 'before' | 'after';
      sort?: Record<string, 1 | -1>;
      projection?: Record<string, unknown>;
    } = {},
  ) {
    return this.attempt(() => {
      const outcome = this.write(() => this.updateWhere(filter, { update }, { ...options, multi: false }));
      const doc = options.returnDocument === 'after' ? outcome.after : outcome.before;
      return doc && options.projection ? applyProjection(doc, options.projection) : doc;
    });
  }

  findOneAndDelete(filter: Filter, options: { sort?: Record<string, 1 | -1> } = {}) {
    return this.attempt(() =>
      this.write(() => {
        const [row] = [...this.rows({ filter, sort: options.sort, limit: 1 })];
        if (!row) return null;
        this.prepare(`DELETE FROM ${this.table} WHERE rowid = ?`).run(row.rowid);
        return row.doc;
      }),
    );
  }

  private deleteWhere(filter: Filter, multi: boolean): number {
    this.catalog.refresh();
    if (!this.catalog.exists(this.collectionName)) return 0;
    const plan = compileFilter(filter, this.pathKnowledge());
    if (plan.exact && multi) {
      return this.prepare(`DELETE FROM ${this.table} WHERE ${plan.where}`).run(...plan.params).changes;
    }
    const rowids = [...this.rows({ filter, ...(multi ? {} : { limit: 1 }) })].map((row) => row.rowid);
    const remove = this.prepare(`DELETE FROM ${this.table} WHERE rowid = ?`);
    for (const rowid of rowids) remove.run(rowid);
    return rowids.length;
  }

  deleteOne(filter: Filter = {}) {
    return this.attempt(() => ({
      acknowledged: true,
      deletedCount: this.write(() => this.deleteWhere(filter, false)),
    }));
  }

  deleteMany(filter: Filter = {}) {
    return this.attempt(() => ({
      acknowledged: true,
      deletedCount: this.write(() => this.deleteWhere(filter, true)),
    }));
  }

  /** The driver's bulkWrite: one SQLite transaction; errors are collected as the driver reports them. */
  bulkWrite(operations: Record<string, Record<string, unknown>>[], options: { ordered?: boolean } = {}) {
    const ordered = options.ordered ?? true;
    const result = {
      ok: 1,
      insertedCount: 0,
      matchedCount: 0,
      modifiedCount: 0,
      deletedCount: 0,
      upsertedCount: 0,
      insertedIds: {} as Record<number, unknown>,
      upsertedIds: {} as Record<number, unknown>,
    };
    // The driver's WriteError class is not exported as a value; its fields are what callers read.
    const writeErrors: { code: number; index: number; errmsg: string; errInfo: object; op: unknown }[] = [];
    this.write(() => {
      operations.forEach((operation, index) => {
        if (ordered && writeErrors.length > 0) return;
        try {
          this.applyOperation(operation, index, result);
        } catch (error) {
          if (!(error instanceof MongoServerError)) throw error;
          writeErrors.push({
            code: Number(error.code),
            index,
            errmsg: error.message,
            errInfo: {},
            op: operation,
          });
        }
      });
    });
    if (writeErrors.length > 0) {
      const error = new MongoBulkWriteError(
        { message: writeErrors[0]!.errmsg, code: writeErrors[0]!.code, writeErrors } as never,
        result as never,
      );
      return Promise.reject(error);
    }
    return Promise.resolve({ acknowledged: true, ...result });
  }

  private applyOperation(
    operation: Record<string, Record<string, unknown>>,
    index: number,
    result: {
      insertedCount: number;
      matchedCount: number;
      modifiedCount: number;
      deletedCount: number;
      upsertedCount: number;
      insertedIds: Record<number, unknown>;
      upsertedIds: Record<number, unknown>;
    },
  ) {
    const [kind] = Object.keys(operation);
    const spec = operation[kind!]!;
    const count = (outcome: WriteResult) => {
      result.matchedCount += outcome.matchedCount;
      result.modifiedCount += outcome.modifiedCount;
      result.upsertedCount += outcome.upsertedCount;
      if (outcome.upsertedCount > 0) result.upsertedIds[index] = outcome.upsertedId;
    };
    switch (kind) {
      case 'insertOne':
        result.insertedIds[index] = this.insertRow(spec.document as Doc);
        result.insertedCount += 1;
        return;
      case 'updateOne':
      case 'updateMany':
        count(
          this.updateWhere(
            spec.filter as Filter,
            { update: spec.update as UpdateSpec },
            {
              upsert: spec.upsert as boolean | undefined,
              multi: kind === 'updateMany',
            },
          ),
        );
        return;
      case 'replaceOne':
        count(
          this.updateWhere(
            spec.filter as Filter,
            { replacement: spec.replacement as Doc },
            {
              upsert: spec.upsert as boolean | undefined,
              multi: false,
            },
          ),
        );
        return;
      case 'deleteOne':
      case 'deleteMany':
        result.deletedCount += this.deleteWhere(spec.filter as Filter, kind === 'deleteMany');
        return;
      case undefined:
      default:
        throw new Error(`bulkWrite operation ${String(kind)} is not supported by the embedded read store.`);
    }
  }

  private attempt<T>(work: () => T): Promise<T> {
    try {
      return Promise.resolve(work());
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rethrows what the work threw
      return Promise.reject(error);
    }
  }

  // ---- indexes --------------------------------------------------------------------------------

  /**
   * MongoDB's createIndex, plus two options of this store (IndexOptions, embedded-catalog.ts): `counted`
   * keeps counts per distinct key, `search` makes a trigram search index instead of a B-tree. Declared
   * indexes pass them only here (declared-indexes.ts); MongoDB is never sent them.
   */
  createIndex(
    key: Record<string, 1 | -1>,
    options: { name?: string; unique?: boolean } & IndexOptions = {},
  ): Promise<string> {
    const name = options.name ?? defaultIndexName(key);
    return this.attempt(() => {
      this.write(() => {
        this.catalog.refresh();
        this.catalog.createIndex(this.collectionName, {
          name,
          key,
          unique: options.unique ?? false,
          counted: options.counted ?? false,
          search: options.search ?? false,
        });
      });
      return name;
    });
  }

  async createIndexes(
    specs: ({ key: Record<string, 1 | -1>; name?: string; unique?: boolean } & IndexOptions)[],
  ): Promise<string[]> {
    const names: string[] = [];
    for (const spec of specs) names.push(await this.createIndex(spec.key, spec));
    return names;
  }

  listIndexes() {
    this.catalog.refresh();
    const indexes = [
      { v: 2, key: { _id: 1 }, name: '_id_' },
      ...this.catalog.indexesOf(this.collectionName).map((index) => ({
        v: 2,
        key: index.key,
        name: index.name,
        ...(index.unique ? { unique: true } : {}),
        ...(index.counted ? { counted: true } : {}),
        ...(index.search ? { search: true } : {}),
      })),
    ];
    return { toArray: () => Promise.resolve(this.catalog.exists(this.collectionName) ? indexes : []) };
  }

  indexes() {
    return this.listIndexes().toArray();
  }

  drop(): Promise<boolean> {
    return this.attempt(() =>
      this.write(() => {
        this.catalog.refresh();
        return this.catalog.dropCollection(this.collectionName);
      }),
    );
  }

  /** The query plan SQLite chose for a filter and sort: tests use it to prove hot queries use their index. */
  explainSql(filter: Filter, sort?: Record<string, 1 | -1>): { plan: string[]; exact: boolean } {
    this.catalog.refresh();
    const plan = compileFilter(filter, this.pathKnowledge());
    const statement = `EXPLAIN QUERY PLAN SELECT rowid, doc, tags FROM ${this.table} WHERE ${plan.where} ORDER BY ${compileSort(sort)} LIMIT 20`;
    const details = this.prepare(statement).all(...plan.params) as { detail: string }[];
    return { plan: details.map((row) => row.detail), exact: plan.exact };
  }
}
