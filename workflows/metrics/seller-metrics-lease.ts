import type { Db } from 'mongodb';
import { mongoLease } from '../../projections/framework/mongo-lease';

/**
 * One metrics computation per seller at a time. Two runs storing a seller's customer metrics at once
 * would each delete the other's rows (metric-store.ts keeps only its own generation), and a run that
 * read the ledger before a sync finished must not store after the run that read it after.
 */
const METRIC_LEASES = 'metric_leases';

/** A holder that dies keeps the seller for at most this long; a live one renews well before. */
export const leaseMs = 60_000;
const renewEveryMs = leaseMs / 3;
const pollMs = 500;

export type SellerMetricsLease = {
  sellerId: number;
  /** The run's workflow id: a retried attempt takes its own lease back at once. */
  holder: string;
  /** Called while another run holds the seller (first with `first` true): heartbeat, tell the job. */
  onWait?: (wait: { first: boolean }) => Promise<void> | void;
};

/** Runs `work` holding the seller's metrics lease, waiting for it as long as another run holds it. */
export const withSellerMetricsLease = async <T>(
  deps: { db: Db; now: () => Date },
  lease: SellerMetricsLease,
  work: () => Promise<T>,
): Promise<T> => {
  const held = mongoLease(deps.db, {
    collection: METRIC_LEASES,
    name: lease.sellerId,
    holder: lease.holder, // a retried attempt of the same run takes its own lease back at once
    ttlMs: leaseMs,
    now: deps.now,
  });
  for (let waits = 0; !(await held.tryAcquire()); waits += 1) {
    await lease.onWait?.({ first: waits === 0 });
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const renewal = setInterval(() => {
    held.renew().catch(() => {
      // The next renewal tries again; a lease lost meanwhile only lets another run start early.
    });
  }, renewEveryMs);
  try {
    return await work();
  } finally {
    clearInterval(renewal);
    await held.release();
  }
};
