import type { Db, MongoServerError } from 'mongodb';

/**
 * One metrics computation per seller at a time. Two runs storing a seller's customer metrics at once
 * would each delete the other's rows (metric-store.ts keeps only its own generation), and a run that
 * read the ledger before a sync finished must not store after the run that read it after.
 */
const METRIC_LEASES = 'metric_leases';

type Lease = { _id: number; holder: string; expiresAt: Date };

/** A holder that dies keeps the seller for at most this long; a live one renews well before. */
export const leaseMs = 60_000;
const renewEveryMs = leaseMs / 3;
const pollMs = 500;

const isDuplicateKey = (error: unknown) => (error as Partial<MongoServerError>)?.code === 11000;

/** Takes the lease if it is free, expired or already ours (a retried attempt of the same run). */
const tryAcquire = async (db: Db, lease: { sellerId: number; holder: string; now: Date }) => {
  try {
    await db
      .collection<Lease>(METRIC_LEASES)
      .updateOne(
        { _id: lease.sellerId, $or: [{ holder: lease.holder }, { expiresAt: { $lte: lease.now } }] },
        { $set: { holder: lease.holder, expiresAt: new Date(lease.now.getTime() + leaseMs) } },
        { upsert: true },
      );
    return true;
  } catch (error) {
    // Another holder's live lease: the upsert found no match and could not insert the same _id.
    if (isDuplicateKey(error)) return false;
    throw error;
  }
};

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
  const leases = deps.db.collection<Lease>(METRIC_LEASES);
  for (let waits = 0; !(await tryAcquire(deps.db, { ...lease, now: deps.now() })); waits += 1) {
    await lease.onWait?.({ first: waits === 0 });
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const renewal = setInterval(() => {
    const expiresAt = new Date(deps.now().getTime() + leaseMs);
    leases.updateOne({ _id: lease.sellerId, holder: lease.holder }, { $set: { expiresAt } }).catch(() => {
      // The next renewal tries again; a lease lost meanwhile only lets another run start early.
    });
  }, renewEveryMs);
  try {
    return await work();
  } finally {
    clearInterval(renewal);
    await leases.deleteOne({ _id: lease.sellerId, holder: lease.holder });
  }
};
