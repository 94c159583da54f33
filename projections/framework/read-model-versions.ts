import { MongoServerError, type Db } from 'mongodb';
import { checkpointSignal } from './checkpoint-signal';
import { readWhileQuiet } from './read-store-change';
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

/**
 * How long a process reuses a version pointer it read, instead of reading it for every collection a
 * query opens and for every batch of every projector (issue 13; docs/adr/0029). A rebuild's switch
 * therefore reaches other processes up to this long later; to keep them from reading a dropped
 * collection meanwhile, `dropVersions` waits this long (plus a margin) before it drops a version
 * queries may have been pointed at. Read-your-writes waits read the pointer afresh (`currentVersion`),
 * which refreshes the process's copy before the query that follows opens its collections.
 */
export const POINTER_CACHE_MS = 1000;
const DROP_MARGIN_MS = 250;
type CachedPointer = { pointer: VersionPointer; readAt: number };
/** Per read store handle: tests open several stores in one process, each with its own pointers. */
const pointerCache = new WeakMap<Db, Map<string, CachedPointer>>();
const cacheOf = (db: Db) => {
  let cache = pointerCache.get(db);
  if (!cache) pointerCache.set(db, (cache = new Map<string, CachedPointer>()));
  return cache;
};
/** Remembers a pointer read that started at `readAt` (the time before the read, so it expires early). */
const remember = (db: Db, pointer: VersionPointer, readAt: number) => {
  const cache = cacheOf(db);
  const known = cache.get(pointer._id);
  // A concurrent older read must not replace a newer version: pointers only move forward (an expired
  // copy may be replaced by anything: a test's dropped database starts again at version 1).
  const young = known !== undefined && performance.now() - known.readAt < POINTER_CACHE_MS;
  if (young && known.pointer.version > pointer.version) return;
  cache.set(pointer._id, { pointer, readAt });
};
/** This process's copy of a pointer while it is young enough to trust. */
const cached = (db: Db, name: string): VersionPointer | undefined => {
  const entry = pointerCache.get(db)?.get(name);
  if (!entry) return undefined;
  if (performance.now() - entry.readAt < POINTER_CACHE_MS) return entry.pointer;
  pointerCache.get(db)?.delete(name);
  return undefined;
};
/** The version of this process's copy of a pointer while it is young enough to trust, else undefined. */
export const cachedPointerVersion = (db: Db, name: string): number | undefined => cached(db, name)?.version;

/** The pointer as stored now; refreshes this process's copy. */
const readPointer = async (db: Db, name: string): Promise<VersionPointer | null> => {
  const readAt = performance.now();
  // Read again only if anything was written since the last read (ADR 54): read-your-writes waits
  // read the pointer afresh, two per PUT; while the store's change token holds, the stored pointer
  // is the one read, so it is as fresh as a new read, and readAt may be now.
  const pointer = await readWhileQuiet(db, `${READ_MODEL_VERSIONS}/${name}`, () =>
    pointers(db).findOne({ _id: name }),
  );
  if (pointer) remember(db, pointer, readAt);
  return pointer;
};

/**
 * The pointer of a read model, created at version 1 the first time anyone asks. Served from this
 * process's copy while it is younger than POINTER_CACHE_MS: projectors call it for every batch.
 */
export const ensurePointer = async (db: Db, name: string): Promise<VersionPointer> => {
  const known = cached(db, name);
  if (known) return known;
  const existing = await readPointer(db, name);
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
  const pointer = await readPointer(db, name);
  if (!pointer) throw new Error(`read_model_versions lost the pointer of ${name}`);
  return pointer;
};

/**
 * The version queries read, as stored now; 1 before any projector has run (its collections are then
 * empty). Reading it refreshes this process's copy, which `currentCollection` uses.
 */
export const currentVersion = async (db: Db, name: string): Promise<number> =>
  (await readPointer(db, name))?.version ?? 1;

/**
 * The version queries read, from this process's copy while it is younger than POINTER_CACHE_MS: a
 * switch made by another process is seen at most that late, and the old version is kept that long.
 */
export const cachedVersion = async (db: Db, name: string): Promise<number> =>
  cached(db, name)?.version ?? currentVersion(db, name);

/** A version number no other rebuild has been given. */
export const allocateVersion = async (db: Db, name: string): Promise<number> => {
  await ensurePointer(db, name);
  const readAt = performance.now();
  const pointer = await pointers(db).findOneAndUpdate(
    { _id: name },
    // Allocation, not read-model data: each call must get a new number, which is what $inc gives.
    { $inc: { lastAllocated: 1 } },
    { returnDocument: 'after' },
  );
  if (!pointer) throw new Error(`read_model_versions lost the pointer of ${name}`);
  remember(db, pointer, readAt);
  return pointer.lastAllocated;
};

/** Points queries at `version` unless a newer version was switched to meanwhile; true if switched. */
export const switchVersion = async (db: Db, name: string, version: number): Promise<boolean> => {
  const result = await pointers(db).updateOne(
    { _id: name, version: { $lt: version } },
    { $set: { version } },
  );
  // This process follows at once; others when their copy expires (POINTER_CACHE_MS).
  await readPointer(db, name);
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

/**
 * Drops the collections and the checkpoint of every version matching `which` (idempotent). A version
 * below the pointer may still be read by a process that copied the pointer before the switch
 * (POINTER_CACHE_MS): such versions are dropped only once every such copy has expired.
 */
export const dropVersions = async <C extends string>(
  db: Db,
  projection: Projection<C>,
  which: (version: number) => boolean,
): Promise<number[]> => {
  const patterns = Object.values<string>(projection.collections).map(
    (base) => new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}_v(\\d+)$`),
  );
  const matching = async () => {
    const collections = (await db.listCollections({}, { nameOnly: true }).toArray()).flatMap(({ name }) =>
      patterns.flatMap((pattern) => {
        const version = Number(pattern.exec(name)?.[1] ?? Number.NaN);
        return Number.isInteger(version) && which(version) ? [{ name, version }] : [];
      }),
    );
    const stale = (await listCheckpoints(db, projection.name)).filter((c) => which(c.version));
    return { collections, stale };
  };
  let found = await matching();
  const pointed = (await readPointer(db, projection.name))?.version ?? 1;
  const versions = [...found.collections, ...found.stale].map(({ version }) => version);
  if (versions.some((version) => version < pointed)) {
    await new Promise((resolve) => setTimeout(resolve, POINTER_CACHE_MS + DROP_MARGIN_MS));
    found = await matching();
  }
  const dropped = new Set<number>();
  for (const { name, version } of found.collections) {
    await db.collection(name).drop();
    dropped.add(version);
  }
  for (const checkpoint of found.stale) {
    await checkpoints(db).deleteOne({ _id: checkpoint._id });
    dropped.add(checkpoint.version);
  }
  return [...dropped].sort((a, b) => a - b);
};

/**
 * The collection a query reads: the one of the version the pointer names, from this process's copy
 * of the pointer (POINTER_CACHE_MS).
 */
export const currentCollection = async <C extends string, T extends object = Record<string, unknown>>(
  db: Db,
  projection: Projection<C>,
  key: C,
) => db.collection<T>(physicalNames(projection, await cachedVersion(db, projection.name))[key]);
