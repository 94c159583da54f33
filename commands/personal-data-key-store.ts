import { randomBytes } from 'node:crypto';

/**
 * Where the per-subject keys of personal data live (docs/adr/0005-personal-data.md). Unlike events,
 * keys can be deleted: erasing a subject's key makes its encrypted fields unreadable for good.
 * Adapters: SQLite beside the event store (sqlite-personal-data-key-store.ts) and in memory for tests.
 */
export interface PersonalDataKeyStore {
  /** The subject's 256-bit key, created on first use; 'erased' once the subject was erased. */
  keyFor(subject: string): Promise<Buffer | 'erased'>;
  /** The key if the subject has one; null if it never had one or it was erased. */
  existingKey(subject: string): Promise<Buffer | null>;
  /** Deletes the key for good and remembers the subject, so no new key is ever made for it. */
  erase(subject: string): Promise<void>;
  close(): Promise<void>;
}

export const KEY_BYTES = 32;

export const newSubjectKey = (): Buffer => randomBytes(KEY_BYTES);

/** For tests and single-process tools: keys vanish with the process. */
export class InMemoryPersonalDataKeyStore implements PersonalDataKeyStore {
  private readonly keys = new Map<string, Buffer | 'erased'>();

  keyFor(subject: string): Promise<Buffer | 'erased'> {
    let key = this.keys.get(subject);
    if (!key) {
      key = newSubjectKey();
      this.keys.set(subject, key);
    }
    return Promise.resolve(key);
  }

  existingKey(subject: string): Promise<Buffer | null> {
    const key = this.keys.get(subject);
    return Promise.resolve(key instanceof Buffer ? key : null);
  }

  erase(subject: string): Promise<void> {
    const key = this.keys.get(subject);
    if (key instanceof Buffer) key.fill(0);
    this.keys.set(subject, 'erased');
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
