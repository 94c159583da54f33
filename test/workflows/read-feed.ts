import type { Kafka } from 'kafkajs';
import { ledgerTopicOf, LedgerFeedRecord } from '../../contracts/kafka/ledger-records';
import { ledgerEntities } from '../../workflows/ledger/ledger-collections';

/** One message of the ledger feed as a consumer gets it. */
export type FeedMessage = { topic: string; key: string; recordId: string; record: LedgerFeedRecord };

/**
 * Every message on the feed's topics under a prefix, read with kafkajs from the beginning up to the
 * end offsets taken first (a group of its own per call).
 */
export const readFeed = async (
  kafka: Kafka,
  options: { topicPrefix: string; groupId: string },
): Promise<FeedMessage[]> => {
  const topics = ledgerEntities.map((e) => ledgerTopicOf(options.topicPrefix, e));
  const admin = kafka.admin();
  await admin.connect();
  let expected = 0;
  const existing = new Set(await admin.listTopics());
  for (const topic of topics.filter((t) => existing.has(t)))
    for (const partition of await admin.fetchTopicOffsets(topic))
      expected += Number(partition.high) - Number(partition.low);
  await admin.disconnect();
  if (expected === 0) return [];
  const consumer = kafka.consumer({ groupId: options.groupId });
  await consumer.connect();
  await consumer.subscribe({ topics: topics.filter((t) => existing.has(t)), fromBeginning: true });
  const received: FeedMessage[] = [];
  await new Promise<void>((resolve, reject) => {
    consumer
      .run({
        eachMessage: ({ topic, message }) => {
          const record = LedgerFeedRecord.parse(JSON.parse(message.value?.toString() ?? 'null'));
          received.push({
            topic,
            key: message.key?.toString() ?? '',
            recordId: message.headers?.recordId?.toString() ?? '',
            record,
          });
          if (received.length === expected) resolve();
          return Promise.resolve();
        },
      })
      .catch(reject);
  });
  await consumer.disconnect();
  return received;
};
