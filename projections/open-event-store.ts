import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../contracts/config';
import { eventRegistry } from '../commands/event-registry';
import type { EventStore } from '../commands/event-store/event-store';
import { openEsdbEventStore } from '../commands/event-store/esdb-event-store';
import { openSqliteEventStore } from '../commands/event-store/sqlite-event-store';
import type { PersonalDataKeyStore } from '../commands/personal-data-key-store';
import { openSqlitePersonalDataKeyStore } from '../commands/sqlite-personal-data-key-store';
import { createEventDecoder } from './event-decoder';

/** The embedded store's file: every process that shares the store opens this path. */
export const sqliteEventStorePath = (config: Config): string => join(config.DATA_DIR, 'events.sqlite');

/** The personal-data keys' file (docs/adr/0005-personal-data.md): beside the events, deletable. */
export const personalDataKeysPath = (config: Config): string =>
  join(config.DATA_DIR, 'personal-data-keys.sqlite');

/**
 * Opens the event store the configuration names: EventStoreDB when EVENTSTORE_URL is set, else the
 * embedded SQLite file under DATA_DIR.
 */
export const openEventStore = async (config: Config): Promise<EventStore> => {
  if (config.EVENTSTORE_URL) return openEsdbEventStore({ connectionString: config.EVENTSTORE_URL });
  mkdirSync(config.DATA_DIR, { recursive: true });
  return openSqliteEventStore({ path: sqliteEventStorePath(config) });
};

export type EventSource = {
  store: EventStore;
  decode: ReturnType<typeof createEventDecoder>;
  close: () => Promise<void>;
};

/** The event store plus the decoder projections read through (decryption with the key store, upcasting). */
export const openEventSource = async (config: Config): Promise<EventSource> => {
  const store = await openEventStore(config);
  let keys: PersonalDataKeyStore;
  try {
    mkdirSync(config.DATA_DIR, { recursive: true });
    keys = await openSqlitePersonalDataKeyStore({ path: personalDataKeysPath(config) });
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    store,
    decode: createEventDecoder({ keys, registry: eventRegistry }),
    close: async () => {
      await store.close();
      await keys.close();
    },
  };
};
