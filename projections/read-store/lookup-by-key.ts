import type { Collection, Document, Filter } from 'mongodb';

type KeyLookupStore = {
  findWithKeyLookup: <T>(
    filter: Record<string, unknown>,
    lookup: { from: string; localField: string; as: string },
  ) => Promise<T[]>;
};

const isKeyLookupStore = (collection: unknown): collection is KeyLookupStore =>
  typeof (collection as Partial<KeyLookupStore>).findWithKeyLookup === 'function';

/**
 * Every document of `collection` matching `filter`, each with the document of `from` whose `_id` is
 * its `localField` (one id, not an array) under `as`, or null. On the embedded read store this is one
 * statement, both read in one snapshot (docs/adr/0029-session-and-caller-caches.md); on MongoDB it is
 * the find and one `_id: {$in}` query (FerretDB, which the wire tests use, has no `$lookup`).
 */
export const findWithKeyLookup = async <
  T extends Document,
  F extends Document & { _id: unknown },
  As extends string,
>(
  collection: Collection<T>,
  filter: Filter<T>,
  lookup: { from: Collection<F>; localField: keyof T & string; as: As },
): Promise<(T & Record<As, F | null>)[]> => {
  if (isKeyLookupStore(collection)) {
    return collection.findWithKeyLookup<T & Record<As, F | null>>(filter, {
      from: lookup.from.collectionName,
      localField: lookup.localField,
      as: lookup.as,
    });
  }
  const rows = (await collection.find(filter).toArray()) as T[];
  const ids = [...new Set(rows.map((row) => row[lookup.localField]).filter((id) => id != null))];
  const found =
    ids.length === 0 ? [] : ((await lookup.from.find({ _id: { $in: ids } } as Filter<F>).toArray()) as F[]);
  const byId = new Map(found.map((doc) => [JSON.stringify(doc._id), doc]));
  return rows.map((row) => ({
    ...row,
    [lookup.as]: byId.get(JSON.stringify(row[lookup.localField])) ?? null,
  }));
};
