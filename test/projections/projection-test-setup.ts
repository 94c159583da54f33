import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from 'mongodb';
import { eventRegistry } from '../../commands/event-registry';
import type { EventStore } from '../../commands/event-store/event-store';
import { SqliteEventStore } from '../../commands/event-store/sqlite-event-store';
import { InMemoryPersonalDataKeyStore } from '../../commands/personal-data-key-store';
import { createEventDecoder } from '../../projections/event-decoder';
import { isolatedNames, testConfig } from '../harness/isolation';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';

/**
 * Per test file: its own Mongo database (through the harness), SQLite event stores on temporary
 * files, and an in-memory personal-data key store with the decoder the projector uses.
 */
export const useProjectionTestSetup = (testFile: string) => {
  const config = testConfig(isolatedNames(testFile));
  const context = {
    db: undefined as unknown as Db,
    keys: new InMemoryPersonalDataKeyStore(),
    decode: undefined as unknown as ReturnType<typeof createEventDecoder>,
  };
  let readStore: ReadStore | undefined;
  let dir = '';
  let count = 0;
  const opened: EventStore[] = [];

  beforeAll(async () => {
    readStore = await openReadStore(config);
    context.db = readStore.db;
    context.decode = createEventDecoder({ keys: context.keys, registry: eventRegistry });
    dir = mkdtempSync(join(tmpdir(), 'ledgerwise-projections-'));
  });
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
    await context.db.dropDatabase();
    await readStore?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A new SQLite event store on a new file. */
  const openStore = (): EventStore => {
    const store = new SqliteEventStore({ path: join(dir, `events-${(count += 1)}.sqlite`) });
    opened.push(store);
    return store;
  };

  return { config, context, openStore };
};
