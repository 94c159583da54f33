import type { Db } from 'mongodb';
import { callerFacts, type CallerFacts } from '../../projections/users/caller-facts';
import { checkpointSignal } from '../../projections/framework/checkpoint-signal';
import { readStoreChangeToken } from '../../projections/framework/read-store-change';
import { cachedVersion, loadCheckpoints } from '../../projections/framework/read-model-versions';
import { TENANTS } from '../../projections/tenants/tenants-projection';
import { USERS } from '../../projections/users/users-projection';
import type { Consistency } from '../../projections/wait-for-read-models';

/** However quiet the read models, a cached answer is read again after this long (a safety net only). */
export const callerFactsTtlMs = 10_000;
/** Callers kept at most; the oldest go first beyond it. */
const maxEntries = 10_000;

/**
 * A value that changes whenever a read model callerFacts reads may have changed: the checkpoints of
 * the versions of the users and tenants read models that callerFacts reads (the process's copy of
 * their pointers, read-model-versions.ts), in one keyed query, or the position a projector in this
 * process has announced when it is further (ADR 52: a live projector saves its checkpoint up to 10 ms
 * after it announces it, and a request in that window must not be answered from facts cached before
 * the write). Both move only after their writes, so facts read after the marker are never older than
 * it says.
 */
type SavedCheckpoints = { key: string; values: number[] };

const markerOf = async (db: Db, memo: { last?: SavedCheckpoints }): Promise<string> => {
  const targets = [
    { name: USERS, version: await cachedVersion(db, USERS) },
    { name: TENANTS, version: await cachedVersion(db, TENANTS) },
  ];
  // Nothing written to the read store since the last read (ADR 54): the saved checkpoints are as read.
  const token = readStoreChangeToken(db);
  const key = token === undefined ? undefined : `${token}/${targets[0]?.version}/${targets[1]?.version}`;
  let saved = key !== undefined && memo.last?.key === key ? memo.last.values : undefined;
  if (!saved) {
    saved = [...(await loadCheckpoints(db, targets)).values()];
    if (key !== undefined) memo.last = { key, values: saved };
  }
  return targets
    .map(({ name, version }, index) => {
      const announced = checkpointSignal.announcedHere(db.databaseName, name, version);
      return `${name}@${version}=${Math.max(saved[index] ?? -1, announced)}`;
    })
    .join(',');
};

export type CallerFactsQuery = Consistency & { userId: number; tenantId: number | null };
export type CachedCallerFacts = (query: CallerFactsQuery) => Promise<CallerFacts>;

/**
 * callerFacts for the access hook of every request, cached in process (ADR 29): an answer is reused
 * while the checkpoints of the users and tenants read models have not moved and it is younger than the
 * safety TTL. One keyed query for the marker replaces the three lookups of callerFacts. A request that
 * waits for its own write (read-your-writes) always reads the read models.
 */
export const createCallerFactsCache = (db: Db, clock: () => Date): CachedCallerFacts => {
  const entries = new Map<string, { facts: CallerFacts; marker: string; cachedAt: number }>();
  const memo: { last?: SavedCheckpoints } = {};
  return async (query) => {
    if (query.afterPosition !== undefined) return callerFacts(db, query);
    const key = `${query.userId}:${query.tenantId ?? '-'}`;
    const now = clock().getTime();
    // The marker is read before the facts: facts read after it can only be newer than it says.
    const marker = await markerOf(db, memo);
    const cached = entries.get(key);
    if (cached && cached.marker === marker && now - cached.cachedAt < callerFactsTtlMs) return cached.facts;
    const facts = await callerFacts(db, query);
    entries.delete(key);
    entries.set(key, { facts, marker, cachedAt: now });
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    return facts;
  };
};
