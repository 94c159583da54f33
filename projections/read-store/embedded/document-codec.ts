import { Binary, ObjectId } from 'mongodb';

/**
 * How the embedded read store keeps a document in one SQLite TEXT column. JSON carries strings,
 * numbers, booleans, null, arrays and objects as they are; the few BSON values the product stores
 * (Date, binary, ObjectId) become tagged objects, and the row's `tags` column lists where they sit,
 * so reading a row back is one JSON.parse plus a few assignments instead of a reviver over every value.
 * Stored dates are `{"$date": <ms>}`, which SQLite's json_extract orders correctly as text for every
 * date between 2001 and 2286 (13 digits); the contract suite checks sorting by date.
 */
type Tag = 'date' | 'binary' | 'oid';

export const isDate = (value: unknown): value is Date =>
  Object.prototype.toString.call(value) === '[object Date]';

/** A deep copy that keeps dates, ObjectIds and binary values as they are (updates work on the copy). */
export const cloneDocument = <T>(value: T): T => {
  if (value === null || typeof value !== 'object') return value;
  if (isDate(value)) return new Date(value.getTime()) as T;
  if (value instanceof ObjectId || value instanceof Binary || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return value.map(cloneDocument) as T;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = cloneDocument(item);
  return out as T;
};
type TaggedPath = [path: (string | number)[], tag: Tag];

export type EncodedDocument = { json: string; tags: string | null };

// `path` is one array pushed and popped along the walk; it is copied only where a tag is recorded.
const encodeValue = (value: unknown, path: (string | number)[], tags: TaggedPath[]): unknown => {
  if (value === null || typeof value !== 'object') return value === undefined ? null : value;
  // Realm-safe checks: a Date made by structuredClone or in a jest sandbox is no `instanceof Date` here.
  if (isDate(value)) {
    tags.push([[...path], 'date']);
    return { $date: value.getTime() };
  }
  if (value instanceof ObjectId) {
    tags.push([[...path], 'oid']);
    return { $oid: value.toHexString() };
  }
  if (value instanceof Binary || ArrayBuffer.isView(value)) {
    tags.push([[...path], 'binary']);
    const bytes = value instanceof Binary ? value.buffer : (value as Uint8Array);
    return { $binary: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
  }
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) {
      path.push(index);
      out[index] = encodeValue(value[index], path, tags);
      path.pop();
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    // Like the driver (ignoreUndefined is off, but undefined has no JSON form): absent, not null.
    if (item === undefined) continue;
    path.push(key);
    out[key] = encodeValue(item, path, tags);
    path.pop();
  }
  return out;
};

export const encodeDocument = (doc: Record<string, unknown>): EncodedDocument => {
  const tags: TaggedPath[] = [];
  const plain = encodeValue(doc, [], tags);
  return { json: JSON.stringify(plain), tags: tags.length > 0 ? JSON.stringify(tags) : null };
};

const decodeTagged = (stored: Record<string, unknown>, tag: Tag): unknown => {
  switch (tag) {
    case 'date':
      return new Date(stored.$date as number);
    case 'oid':
      return new ObjectId(stored.$oid as string);
    case 'binary':
      return new Binary(Buffer.from(stored.$binary as string, 'base64'));
  }
};

/** Parsed `tags` columns by text: rows of one collection mostly share the same few (a date field or two). */
const parsedTags = new Map<string, TaggedPath[]>();
const tagsOf = (tags: string): TaggedPath[] => {
  let parsed = parsedTags.get(tags);
  if (!parsed) {
    if (parsedTags.size >= 1024) parsedTags.clear();
    parsed = JSON.parse(tags) as TaggedPath[];
    parsedTags.set(tags, parsed);
  }
  return parsed;
};

export const decodeDocument = <T = Record<string, unknown>>(json: string, tags: string | null): T => {
  const doc = JSON.parse(json) as Record<string, unknown>;
  if (tags === null) return doc as T;
  for (const [path, tag] of tagsOf(tags)) {
    let parent: Record<string | number, unknown> = doc;
    for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
    const last = path[path.length - 1]!;
    parent[last] = decodeTagged(parent[last] as Record<string, unknown>, tag);
  }
  return doc as T;
};

/** The primary-key text of an `_id`: its JSON, so 1 and "1" stay different ids as in MongoDB. */
export const idKey = (id: unknown): string => {
  if (id instanceof ObjectId) return JSON.stringify({ $oid: id.toHexString() });
  if (isDate(id)) return JSON.stringify({ $date: id.getTime() });
  if (id !== null && typeof id === 'object') return encodeDocument({ id }).json;
  return JSON.stringify(id);
};
