import { EventEmitter } from 'node:events';

/** A read model's checkpoint moved (or was found already past) to `position`. */
export type CheckpointMoved = { database: string; name: string; version: number; position: number };

const moves = new EventEmitter();
// One listener per waiting query: the count is bounded by the requests in flight, not a leak.
moves.setMaxListeners(0);
const projectorsHere = new Map<string, number>();
/** The newest position announced by a projector of this process, per read model version, while one runs. */
const announced = new Map<string, number>();
const keyOf = (database: string, name: string) => `${database}/${name}`;
const versionKeyOf = (database: string, name: string, version: number) => `${database}/${name}@${version}`;

/**
 * In-process news of checkpoints, so read-your-writes waits end when the projector has written an
 * event's changes instead of asking the read store over and over (ADR 26). A projector in this process
 * announces its position as soon as a batch is written, before the checkpoint is saved (ADR 52:
 * checkpoints are saved in batches); waits in this process trust the announcement. Projectors in other
 * processes are not heard here: waiters for those read models fall back to one shared watcher per
 * process, which reads saved checkpoints.
 */
export const checkpointSignal = {
  moved: (move: CheckpointMoved): void => {
    const key = keyOf(move.database, move.name);
    if (projectorsHere.has(key)) {
      const versionKey = versionKeyOf(move.database, move.name, move.version);
      announced.set(versionKey, Math.max(announced.get(versionKey) ?? -1, move.position));
    }
    moves.emit('moved', move);
  },
  onMoved: (listener: (move: CheckpointMoved) => void): (() => void) => {
    moves.on('moved', listener);
    return () => moves.off('moved', listener);
  },
  /** A projector of `name` runs in this process from now until the returned function is called. */
  projecting: (database: string, name: string): (() => void) => {
    const key = keyOf(database, name);
    projectorsHere.set(key, (projectorsHere.get(key) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (projectorsHere.get(key) ?? 1) - 1;
      if (left > 0) return void projectorsHere.set(key, left);
      projectorsHere.delete(key);
      // Only trusted while a projector runs here: a stopped one's news may outlive its database.
      for (const versionKey of announced.keys())
        if (versionKey.startsWith(`${key}@`)) announced.delete(versionKey);
    };
  },
  isProjectedHere: (database: string, name: string): boolean => projectorsHere.has(keyOf(database, name)),
  /**
   * The newest position a projector running in this process announced for this read model version
   * (written, its checkpoint maybe not saved yet); -1 when none runs here or none announced.
   */
  announcedHere: (database: string, name: string, version: number): number =>
    announced.get(versionKeyOf(database, name, version)) ?? -1,
};
