import type { Collection, Db } from 'mongodb';

/**
 * Login lockout (portal.md section 9: 30 minutes): repeated failures lock an account, and separately a
 * client address, for 30 minutes. Kept in Mongo so every gateway process sees the same counts.
 */
export const lockoutMinutes = 30;
export const limits = { account: 5, address: 20 } as const;

type Scope = keyof typeof limits;
type ThrottleDoc = { _id: string; failures: number; windowStart: Date; lockedUntil: Date | null };

export type LoginThrottle = {
  /** The moment the lock ends if the account or the address is locked now, else null. */
  lockedUntil: (who: { email: string; ip: string }, now: Date) => Promise<Date | null>;
  recordFailure: (who: { email: string; ip: string }, now: Date) => Promise<void>;
  /** A successful login clears the account's failures (not the address's: one good login must not unlock a guesser). */
  recordSuccess: (who: { email: string }) => Promise<void>;
};

const keyOf = (scope: Scope, value: string) => `${scope}:${value.trim().toLowerCase()}`;
const windowMs = lockoutMinutes * 60_000;

export const createLoginThrottle = async (db: Db): Promise<LoginThrottle> => {
  const throttle: Collection<ThrottleDoc> = db.collection('login_throttle');
  await throttle.createIndex({ lockedUntil: 1 });

  const fail = async (scope: Scope, value: string, now: Date) => {
    const _id = keyOf(scope, value);
    const current = await throttle.findOne({ _id });
    // A failure outside the window starts a new count; an expired lock is forgotten.
    const fresh = !current || now.getTime() - current.windowStart.getTime() > windowMs;
    const failures = fresh ? 1 : current.failures + 1;
    const lockedUntil = failures >= limits[scope] ? new Date(now.getTime() + windowMs) : null;
    await throttle.updateOne(
      { _id },
      { $set: { failures, windowStart: fresh ? now : current.windowStart, lockedUntil } },
      { upsert: true },
    );
  };

  return {
    lockedUntil: async ({ email, ip }, now) => {
      const docs = await throttle
        .find({ _id: { $in: [keyOf('account', email), keyOf('address', ip)] } })
        .toArray();
      const ends = docs.map((d) => d.lockedUntil).filter((d): d is Date => d !== null && d > now);
      return ends.length === 0 ? null : new Date(Math.max(...ends.map((d) => d.getTime())));
    },
    recordFailure: async ({ email, ip }, now) => {
      await fail('account', email, now);
      await fail('address', ip, now);
    },
    recordSuccess: async ({ email }) => {
      await throttle.deleteOne({ _id: keyOf('account', email) });
    },
  };
};
