import type { Kafka, Message, Producer } from 'kafkajs';
import type { Db } from 'mongodb';
import { ledgerTopicOf } from '../../contracts/kafka/ledger-records';
import { ledgerEntities } from '../ledger/ledger-collections';
import {
  LEDGER_OUTBOX,
  outboxRecordIdsOf,
  outboxValuesOf,
  type LedgerOutboxEntry,
} from '../ledger/ledger-outbox';

/**
 * Publishes the ledger outbox to Kafka, at least once: send an entry's records, wait for the brokers'
 * acknowledgement, then delete the entry. A crash between the two resends that entry's records with
 * the same record ids, which consumers dedupe (docs/kafka-topics.md). Entries go in the order they
 * were written, so a seller's later version of a record follows its earlier one.
 */
export type LedgerOutboxPublisher = {
  /** Publishes until the outbox is empty; returns how many records it sent. */
  drain: () => Promise<number>;
  /** Polls in the background until stop. */
  start: () => void;
  stop: () => Promise<void>;
};

export type LedgerOutboxOptions = {
  db: Db;
  kafka: Kafka;
  topicPrefix: string;
  /** Outbox entries (pages) read per round. */
  batchSize?: number;
  pollIntervalMs?: number;
  onError?: (error: unknown) => void;
};

const PARTITIONS = 3;
/** One produce request stays under the broker's default 1 MB record batch. */
const MAX_SEND_BYTES = 512 * 1024;
const MAX_SEND_MESSAGES = 1000;

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

const sendEntry = async (
  options: LedgerOutboxOptions & { producer: Producer },
  entry: LedgerOutboxEntry,
): Promise<number> => {
  let sent = 0;
  for (const entity of ledgerEntities) {
    const values = outboxValuesOf(entry, entity);
    const ids = outboxRecordIdsOf(entry, entity);
    let messages: Message[] = [];
    let bytes = 0;
    const flush = async () => {
      if (messages.length === 0) return;
      await options.producer.send({ topic: ledgerTopicOf(options.topicPrefix, entity), acks: -1, messages });
      sent += messages.length;
      messages = [];
      bytes = 0;
    };
    for (const [index, value] of values.entries()) {
      if (messages.length >= MAX_SEND_MESSAGES || bytes + value.length > MAX_SEND_BYTES) await flush();
      messages.push({
        key: String(entry.sellerId),
        value,
        headers: { recordId: ids[index] ?? '', schemaVersion: '1' },
      });
      bytes += value.length;
    }
    await flush();
  }
  return sent;
};

const publishRound = async (
  options: LedgerOutboxOptions & { producer: Producer },
): Promise<{ entries: number; sent: number }> => {
  const outbox = options.db.collection<LedgerOutboxEntry>(LEDGER_OUTBOX);
  // No sort: the natural order is the insertion order, and FerretDB would sort by reading every entry.
  const entries = await outbox
    .find({})
    .limit(options.batchSize ?? 4)
    .toArray();
  let sent = 0;
  for (const entry of entries) {
    sent += await sendEntry(options, entry);
    await outbox.deleteOne({ _id: entry._id });
  }
  return { entries: entries.length, sent };
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
      const round = await publishRound({ ...options, producer });
      sent += round.sent;
      if (round.entries === 0) return sent;
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
