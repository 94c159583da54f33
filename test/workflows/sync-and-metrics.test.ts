import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { Kafka, logLevel } from 'kafkajs';
import { MongoClient, type Db } from 'mongodb';
import {
  emptyLedgerPage,
  MetricFrequency,
  MetricType,
  type LedgerEntity,
  type LedgerPage,
} from '../../contracts/ledger';
import { ledgerRecordIdOf, ledgerTopicOf, LedgerFeedRecord } from '../../contracts/kafka/ledger-records';
import { handleCommand } from '../../commands/command-handler';
import { openEventSource, type EventSource } from '../../commands/open-event-source';
import { systemActor } from '../../domain/actor';
import { jobDecider } from '../../domain/job/job-decider';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import type { DemoProfile } from '../../workflows/demo/demo-profile';
import { saveDemoProfile } from '../../workflows/demo/demo-profiles';
import { ledgerCollections, ledgerEntities, type LedgerDoc } from '../../workflows/ledger/ledger-collections';
import { queryMetricRows, querySellerMetricSummary } from '../../workflows/metrics/metric-store';
import { createMetricsWorker } from '../../workflows/metrics/worker';
import type { generateMetricsWorkflow } from '../../workflows/metrics/workflows';
import { createLedgerOutboxPublisher } from '../../workflows/outbox/ledger-outbox-publisher';
import { startSellerSync } from '../../workflows/sync/client';
import { connectorsFor } from '../../workflows/sync/connectors';
import { createSyncWorker } from '../../workflows/sync/worker';
import type { syncSellerWorkflow } from '../../workflows/sync/workflows';
import { readState } from '../../workflows/sync/system-commands';
import { isolatedNames, testConfig } from '../harness/isolation';
import { expectedMetricRows } from './expected-metrics';

jest.setTimeout(480_000);

const names = isolatedNames(__filename);
const dataDir = mkdtempSync(join(tmpdir(), 'lw-sync-test-'));
const config = testConfig(names, { DATA_DIR: dataDir });

let mongo: MongoClient;
let db: Db;
let events: EventSource;
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;
const temporal = () => ({ client, config });
const now = () => new Date();

const newWorkers = async (): Promise<Worker[]> => [
  await createSyncWorker({
    connection: nativeConnection,
    config,
    deps: { db, writeSide: events.writeSide, connectorFor: connectorsFor(db), now },
  }),
  await createMetricsWorker({
    connection: nativeConnection,
    config,
    deps: { db, writeSide: events.writeSide, now },
  }),
];

/** Runs the workers until `work` settles. */
const withWorkers = async <T>(work: () => Promise<T>): Promise<T> => {
  const workers = await newWorkers();
  const [first, ...others] = workers;
  const runs = others.map((w) => w.run());
  try {
    return await first!.runUntil(work());
  } finally {
    others.forEach((w) => w.shutdown());
    await Promise.all(runs);
  }
};

const connectDemoSeller = async (sellerId: number, tenantId: number) => {
  await handleCommand(
    sellerDecider,
    {
      streamId: `seller-${sellerId}`,
      commandId: `connect-${sellerId}`,
      command: {
        type: 'ConnectSeller',
        now: new Date(),
        data: {
          sellerId,
          tenantId,
          provider: 'DEMO',
          actor: systemActor,
          tenantIsDemo: true,
          tenantHasConnectedSeller: false,
          planAllowsProvider: true,
          companyName: `Demo Seller ${sellerId}`,
          url: null,
          authMethod: 'none',
          authTokenOwner: null,
          credentialsRef: null,
          companyFilePath: null,
        },
      },
    },
    events.writeSide,
  );
};

const setFlag = async (sellerId: number, flag: string, value: unknown) => {
  await handleCommand(
    sellerDecider,
    {
      streamId: `seller-${sellerId}`,
      commandId: `flag-${sellerId}-${flag}`,
      command: { type: 'SetSellerFeatureFlag', now: new Date(), data: { flag, value } },
    },
    events.writeSide,
  );
};

