import type { Kafka, Message, Producer } from 'kafkajs';
import { ledgerTopicOf } from '../../contracts/kafka/ledger-records';
import { ledgerEntities } from '../ledger/ledger-collections';
import { outboxRecordIdsOf, outboxValuesOf, type LedgerOutboxEntry } from '../ledger/ledger-outbox';

/**
 * Sends outbox entries to the feed's topics (docs/kafka-topics.md) and waits for the acknowledgement
 * of all in-sync replicas. Used by the outbox publisher and by the sync, which sends each page's entry
 * itself right after writing the page.
 */
export type LedgerFeedSender = {
  /** Sends every record of the entry; resolves with how many once Kafka acknowledged them all. */
  send: (entry: LedgerOutboxEntry) => Promise<number>;
  disconnect: () => Promise<void>;
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
  feed: { producer: Producer; topicPrefix: string },
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
      await feed.producer.send({ topic: ledgerTopicOf(feed.topicPrefix, entity), acks: -1, messages });
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

/** A sender with its own producer, connected (and the topics created) on first use. */
export const createLedgerFeedSender = (options: { kafka: Kafka; topicPrefix: string }): LedgerFeedSender => {
  const producer = options.kafka.producer({ allowAutoTopicCreation: false });
  let connected: Promise<void> | null = null;
  const connect = () => {
    connected ??= (async () => {
      await ensureLedgerTopics(options.kafka, options.topicPrefix);
      await producer.connect();
    })().catch((error: unknown) => {
      connected = null;
      throw error;
    });
    return connected;
  };
  return {
    send: async (entry) => {
      await connect();
      return sendEntry({ producer, topicPrefix: options.topicPrefix }, entry);
    },
    disconnect: async () => {
      if (connected) await connected.then(() => producer.disconnect()).catch(() => undefined);
    },
  };
};
