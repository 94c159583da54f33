import { redactSecrets } from './redact-secrets';

describe('redactSecrets', () => {
  it('replaces hashes, tokens, keys, secrets and credentials at any depth, and nothing else', () => {
    const state = {
      userId: 1,
      email: 'a@example.com',
      passwordHash: 'scrypt$16384$8$1$salt$hash',
      passwordResetRequired: false,
      authTokenStatus: 'active',
      recovery: { tokenHash: 'abc', expiresAt: '2030-01-01' },
      connections: [
        { apiKey: 'key-1', url: 'https://x.example' },
        { clientSecret: 's', credentials: { a: 1 } },
      ],
      PasswordHash: null,
      at: new Date(0),
    };
    expect(redactSecrets(state)).toEqual({
      userId: 1,
      email: 'a@example.com',
      passwordHash: '[redacted]',
      passwordResetRequired: false,
      authTokenStatus: 'active',
      recovery: { tokenHash: '[redacted]', expiresAt: '2030-01-01' },
      connections: [
        { apiKey: '[redacted]', url: 'https://x.example' },
        { clientSecret: '[redacted]', credentials: '[redacted]' },
      ],
      // "No password set" stays visible.
      PasswordHash: null,
      at: new Date(0),
    });
    expect(state.passwordHash).toBe('scrypt$16384$8$1$salt$hash');
  });
});
