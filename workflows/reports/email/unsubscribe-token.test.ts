import { readUnsubscribeToken, signUnsubscribeToken, unsubscribeLink } from './unsubscribe-token';

const secret = 'a-test-secret-of-at-least-thirty-two-characters';

describe('unsubscribe tokens', () => {
  it('reads back the recipient and frequency it was signed for', () => {
    const weekly = signUnsubscribeToken(secret, { recipientId: 412, frequency: 'weekly' });
    const monthly = signUnsubscribeToken(secret, { recipientId: 412, frequency: 'monthly' });
    expect(readUnsubscribeToken(secret, weekly)).toEqual({ recipientId: 412, frequency: 'weekly' });
    expect(readUnsubscribeToken(secret, monthly)).toEqual({ recipientId: 412, frequency: 'monthly' });
    expect(weekly).not.toBe(monthly);
  });

  it('refuses a token whose recipient, frequency or signature was changed', () => {
    const token = signUnsubscribeToken(secret, { recipientId: 412, frequency: 'weekly' });
    const [, code, signature] = token.split('.');
    expect(readUnsubscribeToken(secret, `413.${code}.${signature}`)).toBeNull();
    expect(readUnsubscribeToken(secret, `412.m.${signature}`)).toBeNull();
    const flipped = `${signature?.slice(0, -1)}${signature?.endsWith('A') ? 'B' : 'A'}`;
    expect(readUnsubscribeToken(secret, `412.${code}.${flipped}`)).toBeNull();
  });

  it('refuses a token signed with another secret, and malformed ones', () => {
    const foreign = signUnsubscribeToken('another-secret-of-at-least-thirty-two-chars', {
      recipientId: 412,
      frequency: 'weekly',
    });
    expect(readUnsubscribeToken(secret, foreign)).toBeNull();
    for (const bad of ['', 'x', '412.w', '412.w.', '0.w.abc', '-1.w.abc', '412.d.' + 'a'.repeat(43)])
      expect(readUnsubscribeToken(secret, bad)).toBeNull();
  });

  it('links to the web page with the token in the query', () => {
    const token = signUnsubscribeToken(secret, { recipientId: 7, frequency: 'monthly' });
    const link = new URL(unsubscribeLink('https://app.ledgerwise.test', token));
    expect(link.pathname).toBe('/unsubscribe');
    expect(link.searchParams.get('token')).toBe(token);
  });
});
