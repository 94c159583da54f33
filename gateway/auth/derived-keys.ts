import { hkdfSync } from 'node:crypto';

/**
 * One master secret (SESSION_SECRET), one key per use: HKDF-SHA256 with a purpose label, so a key
 * that leaks through one use (a cookie signature oracle, a link signature) says nothing about the
 * others. The credential vault derives its key the same way in commands/credential-vault.ts
 * ('credential-vault v1'); docs/adr/0021-gateway-front-door.md lists the labels.
 */
export type KeyPurpose = 'cookie-signing' | 'link-signatures';

export const derivedKey = (masterSecret: string, purpose: KeyPurpose): Buffer =>
  Buffer.from(hkdfSync('sha256', masterSecret, 'ledgerwise', `${purpose} v1`, 32));
