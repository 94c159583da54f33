import type { Db } from 'mongodb';
import {
  clearDirtySeller,
  dirtySellers,
  dropOlderEpochs,
  ensureAnalyticsIndexes,
  sellerFacts,
  storeSellerAnalytics,
  type DirtySellerDoc,
} from '../../projections/analytics/analytics-store';
import { computeSellerAnalytics } from './seller-analytics';

/**
 * Recomputes the figures of sellers whose facts changed (docs/adr/0041). A seller is recomputed once
 * its facts have been quiet for `quietMs`, or every `maxDelayMs` while they keep changing, so a big
 * sync does not recompute the seller after every batch. The mark is cleared only if no batch marked
 * it again meanwhile; a recompute killed half-way is simply done again.
 */
export type AnalyticsRecomputeOptions = {
  db: Db;
  now?: () => Date;
  quietMs?: number;
  maxDelayMs?: number;
  intervalMs?: number;
  onError?: (error: unknown) => void;
};

export const recomputeSeller = async (db: Db, sellerId: number, now: Date): Promise<void> => {
  const facts = await sellerFacts(db, sellerId);
  const computed = computeSellerAnalytics(sellerId, facts);
  await storeSellerAnalytics(db, { sellerId, computedAt: now, ...computed });
  if (facts.some((fact) => fact.epoch < computed.epoch)) await dropOlderEpochs(db, sellerId, computed.epoch);
};

/** One pass over the marks that are due; answers how many sellers it recomputed. */
export const recomputeDueSellers = async (
  db: Db,
  options: { now: Date; quietMs: number; maxDelayMs: number },
): Promise<number> => {
  await ensureAnalyticsIndexes(db);
  const due = (mark: DirtySellerDoc) =>
    options.now.getTime() - mark.at.getTime() >= options.quietMs ||
    options.now.getTime() - mark.since.getTime() >= options.maxDelayMs;
  let done = 0;
  for (const mark of (await dirtySellers(db)).filter(due)) {
    await recomputeSeller(db, mark._id, options.now);
    await clearDirtySeller(db, mark);
    done += 1;
  }
  return done;
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
