/**
 * A sync worker or an outbox publisher in a process of its own, so a test can SIGKILL it mid-work.
 * Usage: tsx ledger-child-process.ts worker|publisher (configuration from the environment).
 */
import { NativeConnection } from '@temporalio/worker';
import { Kafka, logLevel } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { loadConfig } from '../../contracts/config';
import { openEventSource } from '../../commands/open-event-source';
import { createLedgerOutboxPublisher } from '../../workflows/outbox/ledger-outbox-publisher';
import { connectorsFor } from '../../workflows/sync/connectors';
import { createSyncWorker } from '../../workflows/sync/worker';
import '../harness/quiet-temporal';

const main = async () => {
  const config = loadConfig(process.env);
  const mongo = await new MongoClient(config.MONGO_URL).connect();
  const db = mongo.db();
  if (process.argv[2] === 'publisher') {
    const kafka = new Kafka({
      clientId: 'child-publisher',
      brokers: config.KAFKA_BROKERS,
      logLevel: logLevel.NOTHING,
    });
    const publisher = createLedgerOutboxPublisher({
      db,
      kafka,
      topicPrefix: config.KAFKA_TOPIC_PREFIX,
      batchSize: 50,
    });
    process.stdout.write('ready\n');
    await publisher.drain();
    return;
  }
  const events = await openEventSource(config);
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const worker = await createSyncWorker({
    connection,
    config,
    deps: { db, writeSide: events.writeSide, connectorFor: connectorsFor(db), now: () => new Date() },
  });
  process.stdout.write('ready\n');
  await worker.run();
};

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
