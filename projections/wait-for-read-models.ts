import type { Db } from 'mongodb';
import { waitUntilRead, type ReadAfter } from './read-after';

/** Read-your-writes for a query that reads several read models. */
export type Consistency = ReadAfter;

/**
 * Waits (bounded) until every read model a query reads has processed the caller's own change; true
 * when one of them had not in time, so the answer may miss it.
 */
export const waitForReadModels = async (
  db: Db,
  names: readonly string[],
  consistency: Consistency | undefined,
): Promise<boolean> => {
  const stale = await Promise.all(names.map((name) => waitUntilRead(db, name, consistency)));
  return stale.some(Boolean);
};
