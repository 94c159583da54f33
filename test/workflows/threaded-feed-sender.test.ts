import { Kafka, logLevel } from 'kafkajs';
import { ledgerTopicOf } from '../../contracts/kafka/ledger-records';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import type { DemoProfile } from '../../workflows/demo/demo-profile';
import { ledgerEntities } from '../../workflows/ledger/ledger-collections';
import { outboxEntriesOf, type LedgerOutboxEntry } from '../../workflows/ledger/ledger-outbox';
import { serializedDocsOf } from '../../workflows/ledger/write-ledger-page';
import { createLedgerFeedSender } from '../../workflows/outbox/ledger-feed-sender';
import { createThreadedLedgerFeedSender } from '../../workflows/outbox/threaded-ledger-feed-sender';
import { isolatedNames, testConfig } from '../harness/isolation';
import { readFeed, type FeedMessage } from './read-feed';

jest.setTimeout(120_000);

const names = isolatedNames(__filename);
const config = testConfig(names);
const kafka = new Kafka({ clientId: names.runId, brokers: config.KAFKA_BROKERS, logLevel: logLevel.NOTHING });
const company: DemoProfile = { seed: 11, startDate: '2023-01-01', invoicesPerYear: 600 };
const until = new Date('2024-06-30T12:00:00.000Z');
const sellerId = 404;

/** The outbox entries of a DEMO company's pages, as a populate makes them (lines kept in process). */
const demoEntries = async (): Promise<LedgerOutboxEntry[]> => {
  const entries: LedgerOutboxEntry[] = [];
  let cursor: string | null = null;
  do {
    const fetched = fetchDemoPage(company, { sellerId, since: null, until, cursor, pageSize: 200 });
    const context = { tenantId: 9, epoch: 3, now: new Date('2024-07-01T00:00:00.000Z') };
    entries.push(
      ...(await outboxEntriesOf(
        sellerId,
        ledgerEntities.map((entity) => ({ entity, docs: serializedDocsOf(context, fetched.page[entity]) })),
      )),
    );
    cursor = fetched.nextCursor;
  } while (cursor !== null);
  return entries;
};

/** Per entity's topic, the messages in the order a consumer of the seller's partition reads them. */
const byTopic = (messages: FeedMessage[], topicPrefix: string) =>
  Object.fromEntries(
    ledgerEntities.map((entity) => [
      entity,
      messages
        .filter((m) => m.topic === ledgerTopicOf(topicPrefix, entity))
        .map(({ key, recordId, record }) => ({ key, recordId, record })),
    ]),
  );

describe('the threaded ledger feed sender', () => {
  it('puts on the feed exactly what the main-thread sender does: same records, keys, record ids and order', async () => {
    const entries = await demoEntries();
    expect(entries.length).toBeGreaterThan(3);
    const mainPrefix = `${config.KAFKA_TOPIC_PREFIX}.main`;
    const threadPrefix = `${config.KAFKA_TOPIC_PREFIX}.thread`;
    const onMain = createLedgerFeedSender({ kafka, topicPrefix: mainPrefix });
    const onThread = createThreadedLedgerFeedSender({
      kafka: { clientId: `${names.runId}-thread`, brokers: config.KAFKA_BROKERS, logLevel: logLevel.NOTHING },
      topicPrefix: threadPrefix,
    });
    let sentOnMain = 0;
    let sentOnThread = 0;
    try {
      for (const entry of entries) {
        sentOnMain += await onMain.send(entry);
        sentOnThread += await onThread.send(entry);
      }
    } finally {
      await onMain.disconnect();
      await onThread.disconnect();
    }
    expect(sentOnThread).toBe(sentOnMain);
    expect(sentOnThread).toBeGreaterThan(1000);
    const fromMain = await readFeed(kafka, { topicPrefix: mainPrefix, groupId: `${names.runId}-main` });
    const fromThread = await readFeed(kafka, { topicPrefix: threadPrefix, groupId: `${names.runId}-thread` });
    expect(fromThread).toHaveLength(sentOnThread);
    expect(byTopic(fromThread, threadPrefix)).toEqual(byTopic(fromMain, mainPrefix));
    expect(new Set(fromThread.map((m) => m.recordId)).size).toBe(sentOnThread);
    expect(fromThread.every((m) => m.key === String(sellerId) && m.record.recordId === m.recordId)).toBe(
      true,
    );
  });

  it('sends again after a disconnect, from a new thread', async () => {
    const [entry] = await demoEntries();
    if (!entry) throw new Error('no entry');
    const topicPrefix = `${config.KAFKA_TOPIC_PREFIX}.again`;
    const sender = createThreadedLedgerFeedSender({
      kafka: { clientId: `${names.runId}-again`, brokers: config.KAFKA_BROKERS, logLevel: logLevel.NOTHING },
      topicPrefix,
    });
    const first = await sender.send(entry);
    await sender.disconnect();
    const second = await sender.send(entry);
    await sender.disconnect();
    expect(second).toBe(first);
    const feed = await readFeed(kafka, { topicPrefix, groupId: `${names.runId}-again` });
    expect(feed).toHaveLength(first * 2);
  });

  it('rejects a send Kafka refuses (a topic name it does not accept) instead of hanging', async () => {
    const [entry] = await demoEntries();
    if (!entry) throw new Error('no entry');
    // A prefix whose topics the thread cannot create: Kafka refuses spaces in topic names.
    const sender = createThreadedLedgerFeedSender({
      kafka: { clientId: `${names.runId}-bad`, brokers: config.KAFKA_BROKERS, logLevel: logLevel.NOTHING },
      topicPrefix: 'bad topic name with spaces',
    });
    try {
      await expect(sender.send(entry)).rejects.toThrow();
    } finally {
      await sender.disconnect();
    }
  });
});
