import { idKey, isDate } from './document-codec';

/**
 * The SQL half of a query on the embedded read store. MongoDB's filter language is evaluated exactly
 * in JavaScript (mingo) on every row SQLite returns; this module turns the parts of a filter that
 * SQLite can decide (and serve from an index) into a WHERE clause that selects a superset of the
 * matching rows. When every part of the filter was translated exactly, `exact` is true and the caller
 * can push LIMIT, OFFSET and COUNT into SQL as well.
 *
 * Exactness needs to know that a path never holds an array (MongoDB's `{tags: "x"}` matches an array
 * containing "x", which json_extract cannot see). That is known for indexed paths: the store marks an
 * index multikey as soon as a document puts an array on one of its paths, as MongoDB does, and only
 * single-key indexed paths are translated exactly. Other top-level paths get a superset test that
 * also lets array-valued rows through to the exact check.
 */
export type SqlFilter = { where: string; params: unknown[]; exact: boolean };

/** The SQL expression of a document path; the same text is used in CREATE INDEX, so SQLite matches them. */
export const pathExpression = (path: string): string => {
  if (!/^[A-Za-z0-9_$][A-Za-z0-9_$.-]*$/.test(path) || path.includes('..')) {
    throw new Error(`The embedded read store cannot index or filter on the path "${path}".`);
  }
  const segments = path.split('.').map((segment) => `"${segment}"`);
  return `json_extract(doc, '$.${segments.join('.')}')`;
};

const typeExpression = (path: string) => pathExpression(path).replace('json_extract', 'json_type');

type Scalar = string | number | boolean;
const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  typeof value === 'boolean';

/** The json_type a scalar of this JavaScript type has when stored. */
const jsonTypesOf = (value: Scalar): string => {
  if (typeof value === 'string') return `('text')`;
  if (typeof value === 'number') return `('integer', 'real')`;
  return value ? `('true')` : `('false')`;
};
const sqlValue = (value: Scalar) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

const LONG_IN_LIST = 500;

const RANGE_OPERATORS: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

export type PathKnowledge = {
  /** Paths of single-key indexes: never arrays, so equality and ranges on them translate exactly. */
  singleKeyPaths: ReadonlySet<string>;
  /**
   * Single-key indexed paths whose stored dates all have 13 digits of milliseconds (2001-09-09 to
   * 2286-11-20; the catalog's wide_dates flag): there `{"$date":<ms>}` sorts as text as the dates do,
   * so a date range is an index range. Absent: no date range goes to SQL.
   */
  dateRangePaths?: ReadonlySet<string>;
  /**
   * Paths of search indexes (embedded-catalog.ts): the FTS5 table and column that hold each one's
   * value. A contains-search of 3 characters or more on one of them becomes a trigram MATCH there.
   */
  searchPaths?: ReadonlyMap<string, { table: string; column: string }>;
  /**
   * The part of a searched text to look up in a search index (search-statistics.ts: the part whose
   * trigrams cost least to read); the whole text when absent. Any part is a superset of the matches.
   */
  searchPart?: (search: { table: string; columns: string[]; text: string }) => string;
};

/** The stored JSON of a date (document-codec.ts), which json_extract returns for the path. */
const storedDate = (ms: number) => `{"$date":${ms}}`;
/** Every stored date's text lies between these two: ':' is followed by ';' in ASCII. */
const DATE_TEXT_FLOOR = '{"$date":';
const DATE_TEXT_CEILING = '{"$date";';
const isNarrowDate = (ms: number) => Number.isInteger(ms) && ms >= 1e12 && ms < 1e13;

type Clause = {
  sql: string;
  params: unknown[];
  exact: boolean;
  /** A search index lookup (searchClause): `$or` branches on one FTS5 table become one lookup. */
  search?: { table: string; columns: string[]; text: string };
};

const REGEX_SYNTAX = new Set([...'.*+?^${}()|[]\\/']);

