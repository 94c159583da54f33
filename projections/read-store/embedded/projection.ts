import { cloneDocument } from './document-codec';

/**
 * MongoDB projections as the product writes them: inclusion (`{ a: 1, 'b.c': 1 }`, `_id` kept unless
 * `_id: 0`) or exclusion (`{ a: 0 }`), on plain and dotted paths.
 */
type Doc = Record<string, unknown>;

const readPath = (doc: Doc, segments: string[]): { found: boolean; value: unknown } => {
  let value: unknown = doc;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object' || !(segment in (value as Doc)))
      return { found: false, value: undefined };
    value = (value as Doc)[segment];
  }
  return { found: true, value };
};

const writePath = (doc: Doc, segments: string[], value: unknown) => {
  let parent = doc;
  for (const segment of segments.slice(0, -1)) {
    if (parent[segment] === null || typeof parent[segment] !== 'object') parent[segment] = {};
    parent = parent[segment] as Doc;
  }
  parent[segments[segments.length - 1]!] = value;
};

const deletePath = (doc: Doc, segments: string[]) => {
  let parent: unknown = doc;
  for (const segment of segments.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') return;
    parent = (parent as Doc)[segment];
  }
  if (parent !== null && typeof parent === 'object') delete (parent as Doc)[segments[segments.length - 1]!];
};

const isTruthy = (value: unknown) => value === true || (typeof value === 'number' && value !== 0);

export const applyProjection = (doc: Doc, projection: Record<string, unknown>): Doc => {
  const entries = Object.entries(projection);
  const inclusive = entries.some(([path, value]) => path !== '_id' && isTruthy(value));
  if (!inclusive) {
    const out = cloneDocument(doc);
    for (const [path, value] of entries) if (!isTruthy(value)) deletePath(out, path.split('.'));
    return out;
  }
  const out: Doc = {};
  if (projection._id === undefined || isTruthy(projection._id)) {
    if (doc._id !== undefined) out._id = doc._id;
  }
  for (const [path, value] of entries) {
    if (path === '_id' || !isTruthy(value)) continue;
    const segments = path.split('.');
    const { found, value: picked } = readPath(doc, segments);
    if (found) writePath(out, segments, picked);
  }
  return out;
};
