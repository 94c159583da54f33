import { createHmac } from 'node:crypto';
import { derivedKey } from './derived-keys';
import { readVerificationToken, signVerificationToken } from './signed-links';

const master = 'm'.repeat(40);

describe('derived keys', () => {
  it('gives each purpose its own key, none of them the master secret', () => {
    const cookies = derivedKey(master, 'cookie-signing');
    const links = derivedKey(master, 'link-signatures');
    expect(cookies.equals(links)).toBe(false);
    expect(cookies.toString('utf8')).not.toBe(master);
    expect(derivedKey(master, 'cookie-signing').equals(cookies)).toBe(true);
  });

  it('signs verification links with the link key, so a master-secret signature is refused', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const claim = { userId: 5, email: 'a@example.com', expiresAt: new Date('2026-01-02T00:00:00Z') };
    const token = signVerificationToken(master, claim);
    expect(readVerificationToken(master, token, now)).toEqual({ userId: 5, email: 'a@example.com' });
    const [payload] = token.split('.');
    const forged = `${payload}.${createHmac('sha256', master).update(`verify:${payload}`).digest('base64url')}`;
    expect(readVerificationToken(master, forged, now)).toBeNull();
  });
});
