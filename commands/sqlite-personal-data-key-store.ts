import Database from 'better-sqlite3';
import { newSubjectKey, type PersonalDataKeyStore } from './personal-data-key-store';

/**
 * Personal-data keys in a SQLite file of their own, in the data folder beside the event store (a
 * separate file because events are immutable and keys must be deletable). Several processes may
 * open it; `secure_delete` and a WAL checkpoint after each erase keep an erased key's bytes from
 * lingering in free pages or the write-ahead log.
 */

export type SqlitePersonalDataKeyStoreOptions = { path: string; busyTimeoutMs?: number };

type KeyRow = { key: Buffer | null };

export class SqlitePersonalDataKeyStore implements PersonalDataKeyStore {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(options: SqlitePersonalDataKeyStoreOptions) {
    this.db = new Database(options.path, { timeout: options.busyTimeoutMs ?? 10_000 });
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = FULL');
      this.db.pragma('secure_delete = ON');
      // A NULL key with erased_at set is a tombstone: the subject may never get a key again.
      this.db.exec(`CREATE TABLE IF NOT EXISTS subject_keys (
        subject TEXT PRIMARY KEY,
        key BLOB,
        created_at INTEGER NOT NULL,
        erased_at INTEGER
      ) WITHOUT ROWID`);
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.statements = {
      select: this.db.prepare<[string], KeyRow>('SELECT key FROM subject_keys WHERE subject = ?'),
      insert: this.db.prepare<[string, Buffer, number]>(
        'INSERT INTO subject_keys (subject, key, created_at) VALUES (?, ?, ?) ON CONFLICT (subject) DO NOTHING',
      ),
      erase: this.db.prepare<[string, number, number]>(
        `INSERT INTO subject_keys (subject, key, created_at, erased_at) VALUES (?, NULL, ?, ?)
         ON CONFLICT (subject) DO UPDATE SET key = NULL, erased_at = excluded.erased_at`,
      ),
    };
  }

  keyFor(subject: string): Promise<Buffer | 'erased'> {
    return this.run(() =>
      this.db
        .transaction((): Buffer | 'erased' => {
          // Insert-if-absent inside a write transaction: two processes creating the same subject's
          // key at once end up with the one that was committed first.
          this.statements.insert.run(subject, newSubjectKey(), Date.now());
          const row = this.statements.select.get(subject);
          return row?.key ?? 'erased';
        })
        .immediate(),
    );
  }

  existingKey(subject: string): Promise<Buffer | null> {
    return this.run(() => this.statements.select.get(subject)?.key ?? null);
  }

  erase(subject: string): Promise<void> {
    return this.run(() => {
      const now = Date.now();
      this.statements.erase.run(subject, now, now);
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    });
  }

  close(): Promise<void> {
    return this.run(() => {
      this.db.close();
    });
  }

  private run<T>(work: () => T): Promise<T> {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

export const openSqlitePersonalDataKeyStore = (
  options: SqlitePersonalDataKeyStoreOptions,
): Promise<PersonalDataKeyStore> => {
  try {
    return Promise.resolve(new SqlitePersonalDataKeyStore(options));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
};
