import type { Kafka, Message, Producer } from 'kafkajs';
import type { Db } from 'mongodb';
import type { LedgerEntity } from '../../contracts/ledger';
import { ledgerRecordIdOf, ledgerTopicOf, type LedgerFeedRecord } from '../../contracts/kafka/ledger-records';
import { ledgerCollections, ledgerEntities, type LedgerDoc } from '../ledger/ledger-collections';

/**
 * Publishes pending ledger records to Kafka, at least once: send a batch, wait for the brokers'
 * acknowledgement, then clear the records' pending mark. A crash between the two resends the batch
 * with the same record ids, which consumers dedupe (docs/kafka-topics.md).
 */
export type LedgerOutboxPublisher = {
  /** Publishes until nothing is pending; returns how many records it sent. */
  drain: () => Promise<number>;
  /** Polls in the background until stop. */
  start: () => void;
  stop: () => Promise<void>;
};

export type LedgerOutboxOptions = {
  db: Db;
  kafka: Kafka;
  topicPrefix: string;
  batchSize?: number;
  pollIntervalMs?: number;
  onError?: (error: unknown) => void;
};

const PARTITIONS = 3;

const toFeedRecord = (entity: LedgerEntity, doc: LedgerDoc<LedgerEntity>): LedgerFeedRecord => {
  const { _id, tenantId, epoch, hash, changedAt, outboxPending, ...record } = doc;
  void _id;
  void outboxPending;
  return {
    schemaVersion: 1,
    recordId: ledgerRecordIdOf({ entity, sellerId: doc.sellerId, providerId: doc.providerId, epoch, hash }),
    entity,
    sellerId: doc.sellerId,
    tenantId,
    providerId: doc.providerId,
    epoch,
    changedAt: changedAt.toISOString(),
    // Dates become ISO strings through JSON.
    record: JSON.parse(JSON.stringify(record)) as LedgerFeedRecord['record'],
  };
};

const toMessage = (record: LedgerFeedRecord): Message => ({
  key: String(record.sellerId),
  value: JSON.stringify(record),
  headers: { recordId: record.recordId, schemaVersion: '1' },
});

/** Creates the feed's topics if missing (createTopics leaves existing ones alone). */
export const ensureLedgerTopics = async (kafka: Kafka, topicPrefix: string): Promise<void> => {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({
      topics: ledgerEntities.map((entity) => ({
        topic: ledgerTopicOf(topicPrefix, entity),
        numPartitions: PARTITIONS,
      })),
      waitForLeaders: true,
    });
  } finally {
    await admin.disconnect();
  }
};

const publishBatch = async (
  options: LedgerOutboxOptions & { producer: Producer },
  entity: LedgerEntity,
): Promise<number> => {
  const collection = options.db.collection<LedgerDoc<LedgerEntity>>(ledgerCollections[entity]);
  const pending = await collection
    .find({ outboxPending: true })
    .limit(options.batchSize ?? 1000)
    .toArray();
  if (pending.length === 0) return 0;
  await options.producer.send({
    topic: ledgerTopicOf(options.topicPrefix, entity),
    acks: -1,
    messages: pending.map((doc) => toMessage(toFeedRecord(entity, doc))),
  });
  // Only the version that was sent is cleared: a record rewritten meanwhile stays pending.
  await collection.bulkWrite(
    pending.map((doc) => ({
      updateOne: {
        filter: { _id: doc._id, hash: doc.hash, epoch: doc.epoch } as never,
        update: { $set: { outboxPending: false } },
      },
    })),
    { ordered: false },
  );
  return pending.length;
};

export const createLedgerOutboxPublisher = (options: LedgerOutboxOptions): LedgerOutboxPublisher => {
  const producer = options.kafka.producer({ allowAutoTopicCreation: false });
  let connected: Promise<void> | null = null;
  const connect = () => {
    connected ??= (async () => {
      await ensureLedgerTopics(options.kafka, options.topicPrefix);
      await producer.connect();
    })();
    return connected;
  };
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;

  const drain = async () => {
    await connect();
    let sent = 0;
    for (;;) {
      let round = 0;
      for (const entity of ledgerEntities) round += await publishBatch({ ...options, producer }, entity);
      sent += round;
      if (round === 0) return sent;
    }
  };

  const poll = async () => {
    while (running) {
      try {
        await drain();
      } catch (error) {
        options.onError?.(error);
      }
      if (!running) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, options.pollIntervalMs ?? 1000).unref();
      });
    }
  };

  return {
    drain,
    start: () => {
      if (running) return;
      running = true;
      loop = poll();
    },
    stop: async () => {
      running = false;
      wake?.();
      await loop;
      if (connected) await producer.disconnect();
    },
  };
};
