import type { Db } from 'mongodb';
import { projectionPositions } from './framework/read-your-writes';

/** Read-your-writes for a query: the position of the caller's own last event, and how long to wait for it. */
export type Consistency = { afterPosition?: number; waitTimeoutMs?: number };

/**
 * Waits (bounded) until every read model a query reads has processed `afterPosition`; true when one
 * of them had not in time, so the answer may miss the caller's own change.
 */
export const waitForReadModels = async (
  db: Db,
  names: readonly string[],
  consistency: Consistency | undefined,
): Promise<boolean> => {
  const target = consistency?.afterPosition;
  if (target === undefined) return false;
  const positions = projectionPositions(db);
  const results = await Promise.all(
    names.map((name) => positions.waitForPosition(name, target, consistency?.waitTimeoutMs)),
  );
  return results.some((result) => !result.reached);
};
