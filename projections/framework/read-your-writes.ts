import type { Db } from 'mongodb';
import { checkpointSignal } from './checkpoint-signal';
import { checkpointId, currentVersion, loadCheckpoint, loadCheckpoints } from './read-model-versions';

export type WaitResult = {
  /** True when the read model had reached the position before the time ran out. */
  reached: boolean;
  /** The read model's position when the wait ended. */
  position: number;
};

export const DEFAULT_WAIT_MS = 5000;
/** How often the one shared watcher of a process reads checkpoints written by other processes. */
const WATCH_MS = 20;

/** The position the read model that queries see has reached (its current version's checkpoint). */
export const readModelPosition = async (db: Db, projectionName: string): Promise<number> => {
  const version = await currentVersion(db, projectionName);
  return Math.max(
    await loadCheckpoint(db, projectionName, version),
    checkpointSignal.announcedHere(db.databaseName, projectionName, version),
  );
};

export type ProjectionPositions = {
  /** The position the read model that queries see has reached. */
  position: (projectionName: string) => Promise<number>;
  /**
   * Read-your-writes: a command answers with the position of its last event, and a query that passes
   * it here waits until the read model it reads has processed that position. The checkpoint lives in
   * Mongo, so this works from any process (the gateway), whichever projector does the work.
   *
   * The wait is bounded and never throws on timeout: the caller answers anyway with `reached: false`
   * and flags the answer as possibly stale. A slow projector degrades freshness, never availability.
   */
  waitForPosition: (projectionName: string, position: number, timeoutMs?: number) => Promise<WaitResult>;
};

type Waiter = {
  db: Db;
  name: string;
  version: number;
  target: number;
  position: number;
  finish: () => void;
};

/**
 * Every wait in this process, for the one shared watcher (ADR 26). A wait ends when the projector
 * running in this process announces its checkpoint (checkpoint-signal.ts), with no query at all;
 * waits on read models projected elsewhere are answered by one query per tick for all of them, and
 * only while some exist, so the load on Mongo does not grow with the number of waiting requests.
 */
const waiters = new Set<Waiter>();
let watching: NodeJS.Timeout | undefined;

const advance = (waiter: Waiter, position: number) => {
  waiter.position = Math.max(waiter.position, position);
  if (waiter.position >= waiter.target) waiter.finish();
};

checkpointSignal.onMoved((move) => {
  for (const waiter of waiters) {
    if (waiter.db.databaseName !== move.database) continue;
    if (waiter.name === move.name && waiter.version === move.version) advance(waiter, move.position);
  }
});

const watchOtherProcesses = async (): Promise<void> => {
  watching = undefined;
  const remote = [...waiters].filter((w) => !checkpointSignal.isProjectedHere(w.db.databaseName, w.name));
  const byDb = new Map<Db, Waiter[]>();
  for (const waiter of remote) byDb.set(waiter.db, [...(byDb.get(waiter.db) ?? []), waiter]);
  await Promise.all(
    [...byDb].map(async ([db, group]) => {
      try {
        const positions = await loadCheckpoints(db, group);
        for (const waiter of group)
          advance(waiter, positions.get(checkpointId(waiter.name, waiter.version)) ?? -1);
      } catch {
        // A failed look is the same as no news: the waits end at their deadline at worst.
      }
    }),
  );
  scheduleWatch();
};

const scheduleWatch = () => {
  if (watching || waiters.size === 0) return;
  watching = setTimeout(() => void watchOtherProcesses(), WATCH_MS);
  watching.unref();
};

/**
 * Listens first, then looks at the checkpoint: a checkpoint announced between a look and the listening
 * would otherwise go unheard, and the wait would run to its deadline.
 */
const waitForCheckpoint = (
  start: Omit<Waiter, 'finish' | 'position'>,
  timeoutMs: number,
  look: () => Promise<number>,
): Promise<WaitResult> =>
  new Promise((resolve) => {
    const waiter: Waiter = {
      ...start,
      position: -1,
      finish: () => {
        clearTimeout(deadline);
        waiters.delete(waiter);
        resolve({ reached: waiter.position >= waiter.target, position: waiter.position });
      },
    };
    const deadline = setTimeout(waiter.finish, timeoutMs);
    waiters.add(waiter);
    scheduleWatch();
    look().then(
      (position) => advance(waiter, position),
      () => undefined, // no news: the shared watcher or the deadline ends the wait
    );
  });

export const projectionPositions = (db: Db): ProjectionPositions => {
  const position = (projectionName: string) => readModelPosition(db, projectionName);
  return {
    position,
    waitForPosition: async (projectionName, target, timeoutMs = DEFAULT_WAIT_MS) => {
      const version = await currentVersion(db, projectionName);
      // A projector in this process announces what it wrote before its checkpoint is saved (ADR 52).
      const here = () => checkpointSignal.announcedHere(db.databaseName, projectionName, version);
      if (here() >= target) return { reached: true, position: here() };
      const look = async () => Math.max(await loadCheckpoint(db, projectionName, version), here());
      if (timeoutMs <= 0) {
        const reached = await look();
        return { reached: reached >= target, position: reached };
      }
      return waitForCheckpoint({ db, name: projectionName, version, target }, timeoutMs, look);
    },
  };
};