/** The whole company as of `until`, straight from the generator. */
const generated = (profile: DemoProfile, sellerId: number, until: Date): LedgerPage => {
  const all = emptyLedgerPage();
  let cursor: string | null = null;
  do {
    const fetched = fetchDemoPage(profile, { sellerId, since: null, until, cursor, pageSize: 5000 });
    for (const entity of ledgerEntities) (all[entity] as unknown[]).push(...fetched.page[entity]);
    cursor = fetched.nextCursor;
  } while (cursor !== null);
  return all;
};

/** The stored ledger of a seller without the storage fields, sorted, to compare with generated data. */
const storedLedger = async (sellerId: number) => {
  const page = emptyLedgerPage();
  for (const entity of ledgerEntities) {
    const docs = await db
      .collection<LedgerDoc<LedgerEntity>>(ledgerCollections[entity])
      .find(
        { sellerId },
        { projection: { _id: 0, tenantId: 0, epoch: 0, hash: 0, changedAt: 0, outboxPending: 0 } },
      )
      .toArray();
    (page[entity] as unknown[]).push(...docs);
  }
  return page;
};

const byProviderId = (page: LedgerPage) =>
  Object.fromEntries(
    ledgerEntities.map((e) => [e, [...page[e]].sort((a, b) => a.providerId.localeCompare(b.providerId))]),
  );

const smallCompany: DemoProfile = { seed: 42, startDate: '2022-01-01', invoicesPerYear: 240 };
const until = new Date('2024-06-30T12:00:00.000Z');

beforeAll(async () => {
  mongo = await new MongoClient(config.MONGO_URL).connect();
  db = mongo.db();
  events = await openEventSource(config);
  nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
});

afterAll(async () => {
  await connection?.close();
  await nativeConnection?.close();
  await events?.close();
  await db?.dropDatabase();
  await mongo?.close();
});

