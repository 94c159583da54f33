import type { Db } from 'mongodb';
import { currentVersion, loadCheckpoint } from './read-model-versions';

export type WaitResult = {
  /** True when the read model had reached the position before the time ran out. */
  reached: boolean;
  /** The read model's position when the wait ended. */
  position: number;
};

export const DEFAULT_WAIT_MS = 5000;
const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 50;

/** The position the read model that queries see has reached (its current version's checkpoint). */
export const readModelPosition = async (db: Db, projectionName: string): Promise<number> =>
  loadCheckpoint(db, projectionName, await currentVersion(db, projectionName));

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

export const projectionPositions = (db: Db): ProjectionPositions => {
  const position = (projectionName: string) => readModelPosition(db, projectionName);
  return {
    position,
    waitForPosition: async (projectionName, target, timeoutMs = DEFAULT_WAIT_MS) => {
      const deadline = Date.now() + timeoutMs;
      let pollMs = FIRST_POLL_MS;
      for (;;) {
        const reached = await position(projectionName);
        if (reached >= target) return { reached: true, position: reached };
        const left = deadline - Date.now();
        if (left <= 0) return { reached: false, position: reached };
        await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, left)));
        pollMs = Math.min(MAX_POLL_MS, pollMs * 2);
      }
    },
  };
};
