import { hashPassword, needsRehash, verifyPassword } from './password-hash';

// Small parameters keep the tests quick; the production parameters are exercised once below.
const fast = { N: 2 ** 10, r: 8, p: 1, keyLength: 32 };

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('Receivables2025', fast);
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$/);
    await expect(verifyPassword('Receivables2025', stored)).resolves.toBe(true);
    await expect(verifyPassword('receivables2025', stored)).resolves.toBe(false);
  });

  it('salts every hash, so equal passwords give different hashes', async () => {
    expect(await hashPassword('Receivables2025', fast)).not.toBe(await hashPassword('Receivables2025', fast));
  });

  it('never verifies a malformed or foreign hash', async () => {
    await expect(verifyPassword('x', 'bcrypt$2b$10$abc')).resolves.toBe(false);
    await expect(verifyPassword('x', '')).resolves.toBe(false);
  });

  it('asks for a rehash when a hash was made with weaker parameters', async () => {
    const weak = await hashPassword('Receivables2025', fast);
    expect(needsRehash(weak)).toBe(true);
    const strong = await hashPassword('Receivables2025');
    expect(needsRehash(strong)).toBe(false);
    await expect(verifyPassword('Receivables2025', strong)).resolves.toBe(true);
  });
});
