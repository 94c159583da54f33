import { MongoServerError, type Db } from 'mongodb';
import { checkpointSignal } from './checkpoint-signal';
import { versionedCollectionName, type Projection } from './projection';
import { createDeclaredIndexes, indexesForStore } from '../read-store/declared-indexes';

/**
 * Bookkeeping collections of the read side. `read_model_versions` holds one pointer per read model:
 * the version queries read (`version`) and the last version number handed out (`lastAllocated`).
 * `projection_checkpoints` holds one checkpoint per read model and version.
 */
export const READ_MODEL_VERSIONS = 'read_model_versions';
export const PROJECTION_CHECKPOINTS = 'projection_checkpoints';

export type VersionPointer = { _id: string; version: number; lastAllocated: number };
export type Checkpoint = { _id: string; name: string; version: number; position: number; updatedAt: Date };

const DUPLICATE_KEY = 11000;
const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === DUPLICATE_KEY;

const pointers = (db: Db) => db.collection<VersionPointer>(READ_MODEL_VERSIONS);
const checkpoints = (db: Db) => db.collection<Checkpoint>(PROJECTION_CHECKPOINTS);
export const checkpointId = (name: string, version: number) => `${name}@${version}`;

/** The pointer of a read model, created at version 1 the first time anyone asks. */
export const ensurePointer = async (db: Db, name: string): Promise<VersionPointer> => {
  const existing = await pointers(db).findOne({ _id: name });
  if (existing) return existing;
  try {
    await pointers(db).updateOne(
      { _id: name },
      { $setOnInsert: { version: 1, lastAllocated: 1 } },
      { upsert: true },
    );
  } catch (error) {
    if (!isDuplicateKey(error)) throw error; // another process created it at the same moment
  }
  const pointer = await pointers(db).findOne({ _id: name });
  if (!pointer) throw new Error(`read_model_versions lost the pointer of ${name}`);
  return pointer;
};

/** The version queries read; 1 before any projector has run (its collections are then empty). */
export const currentVersion = async (db: Db, name: string): Promise<number> =>
  (await pointers(db).findOne({ _id: name }))?.version ?? 1;

/** A version number no other rebuild has been given. */
export const allocateVersion = async (db: Db, name: string): Promise<number> => {
  await ensurePointer(db, name);
  const pointer = await pointers(db).findOneAndUpdate(
    { _id: name },
    // Allocation, not read-model data: each call must get a new number, which is what $inc gives.
    { $inc: { lastAllocated: 1 } },
    { returnDocument: 'after' },
  );
  if (!pointer) throw new Error(`read_model_versions lost the pointer of ${name}`);
  return pointer.lastAllocated;
};

/** Points queries at `version` unless a newer version was switched to meanwhile; true if switched. */
export const switchVersion = async (db: Db, name: string, version: number): Promise<boolean> => {
  const result = await pointers(db).updateOne(
    { _id: name, version: { $lt: version } },
    { $set: { version } },
  );
  return result.matchedCount === 1;
};

export const loadCheckpoint = async (db: Db, name: string, version: number): Promise<number> =>
  (await checkpoints(db).findOne({ _id: checkpointId(name, version) }))?.position ?? -1;

/** Moves the checkpoint forward only: a slower, older writer can never move it back. */
export const saveCheckpoint = async (
  db: Db,
  target: { name: string; version: number },
  position: number,
): Promise<void> => {
  const { name, version } = target;
  try {
    await checkpoints(db).updateOne(
      { _id: checkpointId(name, version), position: { $lt: position } },
      { $set: { name, version, position, updatedAt: new Date() } },
      { upsert: true },
    );
  } catch (error) {
    if (!isDuplicateKey(error)) throw error; // already at or past this position
  }
  checkpointSignal.moved({ database: db.databaseName, name, version, position });
};

/** The checkpoints of several read model versions in one query, by `name@version` (-1 when none). */
export const loadCheckpoints = async (
  db: Db,
  targets: readonly { name: string; version: number }[],
): Promise<Map<string, number>> => {
  const ids = targets.map(({ name, version }) => checkpointId(name, version));
  const found = await checkpoints(db)
    .find({ _id: { $in: ids } }, { projection: { position: 1 } })
    .toArray();
  const positions = new Map(ids.map((id) => [id, -1]));
  for (const checkpoint of found) positions.set(checkpoint._id, checkpoint.position);
  return positions;
};

export const listCheckpoints = (db: Db, name: string): Promise<Checkpoint[]> =>
  checkpoints(db).find({ name }).sort({ version: 1 }).toArray();

export const physicalNames = <C extends string>(
  projection: Projection<C>,
  version: number,
): Record<C, string> => {
  const names = {} as Record<C, string>;
  for (const key of Object.keys(projection.collections) as C[]) {
    names[key] = versionedCollectionName(projection.collections[key], version);
  }
  return names;
};

/**
 * Creates the missing indexes of one version's collections. Existing ones are skipped rather than
 * re-created: FerretDB drops the connection on a createIndexes of an index that already exists.
 */
export const ensureIndexes = async <C extends string>(
  db: Db,
  projection: Projection<C>,
  version: number,
): Promise<void> => {
  const names = physicalNames(projection, version);
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const key of Object.keys(names) as C[]) {
    const specs = indexesForStore(db, projection.indexes?.[key] ?? []);
    if (specs.length === 0) continue;
    const collection = db.collection(names[key]);
    const present = existing.has(names[key])
      ? new Set(
          (await collection.listIndexes().toArray()).map((index: { name?: unknown }) => String(index.name)),
        )
      : new Set<string>();
    const missing = specs.filter((spec) => !present.has(spec.name));
    if (missing.length === 0) continue;
    await createDeclaredIndexes(db, names[key], missing);
  }
};

/** Drops the collections and the checkpoint of every version matching `which` (idempotent). */
export const dropVersions = async <C extends string>(
  db: Db,
  projection: Projection<C>,
  which: (version: number) => boolean,
): Promise<number[]> => {
  const existing = await db.listCollections({}, { nameOnly: true }).toArray();
  const dropped = new Set<number>();
  for (const base of Object.values<string>(projection.collections)) {
    const pattern = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}_v(\\d+)$`);
    for (const { name } of existing) {
      const version = Number(pattern.exec(name)?.[1] ?? Number.NaN);
      if (Number.isInteger(version) && which(version)) {
        await db.collection(name).drop();
        dropped.add(version);
      }
    }
  }
  const stale = (await listCheckpoints(db, projection.name)).filter((c) => which(c.version));
  for (const checkpoint of stale) {
    await checkpoints(db).deleteOne({ _id: checkpoint._id });
    dropped.add(checkpoint.version);
  }
  return [...dropped].sort((a, b) => a - b);
};

/** The collection a query reads: the one of the version the pointer names. */
export const currentCollection = async <C extends string, T extends object = Record<string, unknown>>(
  db: Db,
  projection: Projection<C>,
  key: C,
) => db.collection<T>(physicalNames(projection, await currentVersion(db, projection.name))[key]);
