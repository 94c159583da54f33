import type { Db } from 'mongodb';
import { EmbeddedDb } from './embedded/embedded-db';

/**
 * An index as a projection declares it (projections/framework/projection.ts): MongoDB's key, name and
 * unique, and two options that only the embedded store acts on (docs/adr/0051-admin-table-counts-and-search.md):
 * - `counted`: the embedded store keeps a count per distinct key, so `countDocuments` with equalities
 *   and `$in`s on these paths reads a few counters. MongoDB gets the plain index (a COUNT_SCAN).
 * - `search`: the embedded store keeps a trigram FTS5 index of these paths, which serves the admin
 *   search boxes' contains-searches (a case-insensitive regex of literal text, search-pattern.ts).
 *   MongoDB gets nothing: it runs the same regex as it is.
 */
export type DeclaredIndex = {
  key: Record<string, 1 | -1>;
  name: string;
  unique?: boolean;
  counted?: boolean;
  search?: boolean;
};

/** Whether `db` is the embedded read store (as openReadStore returns it, typed as the driver's Db). */
export const isEmbeddedReadStore = (db: Db): boolean => (db as unknown) instanceof EmbeddedDb;

/**
 * The declared indexes of one collection missing from the store, created with what each store
 * understands; a search index is not created on MongoDB (nothing to create). Returns their names.
 */
export const createDeclaredIndexes = async (
  db: Db,
  collection: string,
  specs: readonly DeclaredIndex[],
): Promise<string[]> => {
  const embedded = isEmbeddedReadStore(db);
  const wanted = embedded ? specs : specs.filter((spec) => !spec.search);
  if (wanted.length === 0) return [];
  return db.collection(collection).createIndexes(
    wanted.map((spec) => ({
      key: spec.key,
      name: spec.name,
      unique: spec.unique ?? false,
      ...(embedded && spec.counted ? { counted: true } : {}),
      ...(embedded && spec.search ? { search: true } : {}),
    })),
  );
};

/** The declared indexes a store of this kind holds (for the missing-index check). */
export const indexesForStore = (db: Db, specs: readonly DeclaredIndex[]): DeclaredIndex[] =>
  isEmbeddedReadStore(db) ? [...specs] : specs.filter((spec) => !spec.search);
