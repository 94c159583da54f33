import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { Collection, Db } from 'mongodb';

/**
 * Provider secrets (Sage passwords, ActiveCampaign API keys, OAuth tokens, the QBD Web Connector
 * password hash) never enter events, the audit trail or logs (docs/adr/0016-credential-vault.md):
 * events carry only a reference (`credentialsRef`) to an entry here. Entries are sealed with
 * AES-256-GCM under a key derived from the configured secret, and can be deleted, which events cannot.
 */

/** What one entry holds: field names to secret strings (`{ password }`, `{ apiKey }`, tokens). */
export type Secret = Record<string, string>;

export type CredentialKind = 'sage' | 'active_campaign' | 'oauth' | 'qbd_web_connector';

type VaultDoc = {
  _id: string;
  tenantId: number;
  kind: CredentialKind;
  /** `v1:<iv>:<tag>:<ciphertext>` in base64url; the reference and tenant are authenticated data. */
  sealed: string;
  createdAt: Date;
};

export type CredentialVault = {
  /** Seals the secret and answers the reference events may carry. */
  store: (entry: { tenantId: number; kind: CredentialKind; secret: Secret }) => Promise<string>;
  /** The secret, or null when the reference is unknown or was removed. */
  read: (ref: string) => Promise<{ tenantId: number; kind: CredentialKind; secret: Secret } | null>;
  remove: (ref: string) => Promise<void>;
  /** Tenant purge: every secret of the tenant goes. */
  removeForTenant: (tenantId: number) => Promise<number>;
};

export const CREDENTIAL_VAULT_COLLECTION = 'credential_vault';
const VERSION = 'v1';

/** One key for the vault, derived so that the session secret itself never encrypts anything. */
export const vaultKeyFrom = (masterSecret: string): Buffer =>
  Buffer.from(hkdfSync('sha256', masterSecret, 'ledgerwise', 'credential-vault v1', 32));

const aadOf = (ref: string, tenantId: number) => Buffer.from(`${ref}|${tenantId}`);

const seal = (key: Buffer, doc: Pick<VaultDoc, '_id' | 'tenantId'>, secret: Secret): string => {
  const iv = randomBytes(12);
  const aes = createCipheriv('aes-256-gcm', key, iv);
  aes.setAAD(aadOf(doc._id, doc.tenantId));
  const sealed = Buffer.concat([aes.update(JSON.stringify(secret), 'utf8'), aes.final()]);
  return [VERSION, ...[iv, aes.getAuthTag(), sealed].map((b) => b.toString('base64url'))].join(':');
};

const open = (key: Buffer, doc: VaultDoc): Secret => {
  const [version, iv, tag, sealed] = doc.sealed.split(':');
  if (version !== VERSION || !iv || !tag || !sealed) throw new Error(`credential ${doc._id} is not sealed`);
  const aes = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  aes.setAAD(aadOf(doc._id, doc.tenantId));
  aes.setAuthTag(Buffer.from(tag, 'base64url'));
  const clear = Buffer.concat([aes.update(Buffer.from(sealed, 'base64url')), aes.final()]);
  return JSON.parse(clear.toString('utf8')) as Secret;
};

export const createCredentialVault = (deps: { db: Db; masterSecret: string }): CredentialVault => {
  const key = vaultKeyFrom(deps.masterSecret);
  const entries: Collection<VaultDoc> = deps.db.collection<VaultDoc>(CREDENTIAL_VAULT_COLLECTION);
  return {
    store: async ({ tenantId, kind, secret }) => {
      const _id = `cred-${randomUUID()}`;
      const sealed = seal(key, { _id, tenantId }, secret);
      await entries.insertOne({ _id, tenantId, kind, sealed, createdAt: new Date() });
      return _id;
    },
    read: async (ref) => {
      const doc = await entries.findOne({ _id: ref });
      return doc ? { tenantId: doc.tenantId, kind: doc.kind, secret: open(key, doc) } : null;
    },
    remove: async (ref) => {
      await entries.deleteOne({ _id: ref });
    },
    removeForTenant: async (tenantId) => (await entries.deleteMany({ tenantId })).deletedCount,
  };
};
