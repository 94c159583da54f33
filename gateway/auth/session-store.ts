import { createHash, randomBytes } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { readStoreChangeToken } from '../../projections/framework/read-store-change';

/**
 * Server-side sessions: the browser holds only a random token in an httpOnly, SameSite cookie; the store
 * holds a hash of it, so a leaked database does not hand out live sessions. Sessions end by idle time
 * (portal.md 154 and admin.md 210: 900 seconds, the browser warning 60 seconds before), by logout, or
 * by revocation of every session of a user (password change, admin Reset Auth, member disabled, user
 * deleted). Platform-admin rights are not kept here: the access hook derives them on every request.
 */
export const idleMinutes = 15;
/** No session lives longer than this, however active. */
export const absoluteHours = 12;
/**
 * Activity moves the idle deadline at most every 30 s, to spare the database a write per request. The
 * web app sends a keep-alive at most every 30 s of activity (web/src/session/use-idle-logout.ts), so
 * the server's deadline trails the user's last activity by under a minute: the browser's one-minute
 * warning always comes before the server ends the session.
 */
const touchEveryMs = 30_000;

export type Session = {
  userId: number;
  /** The tenant the user is working in (switchTenant changes it). */
  tenantId: number | null;
  /** The user must set a new password before anything else (route guard /reset-password). */
  resetPasswordRequired: boolean;
  /** Set on the session a recovery link opened: the one token its password reset may spend. */
  recoveryTokenHash?: string | null;
  createdAt: Date;
  idleExpiresAt: Date;
  absoluteExpiresAt: Date;
};

type SessionDoc = Session & { _id: string; lastTouchedAt: Date };

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

export type SessionStore = {
  create: (
    session: Pick<Session, 'userId' | 'tenantId' | 'resetPasswordRequired'> &
      Pick<Partial<Session>, 'recoveryTokenHash'>,
    now: Date,
  ) => Promise<{ token: string; session: Session }>;
  /** The live session of a token, its idle deadline moved forward; null when unknown, idle or expired. */
  resume: (token: string, now: Date) => Promise<Session | null>;
  /** The live session of a token without moving its idle deadline (an open websocket is not activity). */
  peek: (token: string, now: Date) => Promise<Session | null>;
  update: (
    token: string,
    changes: Partial<Pick<Session, 'tenantId' | 'resetPasswordRequired' | 'recoveryTokenHash'>>,
  ) => Promise<void>;
  revoke: (token: string) => Promise<void>;
  /** Ends every session of a user, except optionally the one making the change. */
  revokeAllOf: (userId: number, options?: { except?: string }) => Promise<number>;
};

/** However quiet the store, a cached session is read again after this long (a safety net only). */
export const sessionCacheTtlMs = 10_000;
/** Sessions kept in process at most; the oldest go first beyond it. */
const maxCachedSessions = 10_000;

/**
 * One small document per user whose `epoch` moves whenever one of their sessions is ended or changed
 * (ADR 29). Every process reads it, by key, before it trusts a session it cached: so a logout or a
 * revocation through any gateway process is refused by every other one on its very next request.
 */
export const SESSION_EPOCHS = 'session_epochs';
type SessionEpochDoc = { _id: number; epoch: number };

/** `checkedAt`: the read store's change token when the epoch was last read (ADR 54). */
type CachedSession = { doc: SessionDoc; epoch: number; cachedAt: number; checkedAt: string | undefined };

