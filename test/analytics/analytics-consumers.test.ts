import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import type { Db } from 'mongodb';
import { ledgerTopicOf } from '../../contracts/kafka/ledger-records';
import {
  ANALYTICS_FACTS,
  analyticsSettled,
  countFacts,
  querySellerAnalytics,
} from '../../projections/analytics/analytics-store';
import { queryPlatformLedgerTotals } from '../../projections/analytics/query-platform-totals';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { recomputeDueSellers } from '../../workflows/analytics/analytics-recompute';
import {
  startLedgerFactsConsumer,
  type LedgerFactsConsumer,
} from '../../workflows/analytics/ledger-facts-consumer';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import type { DemoProfile } from '../../workflows/demo/demo-profile';
import { ledgerEntities } from '../../workflows/ledger/ledger-collections';
import { writeLedgerPage } from '../../workflows/ledger/write-ledger-page';
import { createLedgerOutboxPublisher } from '../../workflows/outbox/ledger-outbox-publisher';
import { isolatedNames, testConfig, withReadStoreEnv } from '../harness/isolation';
import { childSays, killHard } from '../workflows/ledger-world';
import {
  expectedPlatformTotals,
  expectedSellerRows,
  readSellerLedger,
  type SellerLedger,
} from './expected-analytics';

jest.setTimeout(240_000);

const names = isolatedNames(__filename);
const config = testConfig(names);
const kafka = new Kafka({ clientId: names.runId, brokers: config.KAFKA_BROKERS, logLevel: logLevel.NOTHING });
const sellers: { sellerId: number; profile: DemoProfile }[] = [
  { sellerId: 401, profile: { seed: 11, startDate: '2022-01-01', invoicesPerYear: 900 } },
  { sellerId: 402, profile: { seed: 12, startDate: '2022-07-01', invoicesPerYear: 600 } },
  { sellerId: 403, profile: { seed: 13, startDate: '2023-01-01', invoicesPerYear: 400 } },
];
const until = new Date('2024-06-30T12:00:00.000Z');

/** A read store of its own for each scenario, beside the one holding the ledger. */
const stores: ReadStore[] = [];
const storeConfigs = new Map<ReadStore, { READ_STORE_PATH?: string; MONGO_URL?: string }>();
const newStore = async (name: string): Promise<ReadStore> => {
  const where = {
    READ_STORE_PATH: config.READ_STORE_PATH?.replace(/\.sqlite$/, `-${name}.sqlite`),
    MONGO_URL: config.MONGO_URL?.replace(/\/([^/?]+)(\?|$)/, `/$1_${name}$2`),
  };
  const store = await openReadStore({ ...config, ...where });
  stores.push(store);
  storeConfigs.set(store, where);
  return store;
};

let ledgerStore: ReadStore;
const ledgers = new Map<number, SellerLedger>();
let totalRecords = 0;

const topics = ledgerEntities.map((entity) => ledgerTopicOf(config.KAFKA_TOPIC_PREFIX, entity));

