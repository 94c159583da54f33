import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import pino from 'pino';
import type { RunningProcess } from '../../contracts/health';
import { querySellerAnalytics } from '../../projections/analytics/analytics-store';
import { queryPlatformLedgerTotals } from '../../projections/analytics/query-platform-totals';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { startAnalyticsRole } from '../../workflows/analytics/analytics-role';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import { writeLedgerPage } from '../../workflows/ledger/write-ledger-page';
import { createLedgerOutboxPublisher } from '../../workflows/outbox/ledger-outbox-publisher';
import { isolatedNames, testConfig } from '../harness/isolation';
import '../harness/quiet-temporal';
import { expectedPlatformTotals, expectedSellerRows, readSellerLedger } from './expected-analytics';

/**
 * The analytics process as `ledgerwise analytics` starts it: healthy, its consumers reading the feed
 * as a sync sends it, and its recompute loop leaving the seller's figures and the platform totals.
 */
jest.setTimeout(180_000);

const names = isolatedNames(__filename);
const config = testConfig(names, { DATA_DIR: mkdtempSync(join(tmpdir(), 'lw-analytics-role-')) });
const sellerId = 451;
let store: ReadStore;
let role: RunningProcess | undefined;

beforeAll(async () => {
  store = await openReadStore(config);
});

afterAll(async () => {
  await role?.stop();
  await store.db.dropDatabase();
  await store.close();
});

it('runs healthy, and the figures of a seller synced after it started match its ledger', async () => {
  role = await startAnalyticsRole(config, pino({ level: 'silent' }));
  expect((await role.health()).ok).toBe(true);

  const { db } = store;
  let cursor: string | null = null;
  do {
    const fetched = fetchDemoPage(
      { seed: 31, startDate: '2023-01-01', invoicesPerYear: 300 },
      { sellerId, since: null, until: new Date('2024-04-30T12:00:00.000Z'), cursor, pageSize: 300 },
    );
    await writeLedgerPage({ db, tenantId: 8, epoch: 1, now: new Date(), compare: false }, fetched.page);
    cursor = fetched.nextCursor;
  } while (cursor !== null);
  const kafka = new Kafka({
    clientId: names.runId,
    brokers: config.KAFKA_BROKERS,
    logLevel: logLevel.NOTHING,
  });
  const publisher = createLedgerOutboxPublisher({ db, kafka, topicPrefix: config.KAFKA_TOPIC_PREFIX });
  await publisher.drain();
  await publisher.stop();

  const ledger = await readSellerLedger(db, sellerId);
  const expected = expectedSellerRows(sellerId, ledger, 'MONTHLY');
  for (let attempt = 0; ; attempt += 1) {
    const rows = await querySellerAnalytics(db, { sellerId, frequency: 'MONTHLY' });
    if (JSON.stringify(rows) === JSON.stringify(expected)) break;
    if (attempt > 600) expect(rows).toEqual(expected);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const now = new Date('2025-01-15T00:00:00.000Z');
  expect(await queryPlatformLedgerTotals(db, now)).toEqual(expectedPlatformTotals([ledger], now));
});
