import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../contracts/config';
import type { EventStore } from '../commands/event-store/event-store';
import { openSqliteEventStore } from '../commands/event-store/sqlite-event-store';

/** The embedded store's file: every process that shares the store opens this path. */
export const sqliteEventStorePath = (config: Config): string => join(config.DATA_DIR, 'events.sqlite');

/**
 * Opens the event store the configuration names: EventStoreDB when EVENTSTORE_URL is set, else the
 * embedded SQLite file under DATA_DIR.
 */
export const openEventStore = async (config: Config): Promise<EventStore> => {
  if (config.EVENTSTORE_URL) {
    // The EventStoreDB adapter (commands/event-store/esdb-event-store.ts) is not written yet.
    throw new Error(
      'EVENTSTORE_URL is set, but this build has no EventStoreDB adapter yet; unset it to use the embedded store',
    );
  }
  mkdirSync(config.DATA_DIR, { recursive: true });
  return openSqliteEventStore({ path: sqliteEventStorePath(config) });
};
