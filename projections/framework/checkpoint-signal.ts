import { EventEmitter } from 'node:events';

/** A read model's checkpoint moved (or was found already past) to `position`. */
export type CheckpointMoved = { database: string; name: string; version: number; position: number };

const moves = new EventEmitter();
// One listener per waiting query: the count is bounded by the requests in flight, not a leak.
moves.setMaxListeners(0);
const projectorsHere = new Map<string, number>();
const keyOf = (database: string, name: string) => `${database}/${name}`;

/**
 * In-process news of checkpoints, so read-your-writes waits end when the projector saves its
 * checkpoint instead of asking Mongo over and over (ADR 26). Projectors in other processes are
 * not heard here: waiters for those read models fall back to one shared watcher per process.
 */
export const checkpointSignal = {
  moved: (move: CheckpointMoved): void => {
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
      if (left > 0) projectorsHere.set(key, left);
      else projectorsHere.delete(key);
    };
  },
  isProjectedHere: (database: string, name: string): boolean => projectorsHere.has(keyOf(database, name)),
};
