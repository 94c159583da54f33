/**
 * A sync worker with the cloud connectors in a process of its own, so a test can SIGKILL it mid-sync.
 * Usage: node --import tsx connector-child-process.ts (configuration from the environment, the
 * platforms' URLs pointing at the test's fakes).
 */
import { NativeConnection } from '@temporalio/worker';
import { openEventSource } from '../../commands/open-event-source';
import { loadConfig } from '../../contracts/config';
import { openReadStore } from '../../projections/read-store/open-read-store';
import { connectorsFor } from '../../workflows/sync/connectors';
import { createSyncWorker } from '../../workflows/sync/worker';
import '../harness/quiet-temporal';

const main = async () => {
  const config = loadConfig(process.env);
  const { db } = await openReadStore(config);
  const events = await openEventSource(config);
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const now = () => new Date();
  const worker = await createSyncWorker({
    connection,
    config,
    deps: {
      db,
      writeSide: events.writeSide,
      connectorFor: connectorsFor(db, { config, writeSide: events.writeSide, now }),
      now,
    },
  });
  process.stdout.write('ready\n');
  await worker.run();
};

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
