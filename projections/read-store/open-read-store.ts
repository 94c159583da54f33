import { embeddedReadStorePath } from '../../contracts/config';
import { MongoClient, type Db } from 'mongodb';
import type { StatementObserver } from './embedded/embedded-collection';
import { EmbeddedDb } from './embedded/embedded-db';

/**
 * Where read models live (docs/adr/0028-embedded-read-store.md), chosen as the event store is:
 * MongoDB when MONGO_URL is set (production, and FerretDB in the wire-compatibility tests), otherwise
 * the embedded SQLite read store under DATA_DIR, which has real indexes on these machines.
 *
 * Callers get the driver's `Db` type either way. The embedded store implements the part of that API
 * the product uses, and the read-store contract suite (test/read-store/) runs the same cases against
 * both; a method outside that part throws naming itself rather than misbehaving.
 */
export type ReadStore = {
  kind: 'mongodb' | 'embedded';
  db: Db;
  /** Fails when the store cannot answer (health checks). */
  ping: () => Promise<void>;
  close: () => Promise<void>;
};

export type ReadStoreConfig = {
  MONGO_URL?: string | undefined;
  DATA_DIR: string;
  READ_STORE_PATH?: string | undefined;
};

export const openReadStore = async (
  config: ReadStoreConfig,
  options: {
    onDamaged?: (message: string, setAsidePath: string) => void;
    /** Embedded store only: sees each query's SQL before it runs (tests of index use). */
    observeStatements?: StatementObserver;
  } = {},
): Promise<ReadStore> => {
  if (config.MONGO_URL) {
    const client = await MongoClient.connect(config.MONGO_URL, { serverSelectionTimeoutMS: 5000 });
    const db = client.db();
    return {
      kind: 'mongodb',
      db,
      ping: async () => {
        await db.admin().ping();
      },
      close: () => client.close(),
    };
  }
  const embedded = new EmbeddedDb({ path: embeddedReadStorePath(config), ...options });
  return {
    kind: 'embedded',
    db: embedded as unknown as Db,
    ping: async () => {
      await embedded.command({ ping: 1 });
    },
    close: () => {
      embedded.close();
      return Promise.resolve();
    },
  };
};
