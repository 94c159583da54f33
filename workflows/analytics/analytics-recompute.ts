import type { Db } from 'mongodb';
import {
  clearDirtyBatches,
  compactSellerFacts,
  dirtyBatches,
  dropOlderEpochs,
  ensureAnalyticsIndexes,
  liveFactsOf,
  readSellerFacts,
  storeSellerAnalytics,
} from '../../projections/analytics/analytics-store';
import { computeSellerAnalytics } from './seller-analytics';

/**
 * Recomputes the figures of sellers whose facts changed (docs/adr/0041), once the feed has been quiet
 * for `quietMs`, or every `maxDelayMs` while it keeps changing, so a big sync does not recompute its
 * seller after every batch. Marks are cleared after their sellers are stored; a recompute killed
 * half-way is simply done again.
 */
export type AnalyticsRecomputeOptions = {
  db: Db;
  now?: () => Date;
  quietMs?: number;
  maxDelayMs?: number;
  intervalMs?: number;
  onError?: (error: unknown) => void;
};

/**
 * A seller's figures from the newest version of each of its facts; then its fact groups are compacted
 * when they hold many repeats or many small groups (a compaction folds older epochs away), or else
 * the groups made only of older epochs are dropped.
 */
export const recomputeSeller = async (db: Db, sellerId: number, now: Date): Promise<void> => {
  const read = await readSellerFacts(db, sellerId);
  const facts = liveFactsOf(read);
  const computed = computeSellerAnalytics(sellerId, facts);
  await storeSellerAnalytics(db, { sellerId, computedAt: now, ...computed });
  if (await compactSellerFacts(db, { read, epoch: computed.epoch })) return;
  if (facts.some((fact) => fact.epoch < computed.epoch)) await dropOlderEpochs(db, sellerId, computed.epoch);
};

/**
 * One pass: when the marks are due (the newest is `quietMs` old, or the oldest `maxDelayMs`), every
 * seller they name is recomputed and those marks cleared. A recompute reads facts written before
 * their marks, so it sees them; a batch marked meanwhile keeps its mark for the next pass.
 */
export const recomputeDueSellers = async (
  db: Db,
  options: { now: Date; quietMs: number; maxDelayMs: number },
): Promise<number> => {
  await ensureAnalyticsIndexes(db);
  const marks = await dirtyBatches(db);
  if (marks.length === 0) return 0;
  const ages = marks.map((mark) => options.now.getTime() - mark.at.getTime());
  if (Math.min(...ages) < options.quietMs && Math.max(...ages) < options.maxDelayMs) return 0;
  const sellerIds = [...new Set(marks.flatMap((mark) => mark.sellerIds))];
  for (const sellerId of sellerIds) await recomputeSeller(db, sellerId, options.now);
  await clearDirtyBatches(db, marks);
  return sellerIds.length;
};

export const startAnalyticsRecompute = (options: AnalyticsRecomputeOptions) => {
  const now = options.now ?? (() => new Date());
  const quietMs = options.quietMs ?? 2_000;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = recomputeDueSellers(options.db, { now: now(), quietMs, maxDelayMs })
      .then(() => undefined)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.intervalMs ?? 500);
      });
  };
  tick();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
};
