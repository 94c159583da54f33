/**
 * A sync worker (sending its pages to the ledger feed, as the worker process does) or an outbox
 * publisher in a process of its own, so a test can SIGKILL it mid-work.
 * Usage: node --import tsx ledger-child-process.ts worker|publisher|publisher-stalling (configuration
 * from the environment). publisher-stalling publishes one outbox entry, says `acknowledged` once
 * Kafka acknowledged the second, and then never deletes it: the test kills it at that exact point.
 */
import { NativeConnection } from '@temporalio/worker';
import { Kafka, logLevel } from 'kafkajs';
import type { Db } from 'mongodb';
import { openReadStore } from '../../projections/read-store/open-read-store';
import { loadConfig } from '../../contracts/config';
import { openEventSource } from '../../commands/open-event-source';
import { LEDGER_OUTBOX } from '../../workflows/ledger/ledger-outbox';
import { createThreadedLedgerFeedSender } from '../../workflows/outbox/threaded-ledger-feed-sender';
import { createLedgerOutboxPublisher } from '../../workflows/outbox/ledger-outbox-publisher';
import { connectorsFor } from '../../workflows/sync/connectors';
import { createSyncWorker } from '../../workflows/sync/worker';
import '../harness/quiet-temporal';

/** The database as the publisher sees it, with the outbox's second delete held forever. */
const stallingSecondDelete = (db: Db): Db => {
  let deletes = 0;
  return new Proxy(db, {
    get: (target, property, receiver) => {
      if (property !== 'collection') return Reflect.get(target, property, receiver) as unknown;
      return (name: string) => {
        const collection = target.collection(name);
        if (name !== LEDGER_OUTBOX) return collection;
        return new Proxy(collection, {
          get: (inner, key, innerReceiver) => {
            if (key !== 'deleteOne') return Reflect.get(inner, key, innerReceiver) as unknown;
            return (...args: Parameters<typeof collection.deleteOne>) => {
              deletes += 1;
              if (deletes < 2) return collection.deleteOne(...args);
              process.stdout.write('acknowledged\n');
              return new Promise(() => undefined);
            };
          },
        });
      };
    },
  });
};

const main = async () => {
  const config = loadConfig(process.env);
  const readStore = await openReadStore(config);
  const { db } = readStore;
  const role = process.argv[2];
  if (role === 'publisher' || role === 'publisher-stalling') {
    const kafka = new Kafka({
      clientId: 'child-publisher',
      brokers: config.KAFKA_BROKERS,
      logLevel: logLevel.NOTHING,
    });
    const publisher = createLedgerOutboxPublisher({
      db: role === 'publisher' ? db : stallingSecondDelete(db),
      kafka,
      topicPrefix: config.KAFKA_TOPIC_PREFIX,
      batchSize: 1,
    });
    process.stdout.write('ready\n');
    await publisher.drain();
    return;
  }
  const events = await openEventSource(config);
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  // As the worker process runs it: syncs send their pages to the ledger feed themselves, from a thread.
  const feed = createThreadedLedgerFeedSender({
    kafka: { clientId: 'child-worker', brokers: config.KAFKA_BROKERS, logLevel: logLevel.NOTHING },
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
  });
  const worker = await createSyncWorker({
    connection,
    config,
    deps: { db, writeSide: events.writeSide, connectorFor: connectorsFor(db), now: () => new Date(), feed },
  });
  process.stdout.write('ready\n');
  await worker.run();
};

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
