import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt, a memory-hard function built into Node (no native add-on to build).
 * Parameters are stored with each hash, so they can be raised later and old hashes still verify;
 * `needsRehash` tells the login flow to upgrade a hash made with weaker ones.
 */
export type ScryptParameters = { N: number; r: number; p: number; keyLength: number };

/** About 64 MiB and tens of milliseconds per hash on a 2-core machine: costly to guess, fine to log in. */
export const defaultParameters: ScryptParameters = { N: 2 ** 16, r: 8, p: 1, keyLength: 32 };

const scrypt = (password: string, salt: Buffer, params: ScryptParameters): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const options: ScryptOptions = {
      N: params.N,
      r: params.r,
      p: params.p,
      maxmem: 256 * params.N * params.r,
    };
    scryptCallback(password.normalize('NFKC'), salt, params.keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });

/** `scrypt$N$r$p$<salt base64>$<hash base64>` */
export const hashPassword = async (
  password: string,
  params: ScryptParameters = defaultParameters,
): Promise<string> => {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
};

const parse = (stored: string): { params: ScryptParameters; salt: Buffer; key: Buffer } | null => {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return null;
  const keyBytes = Buffer.from(key, 'base64');
  return {
    params: { N: Number(n), r: Number(r), p: Number(p), keyLength: keyBytes.length },
    salt: Buffer.from(salt, 'base64'),
    key: keyBytes,
  };
};

/** Constant-time comparison; a malformed stored hash never verifies. */
export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const parsed = parse(stored);
  if (!parsed) return false;
  const candidate = await scrypt(password, parsed.salt, parsed.params);
  return candidate.length === parsed.key.length && timingSafeEqual(candidate, parsed.key);
};

export const needsRehash = (stored: string, params: ScryptParameters = defaultParameters): boolean => {
  const parsed = parse(stored);
  return (
    !parsed ||
    parsed.params.N < params.N ||
    parsed.params.r < params.r ||
    parsed.params.keyLength < params.keyLength
  );
};
