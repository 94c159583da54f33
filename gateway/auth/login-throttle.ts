import { MongoServerError, type Collection, type Db } from 'mongodb';

/**
 * Login lockout (portal.md section 9: 30 minutes) that an attacker cannot aim at someone else's
 * account (ADR 26). Failures are counted three ways, each in a 30-minute window:
 * - per (account, source address) pair: 5 failures lock that pair for 30 minutes, so a guesser is
 *   stopped while the owner, signing in from anywhere else, is not;
 * - per source address: 20 failures lock the address, whichever accounts it tried;
 * - per account, from every address: past 50 failures (at least ten addresses, as each pair stops at
 *   5) every further failure delays the account's next attempt, doubling from one second up to the
 *   full 30 minutes. Only a distributed attack reaches it, and then the account is what it protects.
 * Counts are incremented atomically in Mongo ($inc), so parallel attempts each count and every
 * gateway process sees the same numbers.
 */
export const lockoutMinutes = 30;
export const limits = { pair: 5, address: 20, account: 50 } as const;

type Scope = keyof typeof limits;
type ThrottleDoc = { _id: string; failures: number; windowStart: Date; lockedUntil: Date | null };
type Who = { email: string; ip: string };

export type FailureCounts = Record<Scope, number>;

export type LoginThrottle = {
  /** The moment the lock ends if this account from this address (or the address) is locked now, else null. */
  lockedUntil: (who: Who, now: Date) => Promise<Date | null>;
  recordFailure: (who: Who, now: Date) => Promise<void>;
  /**
   * A successful login clears the failures of its own (account, address) pair only: neither the
   * address's (one good login must not unlock a guesser) nor the account's (an owner signing in
   * must not reset a distributed attack's count).
   */
  recordSuccess: (who: Who) => Promise<void>;
  /** The failures counted in the current windows (what support looks at when someone is locked out). */
  failureCounts: (who: Who, now: Date) => Promise<FailureCounts>;
};

const windowMs = lockoutMinutes * 60_000;
const normalised = (value: string) => value.trim().toLowerCase();
const keyOf = (scope: Scope, { email, ip }: Who) => {
  switch (scope) {
    case 'pair':
      return `pair:${normalised(email)}|${normalised(ip)}`;
    case 'address':
      return `address:${normalised(ip)}`;
    case 'account':
      return `account:${normalised(email)}`;
  }
};

/** How long a failure keeps its scope locked, given the failures counted so far in the window. */
const lockMsAfter = (scope: Scope, failures: number): number => {
  if (failures < limits[scope]) return 0;
  if (scope !== 'account') return windowMs;
  // Progressive: 1 s at the limit, doubling with each further failure, at most the full lockout.
  return Math.min(windowMs, 1000 * 2 ** (failures - limits.account));
};

const DUPLICATE_KEY = 11000;
const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === DUPLICATE_KEY;

export const createLoginThrottle = async (db: Db): Promise<LoginThrottle> => {
  const throttle: Collection<ThrottleDoc> = db.collection('login_throttle');
  await throttle.createIndex({ lockedUntil: 1 });

  /** Counts one failure and answers the count after it; never a read-then-write, so racing failures all count. */
  const count = async (_id: string, now: Date): Promise<number> => {
    const windowOpen = { $gt: new Date(now.getTime() - windowMs) };
    for (;;) {
      const counted = await throttle.findOneAndUpdate(
        { _id, windowStart: windowOpen },
        { $inc: { failures: 1 } },
        { returnDocument: 'after' },
      );
      if (counted) return counted.failures;
      // No open window: restart an expired one, or start the first. Whoever loses either race
      // (another attempt restarted or created it first) goes round and increments the new window.
      const restarted = await throttle.updateOne(
        { _id, windowStart: { $lte: new Date(now.getTime() - windowMs) } },
        { $set: { failures: 1, windowStart: now, lockedUntil: null } },
      );
      if (restarted.modifiedCount === 1) return 1;
      try {
        await throttle.insertOne({ _id, failures: 1, windowStart: now, lockedUntil: null });
        return 1;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
  };

  const fail = async (scope: Scope, who: Who, now: Date) => {
    const _id = keyOf(scope, who);
    const failures = await count(_id, now);
    const lockMs = lockMsAfter(scope, failures);
    if (lockMs > 0) {
      await throttle.updateOne({ _id }, { $set: { lockedUntil: new Date(now.getTime() + lockMs) } });
    }
  };

  const scopes = Object.keys(limits) as Scope[];

  return {
    lockedUntil: async (who, now) => {
      const docs = await throttle.find({ _id: { $in: scopes.map((scope) => keyOf(scope, who)) } }).toArray();
      const ends = docs.map((d) => d.lockedUntil).filter((d): d is Date => d !== null && d > now);
      return ends.length === 0 ? null : new Date(Math.max(...ends.map((d) => d.getTime())));
    },
    recordFailure: async (who, now) => {
      await Promise.all(scopes.map((scope) => fail(scope, who, now)));
    },
    recordSuccess: async (who) => {
      await throttle.deleteOne({ _id: keyOf('pair', who) });
    },
    failureCounts: async (who, now) => {
      const docs = await throttle.find({ _id: { $in: scopes.map((scope) => keyOf(scope, who)) } }).toArray();
      const open = (scope: Scope) => {
        const doc = docs.find((d) => d._id === keyOf(scope, who));
        return doc && now.getTime() - doc.windowStart.getTime() < windowMs ? doc.failures : 0;
      };
      return { pair: open('pair'), address: open('address'), account: open('account') };
    },
  };
};
