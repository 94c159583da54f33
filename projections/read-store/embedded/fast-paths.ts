import { Query } from 'mingo';
import { Binary, ObjectId } from 'mongodb';
import { cloneDocument, isDate } from './document-codec';

type Doc = Record<string, unknown>;

/**
 * mingo copies its whole operator table each time a Query is built (about 70 µs, against under 3 µs
 * to test a document), and `update` does the same for every call (about 250 µs). Those copies were
 * the largest single cost of a request that reads or writes a read model, so this module keeps built
 * matchers by the filter's content and applies the update operators the projections use ($set,
 * $unset, $inc) directly, handing anything else to mingo.
 */

/** A key that tells filters apart exactly: dates, ObjectIds and regular expressions are tagged. */
const filterKey = (value: unknown): string => {
  if (value === undefined) return 'u';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (isDate(value)) return `D${value.getTime()}`;
  if (value instanceof RegExp) return `R${JSON.stringify([value.source, value.flags])}`;
  if (value instanceof ObjectId) return `O${value.toHexString()}`;
  if (value instanceof Binary || ArrayBuffer.isView(value)) return `B${JSON.stringify(value)}`;
  if (Array.isArray(value)) return `[${value.map(filterKey).join(',')}]`;
  // Key order is kept: it is part of what an embedded-document equality means.
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}:${filterKey(v)}`)
    .join(',')}}`;
};

/** A deep copy of a filter; unlike a document copy it keeps regular expressions. */
const copyFilter = (value: unknown): unknown => {
  if (value instanceof RegExp) return new RegExp(value.source, value.flags);
  if (Array.isArray(value)) return value.map(copyFilter);
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyFilter(v)]));
  return cloneDocument(value);
};

const MATCHERS_KEPT = 512;
const matchers = new Map<string, Query>();

/** What the store asks of a matcher. */
export type Matcher = Pick<Query, 'test'>;

const RANGES: Record<string, (a: number, b: number) => boolean> = {
  $lt: (a, b) => a < b,
  $lte: (a, b) => a <= b,
  $gt: (a, b) => a > b,
  $gte: (a, b) => a >= b,
};
type Condition = {
  field: string;
  equals?: string | number | boolean;
  ranges: [(a: number, b: number) => boolean, number][];
};
const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' ||
  (typeof value === 'number' && !Number.isNaN(value)) ||
  typeof value === 'boolean';

/**
 * The conditions of a filter made only of top-level fields equal to a string, number or boolean, or
 * compared with $lt/$lte/$gt/$gte to a number (`{ _id, position: { $lt: p } }`, the projectors'
 * guarded writes); null for anything else. Such filters differ in every value, so a kept mingo
 * matcher was never reused and each write built one (about 70 µs).
 */
const simpleConditions = (filter: Doc): Condition[] | null => {
  const conditions: Condition[] = [];
  for (const [field, value] of Object.entries(filter)) {
    if (field.startsWith('$') || field.includes('.')) return null;
    if (isScalar(value)) {
      conditions.push({ field, equals: value, ranges: [] });
      continue;
    }
    if (!isPlainObject(value)) return null;
    const ranges: Condition['ranges'] = [];
    for (const [operator, bound] of Object.entries(value)) {
      const compare = RANGES[operator];
      if (!compare || typeof bound !== 'number' || Number.isNaN(bound)) return null;
      ranges.push([compare, bound]);
    }
    if (ranges.length === 0) return null;
    conditions.push({ field, ranges });
  }
  return conditions;
};

/**
 * Tests a document against simple conditions as MongoDB would: equality with a scalar is strict
 * (no type conversion), a numeric range matches numbers only. A field holding an array or an object
 * (where MongoDB's array and embedded-document rules apply) is left to mingo.
 */
