import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { inviteStream, type InviteStream } from '../../contracts/stream-ids';
import { derivedKey } from './derived-keys';

/**
 * Tokens in emailed links. Verification links are signed (HMAC with the session secret) and carry
 * what they verify and until when; recovery links are random, and only their hash is recorded in the
 * user's stream, so neither the events nor the read models hold a usable link.
 */

// Signed with a key derived for links alone, never with the master secret itself (derived-keys.ts).
const sign = (secret: string, payload: string) =>
  createHmac('sha256', derivedKey(secret, 'link-signatures')).update(payload).digest('base64url');

/** A link that verifies `email` for `userId` until `expiresAt`. */
export const signVerificationToken = (
  secret: string,
  claim: { userId: number; email: string; expiresAt: Date },
): string => {
  const payload = Buffer.from(
    JSON.stringify({ u: claim.userId, e: claim.email, x: claim.expiresAt.getTime() }),
  ).toString('base64url');
  return `${payload}.${sign(secret, `verify:${payload}`)}`;
};

export const readVerificationToken = (
  secret: string,
  token: string,
  now: Date,
): { userId: number; email: string } | null => {
  const [payload, signature] = token.split('.');
  if (!payload || !signature) return null;
  const expected = Buffer.from(sign(secret, `verify:${payload}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const claim = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      u: unknown;
      e: unknown;
      x: unknown;
    };
    if (typeof claim.u !== 'number' || typeof claim.e !== 'string' || typeof claim.x !== 'number')
      return null;
    return claim.x > now.getTime() ? { userId: claim.u, email: claim.e } : null;
  } catch {
    return null;
  }
};

/** A random single-use token naming its user, and the hash that the user's stream records. */
export const newRecoveryToken = (userId: number): { token: string; tokenHash: string } => {
  const token = `${userId}.${randomBytes(32).toString('base64url')}`;
  return { token, tokenHash: recoveryTokenHash(token) };
};

export const userIdOfRecoveryToken = (token: string): number | null => {
  const match = /^(\d{1,10})\.[\w-]{20,}$/.exec(token);
  return match?.[1] ? Number(match[1]) : null;
};

export const recoveryTokenHash = (token: string): string =>
  createHash('sha256').update(`recovery:${token}`).digest('base64url');

/**
 * The secret of an invitation link: 32 random bytes that only the invitation email holds. The invite
 * stream records only its hash (unkeyed: 256 random bits cannot be guessed from it), so neither the
 * inviter, the events nor the read models can rebuild a working link (docs/adr/0020-invitation-tokens.md).
 */
export const newInvitationToken = (): { token: string; tokenHash: string } => {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: invitationTokenHash(token) };
};

export const invitationTokenHash = (token: string): string =>
  createHash('sha256').update(`invitation:${token}`).digest('base64url');

/** Invite streams are keyed by tenant and a keyed hash of the address, so the stream id leaks no email. */
export const inviteStreamOf = (secret: string, tenantId: number, normalisedEmail: string): InviteStream =>
  inviteStream(tenantId, createHmac('sha256', secret).update(`invite:${normalisedEmail}`).digest('hex'));
