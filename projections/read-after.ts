import type { Db } from 'mongodb';
import { projectionPositions } from './framework/read-your-writes';

/** Read-your-writes for a query: the position of the caller's last command, and how long to wait for it. */
export type ReadAfter = { afterPosition?: number; waitTimeoutMs?: number };

/**
 * Waits (bounded) until the read model has processed the caller's own change; true when the answer
 * may still miss it. Without a position there is nothing to wait for.
 */
export const waitUntilRead = async (
  db: Db,
  projectionName: string,
  readAfter: ReadAfter | undefined,
): Promise<boolean> => {
  if (readAfter?.afterPosition === undefined) return false;
  const wait = await projectionPositions(db).waitForPosition(
    projectionName,
    readAfter.afterPosition,
    readAfter.waitTimeoutMs,
  );
  return !wait.reached;
};