/**
 * The text a regular expression looks for when it is a plain "contains" search (what the admin search
 * boxes send, search-pattern.ts): only literal characters, metacharacters escaped, no flag but `i`.
 * Printable ASCII only, without quotes or backslashes, so that SQLite's lower() folds case exactly as
 * the `i` flag does and the text reads the same inside a JSON array's text. Null for anything else.
 */
const literalOf = (pattern: RegExp): string | null => {
  if (pattern.flags !== '' && pattern.flags !== 'i') return null;
  let text = '';
  for (let index = 0; index < pattern.source.length; index += 1) {
    let char = pattern.source[index]!;
    if (char === '\\') {
      index += 1;
      char = pattern.source[index] ?? '';
      if (!REGEX_SYNTAX.has(char)) return null; // \d, \b and the like are classes, not characters
    } else if (REGEX_SYNTAX.has(char)) return null;
    text += char;
  }
  if (text === '' || !/^[\x20-\x7e]*$/.test(text) || /["\\]/.test(text)) return null;
  return text;
};

/**
 * A contains-search as a SQL superset: instr() over the path's value (or its JSON text when it is an
 * array) finds every row the pattern can match without decoding a document; mingo then decides.
 */
const containsClause = (path: string, pattern: RegExp): Clause | null => {
  const text = literalOf(pattern);
  if (text === null) return null;
  const value = pathExpression(path);
  return pattern.flags === 'i'
    ? { sql: `instr(lower(${value}), ?) > 0`, params: [text.toLowerCase()], exact: false }
    : { sql: `instr(${value}, ?) > 0`, params: [text], exact: false };
};

/** The trigram tokenizer indexes every 3 characters: shorter texts cannot be looked up in it. */
const TRIGRAM = 3;

/**
 * A contains-search served by a search index: the rows whose FTS5 column holds the text, as a phrase
 * of trigrams (the tokenizer folds ASCII case, so this is a superset of an `i` search as of a
 * case-sensitive one). Still checked by mingo: the column holds an array's or a number's text too.
 */
const searchClause = (
  pattern: RegExp,
  index: { table: string; column: string } | undefined,
): Clause | null => {
  const text = literalOf(pattern);
  if (index === undefined || text === null || text.length < TRIGRAM) return null;
  return searchLookup({ table: index.table, columns: [index.column], text });
};

/**
 * A MATCH parameter, written once the filter is compiled: `$or` branches merge their lookups first,
 * so the part of the text to look up (PathKnowledge.searchPart) is chosen once per lookup.
 */
class SearchParam {
  constructor(readonly search: { table: string; columns: string[]; text: string }) {}

  text(knowledge: PathKnowledge): string {
    const { columns, text } = this.search;
    return `{${columns.join(' ')}} : "${knowledge.searchPart?.(this.search) ?? text}"`;
  }
}

const searchLookup = (search: { table: string; columns: string[]; text: string }): Clause => ({
  sql: `rowid IN (SELECT rowid FROM ${search.table} WHERE ${search.table} MATCH ?)`,
  params: [new SearchParam(search)],
  exact: false,
  search,
});

/**
 * `$or` branches that search one FTS5 table for one text (name or email contains it) as a single
 * lookup over their columns; branches that match nothing are left out.
 */
const mergeSearches = (branches: Clause[]): Clause[] => {
  const merged: Clause[] = [];
  const byTable = new Map<string, Clause>();
  for (const branch of branches) {
    if (branch.sql === '0') continue;
    const search = branch.search;
    if (!search) {
      merged.push(branch);
      continue;
    }
    const key = `${search.table}\u0000${search.text}`;
    const earlier = byTable.get(key);
    if (!earlier?.search) {
      const clause = searchLookup(search);
      byTable.set(key, clause);
      merged.push(clause);
      continue;
    }
    const columns = [...new Set([...earlier.search.columns, ...search.columns])];
    Object.assign(earlier, searchLookup({ ...search, columns }));
  }
  return merged.length > 0 ? merged : [{ sql: '0', params: [], exact: true }];
};

const conditionOnPath = (path: string, condition: unknown, knowledge: PathKnowledge): Clause | null => {
  if (path === '_id') {
    if (isScalar(condition) && typeof condition !== 'boolean') {
      return { sql: 'id = ?', params: [idKey(condition)], exact: true };
    }
    if (isOperatorObject(condition) && Object.keys(condition).length === 1 && Array.isArray(condition.$in)) {
      const values = condition.$in as unknown[];
      if (values.every((value) => isScalar(value) && typeof value !== 'boolean')) {
        if (values.length === 0) return { sql: '0', params: [], exact: true };
        return { sql: `id IN (${values.map(() => '?').join(', ')})`, params: values.map(idKey), exact: true };
      }
    }
    return null;
  }
  const singleKey = knowledge.singleKeyPaths.has(path);
  const topLevel = !path.includes('.');
  const expression = pathExpression(path);
  if (isDate(condition)) {
    // Equality on the stored text is exact for any date: JSON.stringify writes integer ms one way.
    const ms = condition.getTime();
    if (!Number.isFinite(ms)) return null;
    if (singleKey) {
      return {
        sql: `${expression} = ? AND ${typeExpression(path)} = 'object'`,
        params: [storedDate(ms)],
        exact: true,
      };
    }
    if (topLevel) {
      return {
        sql: `(${expression} = ? OR ${typeExpression(path)} = 'array')`,
        params: [storedDate(ms)],
        exact: false,
      };
    }
    return null;
  }
  if (isScalar(condition)) {
    if (singleKey) {
      return {
        sql: `${expression} = ? AND ${typeExpression(path)} IN ${jsonTypesOf(condition)}`,
        params: [sqlValue(condition)],
        exact: true,
      };
    }
    if (topLevel) {
      return {
        sql: `(${expression} = ? OR ${typeExpression(path)} = 'array')`,
        params: [sqlValue(condition)],
        exact: false,
      };
    }
    return null;
  }
  // A dotted path through an array of documents reads as NULL in SQL: only paths known to hold no
  // array on the way (top-level ones, or single-key indexed ones) can narrow a regex search.
  if (condition instanceof RegExp) {
    const searched = searchClause(condition, knowledge.searchPaths?.get(path));
    if (searched) return searched;
    return singleKey || topLevel ? containsClause(path, condition) : null;
  }
  if (!isOperatorObject(condition)) return null;
  const parts: Clause[] = [];
  let exact = true;
  for (const [operator, operand] of Object.entries(condition)) {
    if (operator === '$in' && Array.isArray(operand) && operand.length === 0) {
      parts.push({ sql: '0', params: [], exact: true }); // matches nothing, as in MongoDB
      continue;
    }
    if (operator === '$in' && Array.isArray(operand) && operand.length > 0 && operand.every(isScalar)) {
      const types = new Set(operand.map((value) => jsonTypesOf(value)));
      // A long list (every tenant a search names) is one JSON parameter: SQLite takes 32,766 at most.
      const long = operand.length > LONG_IN_LIST && operand.every((value) => typeof value !== 'boolean');
      const placeholders = long ? 'SELECT value FROM json_each(?)' : operand.map(() => '?').join(', ');
      const values = long ? [JSON.stringify(operand)] : operand.map((value) => sqlValue(value));
      if (singleKey && types.size === 1) {
        parts.push({
          sql: `${expression} IN (${placeholders}) AND ${typeExpression(path)} IN ${[...types][0]}`,
          params: values,
          exact: true,
        });
      } else if (topLevel) {
        parts.push({
          sql: `(${expression} IN (${placeholders}) OR ${typeExpression(path)} = 'array')`,
          params: values,
          exact: false,
        });
        exact = false;
      } else exact = false;
      continue;
    }
    const comparison = RANGE_OPERATORS[operator];
    if (comparison && isDate(operand)) {
      // MongoDB compares dates only with dates: the bounds keep strings and other objects out.
      if (knowledge.dateRangePaths?.has(path) && isNarrowDate(operand.getTime())) {
        parts.push({
          sql: `${expression} ${comparison} ? AND ${expression} > ? AND ${expression} < ? AND ${typeExpression(path)} = 'object'`,
          params: [storedDate(operand.getTime()), DATE_TEXT_FLOOR, DATE_TEXT_CEILING],
          exact: true,
        });
      } else exact = false;
      continue;
    }
    if (
      comparison &&
      (typeof operand === 'string' || (typeof operand === 'number' && Number.isFinite(operand)))
    ) {
      if (singleKey) {
        parts.push({
          sql: `${expression} ${comparison} ? AND ${typeExpression(path)} IN ${jsonTypesOf(operand)}`,
          params: [operand],
          exact: true,
        });
      } else exact = false;
      continue;
    }
    exact = false;
  }
  if (parts.length === 0) return null;
  return {
    sql: parts.map((part) => part.sql).join(' AND '),
    params: parts.flatMap((part) => part.params),
    exact: exact && parts.every((part) => part.exact),
  };
};

const isOperatorObject = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  !isDate(value) &&
  !(value instanceof RegExp) &&
  Object.keys(value).length > 0 &&
  Object.keys(value).every((key) => key.startsWith('$'));

const compileConjunction = (filter: Record<string, unknown>, knowledge: PathKnowledge): Clause => {
  const parts: Clause[] = [];
  let exact = true;
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(condition)) {
      for (const branch of condition as Record<string, unknown>[]) {
        const clause = compileConjunction(branch, knowledge);
        if (clause.sql !== '1') parts.push(clause);
        exact &&= clause.exact;
      }
      continue;
    }
    if (key === '$or' && Array.isArray(condition) && condition.length > 0) {
      // Every branch must narrow the rows, or the $or as a whole selects everything.
      const branches = mergeSearches(
        (condition as Record<string, unknown>[]).map((branch) => compileConjunction(branch, knowledge)),
      );
      if (branches.some((branch) => branch.sql === '1')) exact = false;
      else {
        parts.push({
          sql: branches.map((branch) => `(${branch.sql})`).join(' OR '),
          params: branches.flatMap((branch) => branch.params),
          exact: branches.every((branch) => branch.exact),
        });
        exact &&= branches.every((branch) => branch.exact);
      }
      continue;
    }
    if (key.startsWith('$')) {
      exact = false;
      continue;
    }
    const clause = conditionOnPath(key, condition, knowledge);
    if (clause === null) exact = false;
    else {
      parts.push(clause);
      exact &&= clause.exact;
    }
  }
  if (parts.length === 0) return { sql: '1', params: [], exact };
  if (parts.length === 1 && parts[0]!.search) return parts[0]!;
  if (parts.length === 1 && parts[0]!.sql === '0' && exact) return parts[0]!;
  return {
    sql: parts.map((part) => `(${part.sql})`).join(' AND '),
    params: parts.flatMap((part) => part.params),
    exact,
  };
};

export const compileFilter = (
  filter: Record<string, unknown> | undefined,
  knowledge: PathKnowledge,
): SqlFilter => {
  const clause = compileConjunction(filter ?? {}, knowledge);
  const params = clause.params.map((param) => (param instanceof SearchParam ? param.text(knowledge) : param));
  return { where: clause.sql, params, exact: clause.exact };
};

/** ORDER BY for a MongoDB sort; ties keep insertion order, as a collection scan would. */
export const compileSort = (sort: Record<string, 1 | -1> | undefined): string => {
  const keys = Object.entries(sort ?? {}).map(([path, direction]) =>
    path === '$natural'
      ? `rowid ${direction === -1 ? 'DESC' : 'ASC'}`
      : `${pathExpression(path)} ${direction === -1 ? 'DESC' : 'ASC'}`,
  );
  return [...keys, 'rowid'].join(', ');
};
