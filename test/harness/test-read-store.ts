import type { Db } from 'mongodb';
import type { Config } from '../../contracts/config';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { isolatedNames, testConfig } from './isolation';

/**
 * A test file's own read store (the embedded one, or the wire server's database when the suite runs on
 * MongoDB), opened before its tests and dropped after them. `db()` is valid inside tests and hooks.
 */
export const useTestReadStore = (testFile: string): { config: Config; db: () => Db } => {
  const config = testConfig(isolatedNames(testFile));
  let readStore: ReadStore | undefined;
  beforeAll(async () => {
    readStore = await openReadStore(config);
  });
  afterAll(async () => {
    await readStore?.db.dropDatabase();
    await readStore?.close();
  });
  return {
    config,
    db: () => {
      if (!readStore) throw new Error('the read store opens in beforeAll');
      return readStore.db;
    },
  };
};