describe('SyncSeller and GenerateMetrics on a DEMO seller', () => {
  const sellerId = 101;
  const tenantId = 7;

  it('populates the ledger with exactly the generated company, records the CollectionDate and MetricsDate, and completes the job', async () => {
    await connectDemoSeller(sellerId, tenantId);
    await saveDemoProfile(db, { sellerId, profile: smallCompany });
    await setFlag(sellerId, 'exclusions.CustomerIds', [3, 5]);
    await setFlag(sellerId, 'exclusions.ProductIds', ['2']);

    const result = await withWorkers(async () => {
      const started = await startSellerSync(
        { sellerId, tenantId, mode: 'populate', jobId: 501, until, pageSize: 40 },
        temporal(),
      );
      expect(started.workflowId).toMatch(new RegExp(`^sync-seller-${sellerId}-\\d+$`));
      const handle = client.workflow.getHandle<typeof syncSellerWorkflow>(started.workflowId);
      const outcome = await handle.result();
      await client.workflow
        .getHandle<typeof generateMetricsWorkflow>(`${started.workflowId}-metrics`)
        .result();
      return outcome;
    });

    const expected = generated(smallCompany, sellerId, until);
    expect(byProviderId(await storedLedger(sellerId))).toEqual(byProviderId(expected));
    expect(result.records).toBe(ledgerEntities.reduce((n, e) => n + expected[e].length, 0));
    expect(expected.invoices.length).toBeGreaterThan(400);
    // The generated company has every payment habit, partial payments, credits and an overdue tail.
    expect(new Set(expected.customers.map((c) => c.habit))).toEqual(
      new Set(['prompt', 'slow', 'erratic', 'seasonal']),
    );
    expect(expected.creditMemos.length).toBeGreaterThan(0);
    expect(expected.invoices.some((i) => i.balance > 0 && i.dueDate < new Date('2024-01-01'))).toBe(true);
    const paymentsPerInvoice = new Map<string, number>();
    for (const p of expected.payments)
      for (const a of p.applications)
        paymentsPerInvoice.set(a.invoiceProviderId, (paymentsPerInvoice.get(a.invoiceProviderId) ?? 0) + 1);
    expect([...paymentsPerInvoice.values()].some((n) => n > 1)).toBe(true);

    const seller = await readState(events.writeSide, sellerDecider, `seller-${sellerId}`);
    expect(seller.status === 'known' && seller.collectionDate).toBe(until.toISOString());
    expect(seller.status === 'known' && seller.metricsDate).not.toBeNull();
    expect(seller.status === 'known' && seller.runningSync).toBeNull();
    const job = await readState(events.writeSide, jobDecider, 'job-501');
    expect(job.status).toBe('completed');
    expect(job.status !== 'none' && job.progress?.stage).toBe('metrics');
  });

  it('stores metric values that agree with an independent computation for every type and frequency', async () => {
    const expected = generated(smallCompany, sellerId, until);
    for (const type of MetricType.options)
      for (const frequency of MetricFrequency.options) {
        const rows = await queryMetricRows(db, { sellerId, type, frequency });
        const want = expectedMetricRows({
          invoices: expected.invoices,
          payments: expected.payments,
          excludedCustomers: [3, 5],
          excludedProducts: [2],
          asOf: until,
          type,
          frequency,
        });
        expect({ type, frequency, rows }).toEqual({ type, frequency, rows: want });
      }
    const summary = await querySellerMetricSummary(db, sellerId);
    const kept = expected.invoices.filter((i) => ![3, 5].includes(i.customerId));
    expect(summary?.openBalance).toBe(kept.reduce((s, i) => s + i.balance, 0));
    expect(summary?.retentionMonths === 3 || summary?.retentionMonths === 12).toBe(true);
    expect(summary?.customersT36M).toBe(new Set(kept.map((i) => i.customerId)).size);
  });

  it('advances the DEMO seller to a later date (only fetch): the ledger equals the company as of that date', async () => {
    const later = new Date('2024-09-30T12:00:00.000Z');
    await withWorkers(async () => {
      const started = await startSellerSync(
        { sellerId, tenantId, mode: 'sync', jobId: 502, until: later, onlyFetch: true, pageSize: 40 },
        temporal(),
      );
      return client.workflow.getHandle<typeof syncSellerWorkflow>(started.workflowId).result();
    });
    expect(byProviderId(await storedLedger(sellerId))).toEqual(
      byProviderId(generated(smallCompany, sellerId, later)),
    );
    const job = await readState(events.writeSide, jobDecider, 'job-502');
    expect(job.status).toBe('completed');
  });
});

describe('a killed sync worker', () => {
  const sellerId = 202;
  const tenantId = 8;
  const bigCompany: DemoProfile = { seed: 7, startDate: '2022-01-01', invoicesPerYear: 1000 };
  let child: ChildProcess | null = null;

  afterEach(() => child?.kill('SIGKILL'));

  it('resumes a populate where it stopped, with no row lost or duplicated, and refuses a second sync meanwhile', async () => {
    await connectDemoSeller(sellerId, tenantId);
    await saveDemoProfile(db, { sellerId, profile: bigCompany });
    const expected = generated(bigCompany, sellerId, until);
    const total = expected.invoices.length;

    child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'ledger-child-process.ts'), 'worker'],
      {
        env: {
          ...process.env,
          MONGO_URL: config.MONGO_URL,
          DATA_DIR: dataDir,
          TEMPORAL_TASK_QUEUE_PREFIX: config.TEMPORAL_TASK_QUEUE_PREFIX,
          KAFKA_TOPIC_PREFIX: config.KAFKA_TOPIC_PREFIX,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve) => child!.stdout!.once('data', () => resolve()));

    const started = await startSellerSync(
      { sellerId, tenantId, mode: 'populate', jobId: 601, until, onlyFetch: true, pageSize: 30 },
      temporal(),
    );
    const invoices = db.collection(ledgerCollections.invoices);
    let stored = 0;
    while (stored < total / 4) {
      await new Promise((r) => setTimeout(r, 100));
      stored = await invoices.countDocuments({ sellerId });
    }
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    child = null;
    const atKill = await invoices.countDocuments({ sellerId });
    expect(atKill).toBeLessThan(total);

    // The run is still open: a second sync of the seller is refused.
    await expect(
      startSellerSync({ sellerId, tenantId, mode: 'sync', jobId: 602, until }, temporal()),
    ).rejects.toMatchObject({ code: 'conflict', userMessage: 'A sync of this seller is already running.' });

    const result = await withWorkers(() =>
      client.workflow.getHandle<typeof syncSellerWorkflow>(started.workflowId).result(),
    );
    const ledger = await storedLedger(sellerId);
    expect(byProviderId(ledger)).toEqual(byProviderId(expected));
    for (const entity of ledgerEntities) {
      const ids = ledger[entity].map((r) => r.providerId);
      expect(new Set(ids).size).toBe(ids.length);
    }
    expect(result.pages).toBeGreaterThan(1);
  });
});

