import type { Db, MongoServerError } from 'mongodb';

/**
 * A named lease in Mongo: at most one live holder at a time, which renews it well before it expires; a
 * holder that dies keeps it only until then. Used where exactly one process may do a piece of work
 * (one active processor per projection across projector processes).
 */
export type MongoLease = {
  /** Takes the lease if it is free, expired or already ours; true when we hold it now. */
  tryAcquire: () => Promise<boolean>;
  /** Extends our hold; false when the lease is no longer ours (it expired and another took it). */
  renew: () => Promise<boolean>;
  /** Gives it up at once, so another holder need not wait for the expiry. */
  release: () => Promise<void>;
  /** Who holds it now and until when, or null when nobody does. */
  holderNow: () => Promise<{ holder: string; expiresAt: Date } | null>;
};

type LeaseDoc = { _id: string | number; holder: string; expiresAt: Date };

const isDuplicateKey = (error: unknown) => (error as Partial<MongoServerError>)?.code === 11000;

export const mongoLease = (
  db: Db,
  lease: {
    collection: string;
    /** What is leased: a projection's name, a seller's id... */
    name: string | number;
    holder: string;
    ttlMs: number;
    now?: () => Date;
  },
): MongoLease => {
  const leases = db.collection<LeaseDoc>(lease.collection);
  const now = lease.now ?? (() => new Date());
  const until = () => new Date(now().getTime() + lease.ttlMs);
  return {
    tryAcquire: async () => {
      try {
        await leases.updateOne(
          { _id: lease.name, $or: [{ holder: lease.holder }, { expiresAt: { $lte: now() } }] },
          { $set: { holder: lease.holder, expiresAt: until() } },
          { upsert: true },
        );
        return true;
      } catch (error) {
        // Another holder's live lease: the filter matched nothing and the upsert hit the same _id.
        if (isDuplicateKey(error)) return false;
        throw error;
      }
    },
    renew: async () => {
      const result = await leases.updateOne(
        { _id: lease.name, holder: lease.holder },
        { $set: { expiresAt: until() } },
      );
      return result.matchedCount === 1;
    },
    release: async () => {
      await leases.deleteOne({ _id: lease.name, holder: lease.holder });
    },
    holderNow: async () => {
      const doc = await leases.findOne({ _id: lease.name });
      return doc && doc.expiresAt > now() ? { holder: doc.holder, expiresAt: doc.expiresAt } : null;
    },
  };
};
