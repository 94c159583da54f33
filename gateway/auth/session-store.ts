import { createHash, randomBytes } from 'node:crypto';
import type { Collection, Db } from 'mongodb';

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

export const createSessionStore = async (db: Db): Promise<SessionStore> => {
  const sessions: Collection<SessionDoc> = db.collection('sessions');
  await sessions.createIndex({ userId: 1 });
  await sessions.createIndex({ idleExpiresAt: 1 });

  const idleDeadline = (now: Date) => new Date(now.getTime() + idleMinutes * 60_000);
  // Sessions stored before platform-admin rights left the session may still carry the old flag.
  const strip = ({
    _id: _hash,
    lastTouchedAt: _touched,
    isPlatformAdmin: _frozen,
    ...session
  }: SessionDoc & { isPlatformAdmin?: boolean }): Session => session;

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
      const doc = await sessions.findOne({ _id: hashOf(token) });
      if (!doc) return null;
      if (doc.idleExpiresAt <= now || doc.absoluteExpiresAt <= now) {
        await sessions.deleteOne({ _id: doc._id });
        return null;
      }
      if (now.getTime() - doc.lastTouchedAt.getTime() >= touchEveryMs) {
        doc.idleExpiresAt = idleDeadline(now);
        doc.lastTouchedAt = now;
        await sessions.updateOne(
          { _id: doc._id },
          { $set: { idleExpiresAt: doc.idleExpiresAt, lastTouchedAt: now } },
        );
      }
      return strip(doc);
    },
    peek: async (token, now) => {
      const doc = await sessions.findOne({ _id: hashOf(token) });
      if (!doc || doc.idleExpiresAt <= now || doc.absoluteExpiresAt <= now) return null;
      return strip(doc);
    },
    update: async (token, changes) => {
      await sessions.updateOne({ _id: hashOf(token) }, { $set: changes });
    },
    revoke: async (token) => {
      await sessions.deleteOne({ _id: hashOf(token) });
    },
    revokeAllOf: async (userId, options) => {
      const filter = options?.except ? { userId, _id: { $ne: hashOf(options.except) } } : { userId };
      const result = await sessions.deleteMany(filter);
      return result.deletedCount;
    },
  };
};
