import type { ChildProcess } from 'node:child_process';
import { Kafka, logLevel } from 'kafkajs';
import type { LedgerEntity } from '../../contracts/ledger';
import { ledgerTopicOf, type LedgerFeedRecord } from '../../contracts/kafka/ledger-records';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import type { DemoProfile } from '../../workflows/demo/demo-profile';
import { ledgerCollections, ledgerEntities, type LedgerDoc } from '../../workflows/ledger/ledger-collections';
import {
  LEDGER_OUTBOX,
  outboxEntryRecordIds,
  toFeedRecord,
  type LedgerOutboxEntry,
} from '../../workflows/ledger/ledger-outbox';
import { writeLedgerPage } from '../../workflows/ledger/write-ledger-page';
import { createLedgerOutboxPublisher } from '../../workflows/outbox/ledger-outbox-publisher';
import { childSays, killHard, useLedgerWorld } from './ledger-world';
import { readFeed } from './read-feed';

jest.setTimeout(180_000);

const world = useLedgerWorld(__filename);
const sellerId = 303;
const company: DemoProfile = { seed: 5, startDate: '2022-01-01', invoicesPerYear: 1200 };
const until = new Date('2024-06-30T12:00:00.000Z');

const outboxEntries = () => world.db().collection<LedgerOutboxEntry>(LEDGER_OUTBOX).countDocuments({});

describe('the ledger outbox publisher', () => {
  let child: ChildProcess | null = null;

  afterEach(async () => {
    if (child) await killHard(child);
  });

  it('killed mid-run and right after a batch was acknowledged, then restarted: every record on its topic, exactly once after dedupe by recordId', async () => {
    const db = world.db();
    // A synced DEMO company, page by page as a sync writes it: one outbox entry per page.
    let cursor: string | null = null;
    do {
      const fetched = fetchDemoPage(company, { sellerId, since: null, until, cursor, pageSize: 150 });
      await writeLedgerPage({ db, tenantId: 9, epoch: 1, now: new Date(), compare: false }, fetched.page);
      cursor = fetched.nextCursor;
    } while (cursor !== null);
    const expected = new Map<string, LedgerFeedRecord>();
    for (const entity of ledgerEntities)
      for (const doc of await db
        .collection<LedgerDoc<LedgerEntity>>(ledgerCollections[entity])
        .find({ sellerId })
        .toArray()) {
        const record = toFeedRecord(entity, doc);
        expected.set(record.recordId, record);
      }
    expect(expected.size).toBeGreaterThan(5000);
    const entries = await outboxEntries();
    expect(entries).toBeGreaterThan(20);

    // First kill: wherever the publisher happens to be once a few entries are out.
    child = world.spawnChild('publisher');
    await childSays(child, 'ready');
    while ((await outboxEntries()) > entries - 3) await new Promise((r) => setTimeout(r, 20));
    await killHard(child);
    const afterFirstKill = await outboxEntries();
    expect(afterFirstKill).toBeGreaterThan(0);

    // Second kill: after Kafka acknowledged an entry's records and before the entry was deleted.
    child = world.spawnChild('publisher-stalling');
    await childSays(child, 'acknowledged');
    await killHard(child);
    child = null;
    const stalled = await world.db().collection<LedgerOutboxEntry>(LEDGER_OUTBOX).find({}).limit(1).next();
    const resent = stalled ? outboxEntryRecordIds(stalled) : [];
    expect(resent.length).toBeGreaterThan(0);

    // Restarted: the publisher drains what is left, the stalled entry included.
    const kafka = new Kafka({
      clientId: world.names.runId,
      brokers: world.config.KAFKA_BROKERS,
      logLevel: logLevel.NOTHING,
    });
    const publisher = createLedgerOutboxPublisher({
      db,
      kafka,
      topicPrefix: world.config.KAFKA_TOPIC_PREFIX,
    });
    await publisher.drain();
    await publisher.stop();
    expect(await outboxEntries()).toBe(0);

    const feed = await readFeed(kafka, {
      topicPrefix: world.config.KAFKA_TOPIC_PREFIX,
      groupId: `${world.names.kafkaTopicPrefix}.feed-check`,
    });
    for (const { recordId, record } of feed) expect(recordId).toBe(record.recordId);
    const deduped = new Map(feed.map(({ record }) => [record.recordId, record]));
    // None lost, none foreign, each as the ledger holds it, on its entity's topic, keyed by seller.
    expect([...deduped.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [id, record] of deduped) expect(record).toEqual(expected.get(id));
    const prefix = world.config.KAFKA_TOPIC_PREFIX;
    for (const { topic, key, record } of feed) {
      expect(topic).toBe(ledgerTopicOf(prefix, record.entity));
      expect(key).toBe(String(record.sellerId));
    }
    // At least once: the repeats are the acknowledged-but-undeleted entry, plus at most the entry in
    // flight at the first kill (an entry holds one 150-record page, whole customers, so under 400).
    const repeats = feed.length - deduped.size;
    expect(repeats).toBeGreaterThanOrEqual(resent.length);
    expect(repeats).toBeLessThanOrEqual(resent.length + 400);
    const counts = new Map<string, number>();
    for (const { record } of feed) counts.set(record.recordId, (counts.get(record.recordId) ?? 0) + 1);
    for (const id of resent) expect(counts.get(id)).toBe(2);
  });
});