export const createSessionStore = async (db: Db): Promise<SessionStore> => {
  const sessions: Collection<SessionDoc> = db.collection('sessions');
  const epochs: Collection<SessionEpochDoc> = db.collection(SESSION_EPOCHS);
  await sessions.createIndex({ userId: 1 });
  await sessions.createIndex({ idleExpiresAt: 1 });
  const cache = new Map<string, CachedSession>();

  const idleDeadline = (now: Date) => new Date(now.getTime() + idleMinutes * 60_000);
  // Sessions stored before platform-admin rights left the session may still carry the old flag.
  const strip = ({
    _id: _hash,
    lastTouchedAt: _touched,
    isPlatformAdmin: _frozen,
    ...session
  }: SessionDoc & { isPlatformAdmin?: boolean }): Session => session;

  const epochOf = async (userId: number) => (await epochs.findOne({ _id: userId }))?.epoch ?? 0;
  /** Called after the store changed: other processes drop what they cached of this user's sessions. */
  const bumpEpoch = async (userId: number) => {
    for (const [hash, entry] of cache) if (entry.doc.userId === userId) cache.delete(hash);
    await epochs.updateOne({ _id: userId }, { $inc: { epoch: 1 } }, { upsert: true });
  };
  const remember = (doc: SessionDoc, now: Date, read: { epoch: number; checkedAt: string | undefined }) => {
    cache.delete(doc._id);
    cache.set(doc._id, { doc, cachedAt: now.getTime(), ...read });
    if (cache.size > maxCachedSessions) cache.delete(cache.keys().next().value as string);
  };
  const isLive = (doc: SessionDoc, now: Date) => doc.idleExpiresAt > now && doc.absoluteExpiresAt > now;

  /**
   * The session document of a token: from the cache while its user's epoch has not moved, it is young
   * and still live by its cached deadlines; from the store otherwise (another process may have moved
   * the idle deadline). The epoch is read before the document, so a document read after it is never
   * older than the epoch it is cached under.
   */
  const load = async (hash: string, now: Date): Promise<SessionDoc | null> => {
    const cached = cache.get(hash);
    if (cached && now.getTime() - cached.cachedAt < sessionCacheTtlMs && isLive(cached.doc, now)) {
      // Nothing written to the store since the epoch was read (by any process): it cannot have moved.
      const token = readStoreChangeToken(db);
      if (token !== undefined && token === cached.checkedAt) return cached.doc;
      if ((await epochOf(cached.doc.userId)) === cached.epoch) {
        cached.checkedAt = token;
        return cached.doc;
      }
    }
    cache.delete(hash);
    const doc = await sessions.findOne({ _id: hash });
    if (!doc) return null;
    // An epoch read after the document could be newer than it: read it first, then the document again.
    const token = readStoreChangeToken(db);
    const epoch = await epochOf(doc.userId);
    const fresh = await sessions.findOne({ _id: hash });
    if (fresh) remember(fresh, now, { epoch, checkedAt: token });
    return fresh;
  };

  return {
    create: async (fields, now) => {
      const token = randomBytes(32).toString('base64url');
      const doc: SessionDoc = {
        _id: hashOf(token),
        ...fields,
        createdAt: now,
        idleExpiresAt: idleDeadline(now),
        absoluteExpiresAt: new Date(now.getTime() + absoluteHours * 3_600_000),
        lastTouchedAt: now,
      };
      await sessions.insertOne(doc);
      return { token, session: strip(doc) };
    },
    resume: async (token, now) => {
      const doc = await load(hashOf(token), now);
      if (!doc) return null;
      if (!isLive(doc, now)) {
        await sessions.deleteOne({ _id: doc._id });
        await bumpEpoch(doc.userId);
        return null;
      }
      if (now.getTime() - doc.lastTouchedAt.getTime() >= touchEveryMs) {
        // Cached documents are shared by concurrent requests: replace, never mutate.
        const touched = { ...doc, idleExpiresAt: idleDeadline(now), lastTouchedAt: now };
        await sessions.updateOne(
          { _id: doc._id },
          { $set: { idleExpiresAt: touched.idleExpiresAt, lastTouchedAt: now } },
        );
        const cached = cache.get(doc._id);
        if (cached) cache.set(doc._id, { ...cached, doc: touched });
        return strip(touched);
      }
      return strip(doc);
    },
    peek: async (token, now) => {
      const doc = await load(hashOf(token), now);
      if (!doc || !isLive(doc, now)) return null;
      return strip(doc);
    },
    update: async (token, changes) => {
      const hash = hashOf(token);
      const doc = await sessions.findOne({ _id: hash }, { projection: { userId: 1 } });
      await sessions.updateOne({ _id: hash }, { $set: changes });
      cache.delete(hash);
      if (doc) await bumpEpoch(doc.userId);
    },
    revoke: async (token) => {
      const hash = hashOf(token);
      const doc = await sessions.findOne({ _id: hash }, { projection: { userId: 1 } });
      await sessions.deleteOne({ _id: hash });
      cache.delete(hash);
      if (doc) await bumpEpoch(doc.userId);
    },
    revokeAllOf: async (userId, options) => {
      const filter = options?.except ? { userId, _id: { $ne: hashOf(options.except) } } : { userId };
      const result = await sessions.deleteMany(filter);
      await bumpEpoch(userId);
      return result.deletedCount;
    },
  };
};
