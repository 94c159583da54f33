/**
 * A projector process for the kill test: runs the audit-history processor against a SQLite event store
 * until it is killed. Arguments: <events.sqlite> <personal-data-keys.sqlite> <the test's config as JSON>
 * (the read store is the test's own).
 */
import { eventRegistry } from '../../commands/event-registry';
import { openSqliteEventStore } from '../../commands/event-store/sqlite-event-store';
import { openSqlitePersonalDataKeyStore } from '../../commands/sqlite-personal-data-key-store';
import { auditHistoryProjection } from '../../projections/audit-history/audit-history-projection';
import { createEventDecoder } from '../../projections/event-decoder';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { openReadStore } from '../../projections/read-store/open-read-store';

const main = async () => {
  const [storePath = '', keysPath = '', config = '{}'] = process.argv.slice(2);
  const store = await openSqliteEventStore({ path: storePath });
  const keys = await openSqlitePersonalDataKeyStore({ path: keysPath });
  const readStore = await openReadStore(JSON.parse(config) as Parameters<typeof openReadStore>[0]);
  const processor = new ProjectionProcessor({
    db: readStore.db,
    store,
    projection: auditHistoryProjection,
    batchSize: 100,
    decode: createEventDecoder({ keys, registry: eventRegistry }),
  });
  processor.start();
  process.stdout.write('projecting\n');
  setInterval(() => undefined, 60_000); // stay alive until killed
};

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
