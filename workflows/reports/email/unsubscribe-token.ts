import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { RecipientSendFlag } from '../../../contracts/events/recipient';

/**
 * The token of a report email's "Stop receiving the weekly report" link: which subscription and which
 * frequency it turns off, signed so that nobody can build one for another recipient
 * (docs/adr/0037-report-sheets-and-email.md). The worker signs it when it sends the email and the
 * gateway verifies it when the link is followed, so it lives here, below both.
 *
 * The key is derived from the master secret (SESSION_SECRET) the way gateway/auth/derived-keys.ts
 * derives its keys, HKDF-SHA256 with a label of its own (`report-unsubscribe v1`): a leak of the
 * link-signing or cookie key says nothing about this one, and this one signs nothing else.
 * The token does not expire: an unsubscribe link in a months-old email must still work, and the worst
 * a leaked one can do is stop that one recipient's reports of that frequency.
 */
export type UnsubscribeFrequency = 'weekly' | 'monthly';

export type UnsubscribeClaim = { recipientId: number; frequency: UnsubscribeFrequency };

const codes: Record<UnsubscribeFrequency, string> = { weekly: 'w', monthly: 'm' };

/** The recipient flag a frequency's link turns off. */
export const sendFlagOf: Record<UnsubscribeFrequency, RecipientSendFlag> = {
  weekly: 'SendWeekly',
  monthly: 'SendMonthly',
};

const keys = new Map<string, Buffer>();
const keyOf = (secret: string): Buffer => {
  const known = keys.get(secret);
  if (known) return known;
  const key = Buffer.from(hkdfSync('sha256', secret, 'ledgerwise', 'report-unsubscribe v1', 32));
  keys.set(secret, key);
  return key;
};

const signatureOf = (secret: string, payload: string) =>
  createHmac('sha256', keyOf(secret)).update(`unsubscribe:${payload}`).digest('base64url');

/** `<recipientId>.<w|m>.<signature>`: short, URL-safe, and readable only by the secret's holder. */
export const signUnsubscribeToken = (secret: string, claim: UnsubscribeClaim): string => {
  if (!Number.isSafeInteger(claim.recipientId) || claim.recipientId <= 0)
    throw new Error(`recipientId must be a positive integer, got ${claim.recipientId}`);
  const payload = `${claim.recipientId}.${codes[claim.frequency]}`;
  return `${payload}.${signatureOf(secret, payload)}`;
};

/** The claim of a genuine token; null for anything else (malformed, tampered, signed with another key). */
export const readUnsubscribeToken = (secret: string, token: string): UnsubscribeClaim | null => {
  const match = /^([1-9]\d{0,14})\.([wm])\.([\w-]{43})$/.exec(token);
  if (!match) return null;
  const [, id = '', code = '', signature = ''] = match;
  const expected = Buffer.from(signatureOf(secret, `${id}.${code}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const recipientId = Number(id);
  if (!Number.isSafeInteger(recipientId)) return null;
  return { recipientId, frequency: code === 'w' ? 'weekly' : 'monthly' };
};

/**
 * The email's List-Unsubscribe address: mail clients POST to it (one click, RFC 8058); a GET goes on
 * to the web page of the same link (gateway/routes/reports/unsubscribe-routes.ts).
 */
export const oneClickUnsubscribeLinkOf = (pageLink: string): string => {
  const page = new URL(pageLink);
  const token = page.searchParams.get('token') ?? '';
  return new URL(
    `/api/subscriptions/unsubscribe/one-click?token=${encodeURIComponent(token)}`,
    page,
  ).toString();
};

/** The web page the email links to (web/src/pages/reports/unsubscribe-page.tsx). */
export const unsubscribeLink = (publicUrl: string, token: string): string =>
  new URL(`/unsubscribe?token=${encodeURIComponent(token)}`, publicUrl).toString();
