import {
  MongoBulkWriteError,
  MongoServerError,
  type AnyBulkWriteOperation,
  type Collection,
  type Db,
  type WriteError,
} from 'mongodb';
import { retry, upsertRace } from '../../commands/retry';
import { EmbeddedCollection } from '../read-store/embedded/embedded-collection';
import { POSITION_FIELD } from './projection';
import type { PlannedRow, PlannedSet, Segment } from './write-plan';

type StoredDocument = { _id: string | number; position?: number } & Record<string, unknown>;

const DUPLICATE_KEY = 11000;

const isDuplicateKeyOnly = (error: unknown): boolean => {
  if (error instanceof MongoBulkWriteError) {
    const errors = ([] as WriteError[]).concat(error.writeErrors);
    return errors.length > 0 && errors.every((e) => e.code === DUPLICATE_KEY);
  }
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
};

/** The positions already stored for these ids (one query, however many ids). */
const storedPositions = async (
  collection: Collection<StoredDocument>,
  ids: readonly (string | number)[],
): Promise<Map<string, number>> => {
  const found = await collection
    .find({ _id: { $in: [...ids] } }, { projection: { [POSITION_FIELD]: 1 } })
    .toArray();
  return new Map(found.map((doc) => [JSON.stringify(doc._id), doc.position ?? -1]));
};

/**
 * Rows are inserted unordered; a duplicate key means the row was written by an earlier delivery.
 * The error's indexes are not trusted (FerretDB misreports them), so the ids are looked up instead:
 * missing rows are inserted again, rows from an older event at the same key (a stream deleted and
 * started again) are replaced, and rows already at this position are left alone.
 */
const toDocument = (row: PlannedRow): StoredDocument => ({
  _id: row.id,
  ...row.doc,
  [POSITION_FIELD]: row.position,
});

const writeRows = async (collection: Collection<StoredDocument>, rows: readonly PlannedRow[]) => {
  try {
    await collection.insertMany(rows.map(toDocument), { ordered: false });
    return;
  } catch (error) {
    if (!isDuplicateKeyOnly(error)) throw error;
  }
  // A batch may hold the same row twice (a redelivered event); the last one wins, as it would live.
  const latest = new Map(rows.map((row) => [JSON.stringify(row.id), row]));
  const stored = await storedPositions(
    collection,
    [...latest.values()].map((row) => row.id),
  );
  const operations: AnyBulkWriteOperation<StoredDocument>[] = [];
  for (const [key, row] of latest) {
    const position = stored.get(key);
    if (position === undefined) operations.push({ insertOne: { document: toDocument(row) } });
    else if (position < row.position) {
      const { _id, ...replacement } = toDocument(row);
      operations.push({
        replaceOne: { filter: { _id, [POSITION_FIELD]: { $lt: row.position } }, replacement },
      });
    }
  }
  if (operations.length > 0) await collection.bulkWrite(operations, { ordered: true });
};

/**
 * Guarded assignments: `{ _id, position: { $lt: p } }` with upsert. A document already at or past p
 * would make the upsert fail with a duplicate key, and FerretDB abandons the rest of a bulk update on
 * the first error, so such documents are filtered out first by one lookup. A duplicate that still
 * happens comes from a concurrent writer; the lookup and write are then repeated.
 */
const guardedUpsert = (set: PlannedSet): AnyBulkWriteOperation<StoredDocument> => ({
  updateOne: {
    filter: { _id: set.id, [POSITION_FIELD]: { $lt: set.position } },
    update: { $set: { ...set.fields, [POSITION_FIELD]: set.position } },
    upsert: true,
  },
});

const writeSets = (collection: Collection<StoredDocument>, sets: readonly PlannedSet[]) => {
  if ((collection as unknown) instanceof EmbeddedCollection) return writeSetsInOneGo(collection, sets);
  return retry(upsertRace(isDuplicateKeyOnly), async () => {
    const stored = await storedPositions(
      collection,
      sets.map((set) => set.id),
    );
    const operations = sets
      .filter((set) => (stored.get(JSON.stringify(set.id)) ?? -1) < set.position)
      .map(guardedUpsert);
    if (operations.length > 0) await collection.bulkWrite(operations, { ordered: false });
  });
};

/**
 * The embedded store (ADR 28) applies an unordered bulk write in one transaction and goes on past a
 * failed operation, as MongoDB does: a duplicate key there means the document is already at or past
 * the position (no other writer can insert it meanwhile), which is what the lookup above filters
 * out for FerretDB. So no lookup first: two reads fewer per collection and batch (ADR 54).
 */
const writeSetsInOneGo = async (collection: Collection<StoredDocument>, sets: readonly PlannedSet[]) => {
  try {
    await collection.bulkWrite(sets.map(guardedUpsert), { ordered: false });
  } catch (error) {
    if (!isDuplicateKeyOnly(error)) throw error;
  }
};

// Module-level helpers rather than closures: the dev runner names every closure it creates
// (esbuild keepNames), which cost 2% of a PUT's CPU here (docs/adr/0054).
const collectionIn = (
  db: Db,
  physicalNames: Record<string, string>,
  key: string,
): Collection<StoredDocument> => {
  const name = physicalNames[key];
  if (!name) throw new Error(`Unknown read-model collection ${key}`);
  return db.collection<StoredDocument>(name);
};

/** Writes one segment: every collection in parallel, then the segment's sweep. */
export const writeSegment = async (
  db: Db,
  physicalNames: Record<string, string>,
  segment: Segment,
): Promise<void> => {
  const collectionOf = (key: string) => collectionIn(db, physicalNames, key);
  const keys = new Set([...segment.rows.keys(), ...segment.sets.keys()]);
  await Promise.all(
    [...keys].map(async (key) => {
      const rows = segment.rows.get(key);
      if (rows) await writeRows(collectionOf(key), rows);
      const sets = segment.sets.get(key);
      if (sets) await writeSets(collectionOf(key), [...sets.values()]);
    }),
  );
  const { sweep } = segment;
  if (!sweep) return;
  const filter = { ...sweep.filter, [POSITION_FIELD]: { $lte: sweep.position } };
  if (sweep.kind === 'delete') await collectionOf(sweep.collection).deleteMany(filter);
  else await collectionOf(sweep.collection).updateMany(filter, { $set: sweep.fields ?? {} });
};
