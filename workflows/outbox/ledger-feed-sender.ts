import type { Kafka, Message, Producer } from 'kafkajs';
import type { LedgerEntity } from '../../contracts/ledger';
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

/** One entity's feed lines of an entry and their record ids, in write order. */
export type FeedRecords = { entity: LedgerEntity; values: string[]; recordIds: string[] };

/**
 * Sends one seller's feed lines (docs/kafka-topics.md: keyed by seller, headers recordId and
 * schemaVersion), in produce requests under the broker's limits, acks from all in-sync replicas.
 */
export const sendFeedRecords = async (
  feed: { producer: Producer; topicPrefix: string },
  sellerId: number,
  records: readonly FeedRecords[],
): Promise<number> => {
  let sent = 0;
  const key = String(sellerId);
  for (const { entity, values, recordIds } of records) {
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
      messages.push({ key, value, headers: { recordId: recordIds[index] ?? '', schemaVersion: '1' } });
      bytes += value.length;
    }
    await flush();
  }
  return sent;
};

/** Per entity, the entry's feed lines and record ids (entities without records left out). */
export const feedRecordsOf = (entry: LedgerOutboxEntry): FeedRecords[] =>
  ledgerEntities
    .map((entity) => ({
      entity,
      values: outboxValuesOf(entry, entity),
      recordIds: outboxRecordIdsOf(entry, entity),
    }))
    .filter(({ values }) => values.length > 0);

/**
 * A producer of the feed's records, connected (and the topics created) on first use. The main-thread
 * sender below and the feed thread (ledger-feed-thread.ts) both send through one.
 */
export const createFeedProducer = (options: { kafka: Kafka; topicPrefix: string }) => {
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
    sendRecords: async (sellerId: number, records: readonly FeedRecords[]): Promise<number> => {
      await connect();
      return sendFeedRecords({ producer, topicPrefix: options.topicPrefix }, sellerId, records);
    },
    disconnect: async () => {
      if (connected) await connected.then(() => producer.disconnect()).catch(() => undefined);
    },
  };
};

/** A sender with its own producer, connected (and the topics created) on first use. */
export const createLedgerFeedSender = (options: { kafka: Kafka; topicPrefix: string }): LedgerFeedSender => {
  const producer = createFeedProducer(options);
  return {
    send: (entry) => producer.sendRecords(entry.sellerId, feedRecordsOf(entry)),
    disconnect: () => producer.disconnect(),
  };
};
