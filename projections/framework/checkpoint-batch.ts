import { MongoBulkWriteError, MongoServerError, type Db } from 'mongodb';
import { PROJECTION_CHECKPOINTS, checkpointId, type Checkpoint } from './read-model-versions';

/**
 * Checkpoints of the live projectors of one process, saved together (docs/adr/0052): a projector
 * records its position here once a batch is written, and one write saves every recorded checkpoint
 * within CHECKPOINT_SAVE_MS. Each event used to cost one upsert per projector that woke for it.
 *
 * Waits in this process hear of a position at once (checkpoint-signal.ts); waits in other processes
 * read saved checkpoints, so they may see a position up to this much later. A crash loses at most this
 * much progress, which the projector replays (its writes are idempotent): a saved checkpoint is never
 * ahead of what was written, because a position is recorded only after its batch's writes.
 */
export const CHECKPOINT_SAVE_MS = 10;

type Pending = { name: string; version: number; position: number };
type Batch = { pending: Map<string, Pending>; timer: NodeJS.Timeout | undefined; saving: Promise<void> };

const DUPLICATE_KEY = 11000;
const batches = new WeakMap<Db, Batch>();

const batchOf = (db: Db): Batch => {
  let batch = batches.get(db);
  if (!batch) batches.set(db, (batch = { pending: new Map(), timer: undefined, saving: Promise.resolve() }));
  return batch;
};

const onlyDuplicates = (error: unknown): boolean => {
  if (error instanceof MongoBulkWriteError) {
    const errors = [error.writeErrors].flat();
    return errors.length > 0 && errors.every((e) => e.code === DUPLICATE_KEY);
  }
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
};

/** Saves what is recorded now in one bulk write; what fails stays recorded for the next attempt. */
const saveRecorded = async (db: Db, batch: Batch): Promise<void> => {
  if (batch.timer) clearTimeout(batch.timer);
  batch.timer = undefined;
  if (batch.pending.size === 0) return;
  const taken = [...batch.pending.values()];
  batch.pending.clear();
  const updatedAt = new Date();
  try {
    // Forward only, as saveCheckpoint: a slower, older writer never moves a checkpoint back; a
    // duplicate key means the saved one is already at or past this position.
    await db.collection<Checkpoint>(PROJECTION_CHECKPOINTS).bulkWrite(
      taken.map(({ name, version, position }) => ({
        updateOne: {
          filter: { _id: checkpointId(name, version), position: { $lt: position } },
          update: { $set: { name, version, position, updatedAt } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  } catch (error) {
    if (onlyDuplicates(error)) return;
    for (const item of taken) keep(batch, item);
    throw error;
  }
};

/** Keeps the highest position recorded for each checkpoint. */
const keep = (batch: Batch, item: Pending) => {
  const id = checkpointId(item.name, item.version);
  const known = batch.pending.get(id);
  if (!known || known.position < item.position) batch.pending.set(id, item);
};

/** Records a checkpoint to be saved with the others of this read store within CHECKPOINT_SAVE_MS. */
export const saveCheckpointSoon = (
  db: Db,
  target: { name: string; version: number },
  position: number,
): void => {
  const batch = batchOf(db);
  keep(batch, { ...target, position });
  if (batch.timer) return;
  batch.timer = setTimeout(() => {
    batch.timer = undefined;
    // A failed save keeps its checkpoints recorded; the next recorded position retries them.
    batch.saving = batch.saving.then(() => saveRecorded(db, batch)).catch(() => undefined);
  }, CHECKPOINT_SAVE_MS);
};

/** Saves every checkpoint recorded so far (stop and shutdown); throws if the save fails. */
export const flushCheckpoints = async (db: Db): Promise<void> => {
  const batch = batches.get(db);
  if (!batch) return;
  const done = batch.saving.then(() => saveRecorded(db, batch));
  batch.saving = done.catch(() => undefined);
  await done;
};