const directMatcher = (filter: Doc, conditions: Condition[]): Matcher => {
  let fallback: Query | undefined;
  return {
    test: (doc: Doc) => {
      for (const { field, equals, ranges } of conditions) {
        const value = doc[field];
        if (value !== null && typeof value === 'object' && !isDate(value)) {
          fallback ??= new Query(copyFilter(filter) as Doc);
          return fallback.test(doc);
        }
        if (equals !== undefined) {
          if (value !== equals) return false;
        } else if (typeof value !== 'number' || !ranges.every(([compare, bound]) => compare(value, bound)))
          return false;
      }
      return true;
    },
  };
};

/** A matcher for the filter: direct for simple filters, else mingo's, built once per distinct filter (bounded). */
export const matcherFor = (filter: Doc): Matcher => {
  const conditions = simpleConditions(filter);
  if (conditions) return directMatcher(filter, conditions);
  const key = filterKey(filter);
  let matcher = matchers.get(key);
  if (!matcher) {
    if (matchers.size >= MATCHERS_KEPT) matchers.clear();
    // Built from a copy: a caller that later mutates its filter must not change the kept matcher.
    matcher = new Query(copyFilter(filter) as Doc);
    matchers.set(key, matcher);
  }
  return matcher;
};

const DIRECT_OPERATORS = new Set(['$set', '$unset', '$inc']);
const isPlainObject = (value: unknown): value is Doc =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  !isDate(value) &&
  !(value instanceof ObjectId) &&
  !(value instanceof Binary) &&
  !ArrayBuffer.isView(value) &&
  !(value instanceof RegExp);

/** Whether two dotted paths are the same field or one holds the other (MongoDB refuses both). */
const overlaps = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

/**
 * The object holding the path's last segment, creating missing objects on the way when `create`;
 * undefined when the walk meets an array or a scalar, which the direct path leaves to mingo.
 */
const parentOf = (doc: Doc, segments: string[], create: boolean): Doc | null | undefined => {
  let parent = doc;
  for (const segment of segments.slice(0, -1)) {
    const next = parent[segment];
    if (next === undefined) {
      if (!create) return null; // nothing there: nothing to unset
      const made: Doc = {};
      parent[segment] = made;
      parent = made;
    } else if (isPlainObject(next)) parent = next;
    else return undefined;
  }
  return parent;
};

/**
 * Applies $set, $unset and $inc on plain-object paths in place, as MongoDB would; false (and `doc`
 * untouched) when the update needs anything else: other operators, arrays on a path, positional or
 * `$`-prefixed segments, overlapping paths or a non-numeric $inc target. The caller then uses mingo.
 */
export const applyDirectUpdate = (doc: Doc, operators: Record<string, Doc | undefined>): boolean => {
  const changes: { operator: string; segments: string[]; value: unknown }[] = [];
  const paths: string[] = [];
  for (const [operator, fields] of Object.entries(operators)) {
    if (!DIRECT_OPERATORS.has(operator) || !isPlainObject(fields)) return false;
    for (const [path, value] of Object.entries(fields)) {
      const segments = path.split('.');
      if (segments.some((s) => s === '' || s.startsWith('$') || /^\d+$/.test(s))) return false;
      if (paths.some((other) => overlaps(other, path))) return false;
      if (operator === '$inc' && typeof value !== 'number') return false;
      paths.push(path);
      changes.push({ operator, segments, value });
    }
  }
  // Check every path before changing anything, so a refusal leaves the document as it was.
  for (const { operator, segments } of changes) {
    const parent = parentOf(doc, segments, false);
    if (parent === undefined) return false;
    const current = parent?.[segments[segments.length - 1]!];
    if (operator === '$inc' && current !== undefined && typeof current !== 'number') return false;
  }
  for (const { operator, segments, value } of changes) {
    const last = segments[segments.length - 1]!;
    if (operator === '$unset') {
      const parent = parentOf(doc, segments, false);
      if (parent) delete parent[last];
      continue;
    }
    const parent = parentOf(doc, segments, true)!;
    if (operator === '$inc') parent[last] = ((parent[last] as number | undefined) ?? 0) + (value as number);
    else parent[last] = cloneDocument(value);
  }
  return true;
};