describe('the ledger outbox publisher', () => {
  it('killed mid-batch, then restarted, loses no record; duplicates are only resends of the same record ids', async () => {
    const expectedIds = new Set<string>();
    for (const entity of ledgerEntities) {
      const docs = await db.collection<LedgerDoc<LedgerEntity>>(ledgerCollections[entity]).find({}).toArray();
      for (const d of docs)
        expectedIds.add(
          ledgerRecordIdOf({
            entity,
            sellerId: d.sellerId,
            providerId: d.providerId,
            epoch: d.epoch,
            hash: d.hash,
          }),
        );
    }
    expect(expectedIds.size).toBeGreaterThan(5000);

    const kafka = new Kafka({
      clientId: names.runId,
      brokers: config.KAFKA_BROKERS,
      logLevel: logLevel.NOTHING,
    });
    const received: string[] = [];
    const consumer = kafka.consumer({ groupId: `${names.kafkaTopicPrefix}.outbox-test` });

    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'ledger-child-process.ts'), 'publisher'],
      {
        env: {
          ...process.env,
          MONGO_URL: config.MONGO_URL,
          KAFKA_TOPIC_PREFIX: config.KAFKA_TOPIC_PREFIX,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    // Kill it once records start arriving in Kafka, in the middle of its batches.
    const pendingCount = async () => {
      let n = 0;
      for (const entity of ledgerEntities)
        n += await db.collection(ledgerCollections[entity]).countDocuments({ outboxPending: true });
      return n;
    };
    const before = await pendingCount();
    let pending = before;
    while (pending > before * 0.6) {
      await new Promise((r) => setTimeout(r, 50));
      pending = await pendingCount();
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(pending).toBeGreaterThan(0);

    const publisher = createLedgerOutboxPublisher({
      db,
      kafka,
      topicPrefix: config.KAFKA_TOPIC_PREFIX,
      batchSize: 500,
    });
    await publisher.drain();
    await publisher.stop();
    expect(await pendingCount()).toBe(0);

    await consumer.connect();
    await consumer.subscribe({
      topics: ledgerEntities.map((e) => ledgerTopicOf(config.KAFKA_TOPIC_PREFIX, e)),
      fromBeginning: true,
    });
    const keys: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const seen = new Set<string>();
      let missing = expectedIds.size;
      consumer
        .run({
          eachMessage: ({ message }) => {
            const record = LedgerFeedRecord.parse(JSON.parse(message.value!.toString()));
            expect(message.key?.toString()).toBe(String(record.sellerId));
            received.push(record.recordId);
            keys.push(message.key!.toString());
            if (!seen.has(record.recordId) && expectedIds.has(record.recordId)) missing -= 1;
            seen.add(record.recordId);
            if (missing === 0) resolve();
            return Promise.resolve();
          },
        })
        .catch(reject);
    });
    await consumer.disconnect();

    const distinct = new Set(received);
    for (const id of expectedIds) expect(distinct.has(id)).toBe(true);
    // At least once: a resend repeats only records of the batch in flight at the kill (50 per batch).
    expect(received.length - distinct.size).toBeLessThanOrEqual(50 * ledgerEntities.length);
  });
});
