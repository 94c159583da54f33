import type { RecordedEvent } from '../contracts/events/envelope';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../contracts/config';
import { eventRegistry } from './event-registry';
import type { EventStore } from './event-store/event-store';
import { openSqliteEventStore } from './event-store/sqlite-event-store';
import type { PersonalDataKeyStore } from './personal-data-key-store';
import { openSqlitePersonalDataKeyStore } from './sqlite-personal-data-key-store';
import type { CommandHandlerDeps } from './command-handler';
import { decodeEvents } from './event-codec';
import { createPersonalDataProtector } from './personal-data';

/** The embedded store's file: every process that shares the store opens this path. */
export const sqliteEventStorePath = (config: Config): string => join(config.DATA_DIR, 'events.sqlite');

/** The personal-data keys' file (docs/adr/0005-personal-data.md): beside the events, deletable. */
export const personalDataKeysPath = (config: Config): string =>
  join(config.DATA_DIR, 'personal-data-keys.sqlite');

/**
 * Opens the event store the configuration names: EventStoreDB when EVENTSTORE_URL is set, else the
 * embedded SQLite file under DATA_DIR. The EventStoreDB client (and its native bridge) is loaded only
 * when it is used.
 */
export const openEventStore = async (config: Config): Promise<EventStore> => {
  if (config.EVENTSTORE_URL) {
    const { openEsdbEventStore } = await import('./event-store/esdb-event-store');
    return openEsdbEventStore({ connectionString: config.EVENTSTORE_URL });
  }
  mkdirSync(config.DATA_DIR, { recursive: true });
  return openSqliteEventStore({ path: sqliteEventStorePath(config) });
};

export type EventSource = {
  store: EventStore;
  /** Events as readers see them: personal data decrypted or erased, upcast, unknown types passed through. */
  decode: (events: readonly RecordedEvent[]) => Promise<RecordedEvent[]>;
  /** What command handling needs: the store, the registry and the personal-data protector. */
  writeSide: CommandHandlerDeps;
  close: () => Promise<void>;
};

/** The event store, its personal-data keys, and the decoding and command handling built on them. */
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
  const writeSide: CommandHandlerDeps = {
    store,
    registry: eventRegistry,
    personalData: createPersonalDataProtector({ keys, registry: eventRegistry }),
  };
  return {
    store,
    decode: (events) => decodeEvents(writeSide, events, { lenient: true }),
    writeSide,
    close: async () => {
      await store.close();
      await keys.close();
    },
  };
};