/** Waits until the group has committed the end of every partition. */
const waitForGroup = async (groupId: string) => {
  const admin = kafka.admin();
  await admin.connect();
  try {
    for (;;) {
      let behind = 0;
      for (const topic of topics) {
        const ends = await admin.fetchTopicOffsets(topic);
        const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
        for (const end of ends) {
          const at = committed?.partitions.find((p) => p.partition === end.partition);
          behind += Number(end.high) - Math.max(0, Number(at?.offset ?? '0'));
        }
      }
      if (behind === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await admin.disconnect();
  }
};

const settle = async (db: Db) => {
  while (!(await analyticsSettled(db)))
    await recomputeDueSellers(db, { now: new Date(), quietMs: 0, maxDelayMs: 0 });
};

const expected = new Map<string, ReturnType<typeof expectedSellerRows>>();
const expectedRows = (sellerId: number, frequency: 'WEEKLY' | 'MONTHLY') => {
  const key = `${sellerId}:${frequency}`;
  if (!expected.has(key)) expected.set(key, expectedSellerRows(sellerId, ledgers.get(sellerId)!, frequency));
  return expected.get(key)!;
};

const expectFiguresOfTheLedger = async (db: Db) => {
  for (const { sellerId } of sellers)
    for (const frequency of ['WEEKLY', 'MONTHLY'] as const) {
      const rows = await querySellerAnalytics(db, { sellerId, frequency });
      expect(rows.length).toBeGreaterThan(10);
      expect(rows).toEqual(expectedRows(sellerId, frequency));
    }
  const now = new Date('2025-03-15T00:00:00.000Z');
  expect(await queryPlatformLedgerTotals(db, now)).toEqual(
    expectedPlatformTotals([...ledgers.values()], now),
  );
  // One fact per ledger record: nothing lost, nothing twice; repeats stored by a redelivery are at
  // most a quarter more, or the recompute has folded them away.
  const counted = await countFacts(db);
  expect(counted.records).toBe(totalRecords);
  expect(counted.versions).toBeGreaterThanOrEqual(totalRecords);
  expect(counted.versions).toBeLessThanOrEqual(totalRecords * 1.25);
  return counted;
};

const spawnChild = (role: string, groupId: string, store: ReadStore): ChildProcess => {
  return spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'analytics-child.ts'), role, groupId], {
    env: {
      ...withReadStoreEnv(process.env, { ...config, ...storeConfigs.get(store)! }),
      KAFKA_TOPIC_PREFIX: config.KAFKA_TOPIC_PREFIX,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
};

beforeAll(async () => {
  ledgerStore = await openReadStore(config);
  const db = ledgerStore.db;
  for (const { sellerId, profile } of sellers) {
    let cursor: string | null = null;
    do {
      const fetched = fetchDemoPage(profile, { sellerId, since: null, until, cursor, pageSize: 400 });
      totalRecords += await writeLedgerPage(
        { db, tenantId: 7, epoch: 1, now: new Date(), compare: false },
        fetched.page,
      );
      cursor = fetched.nextCursor;
    } while (cursor !== null);
    ledgers.set(sellerId, await readSellerLedger(db, sellerId));
  }
  const publisher = createLedgerOutboxPublisher({ db, kafka, topicPrefix: config.KAFKA_TOPIC_PREFIX });
  await publisher.drain();
  await publisher.stop();
});

afterAll(async () => {
  for (const store of [...stores, ledgerStore]) {
    await store.db.dropDatabase();
    await store.close();
  }
});

describe('the analytics consumers on the real Kafka broker', () => {
  const running: LedgerFactsConsumer[] = [];
  let child: ChildProcess | null = null;
  afterEach(async () => {
    if (child) await killHard(child);
    child = null;
    for (const consumer of running.splice(0)) await consumer.stop();
  });

  it('one clean pass gives the figures of the ledger, and every record applied a second time changes none', async () => {
    expect(totalRecords).toBeGreaterThan(4000);
    const { db } = await newStore('twice');
    const groupId = `${names.kafkaTopicPrefix}.clean`;
    running.push(
      await startLedgerFactsConsumer({ kafka, db, topicPrefix: config.KAFKA_TOPIC_PREFIX, groupId }),
    );
    await waitForGroup(groupId);
    await settle(db);
    await expectFiguresOfTheLedger(db);

    // The whole feed again, from the beginning, under another group: every record applied twice
    // (this time parsed on the consumer's own thread, not the facts thread).
    const again = `${names.kafkaTopicPrefix}.again`;
    const second = await startLedgerFactsConsumer({
      kafka,
      db,
      topicPrefix: config.KAFKA_TOPIC_PREFIX,
      groupId: again,
      factsThread: false,
    });
    running.push(second);
    await waitForGroup(again);
    expect(second.applied()).toBe(totalRecords);
    // Batches cut as before are the same groups, skipped; the others are repeats until the recompute
    // compacts them.
    const stored = await countFacts(db);
    expect(stored.records).toBe(totalRecords);
    expect(stored.versions).toBeLessThanOrEqual(totalRecords * 2);
    await settle(db);
    await expectFiguresOfTheLedger(db);
  });

  it('a consumer killed after writing a batch and before committing it: its successor redelivers the batch, and the figures are those of the ledger', async () => {
    const store = await newStore('killed');
    const groupId = `${names.kafkaTopicPrefix}.killed`;
    child = spawnChild('stalling', groupId, store);
    await childSays(child, 'applied');
    await killHard(child);
    child = null;
    // Written and not committed: the facts are there, the group's offsets are behind.
    expect(await store.db.collection(ANALYTICS_FACTS).countDocuments({})).toBeGreaterThan(0);
    child = spawnChild('consumer', groupId, store);
    await childSays(child, 'ready');
    await waitForGroup(groupId);
    await killHard(child);
    child = null;
    await settle(store.db);
    await expectFiguresOfTheLedger(store.db);
  });

  it('a batch whose write fails is not committed past: the consumer restarts from it, and the figures are those of the ledger', async () => {
    const { db } = await newStore('failing');
    const groupId = `${names.kafkaTopicPrefix}.failing`;
    // The store refuses the second batch's fact groups once (a full disk, a lock held too long).
    let inserts = 0;
    const failingDb = new Proxy(db, {
      get: (target, property) => {
        if (property !== 'collection') {
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === 'function'
            ? (value as (...args: unknown[]) => unknown).bind(target)
            : value;
        }
        return (name: string) => {
          const collection = target.collection(name);
          if (name !== ANALYTICS_FACTS) return collection;
          return new Proxy(collection, {
            get: (inner, method) => {
              const value: unknown = Reflect.get(inner, method, inner);
              if (method === 'insertMany')
                return (...args: Parameters<typeof inner.insertMany>) => {
                  inserts += 1;
                  if (inserts === 2) return Promise.reject(new Error('the store refused the write (test)'));
                  return inner.insertMany(...args);
                };
              return typeof value === 'function'
                ? (value as (...args: unknown[]) => unknown).bind(inner)
                : value;
            },
          });
        };
      },
    });
    const errors: unknown[] = [];
    running.push(
      await startLedgerFactsConsumer({
        kafka,
        db: failingDb,
        topicPrefix: config.KAFKA_TOPIC_PREFIX,
        groupId,
        onError: (error) => errors.push(error),
      }),
    );
    await waitForGroup(groupId);
    expect(inserts).toBeGreaterThan(2);
    expect(errors.length).toBeGreaterThan(0);
    await settle(db);
    await expectFiguresOfTheLedger(db);
  });

  it('a rebalance between two consumers of one group, joining and then leaving mid-feed, loses and doubles nothing', async () => {
    const { db } = await newStore('rebalance');
    const groupId = `${names.kafkaTopicPrefix}.rebalance`;
    const options = { kafka, db, topicPrefix: config.KAFKA_TOPIC_PREFIX, groupId };
    const first = await startLedgerFactsConsumer(options);
    running.push(first);
    while (first.applied() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await startLedgerFactsConsumer(options);
    running.push(second);
    // The first leaves while the second still reads: its partitions move over again.
    await first.stop();
    running.splice(running.indexOf(first), 1);
    await waitForGroup(groupId);
    expect(first.applied() + second.applied()).toBeGreaterThanOrEqual(totalRecords);
    await settle(db);
    await expectFiguresOfTheLedger(db);
  });
});
