import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { Kafka, logLevel } from 'kafkajs';
import type { Db } from 'mongodb';
import type { Config } from '../../contracts/config';
import { emptyLedgerPage, type LedgerEntity, type LedgerPage } from '../../contracts/ledger';
import { handleCommand } from '../../commands/command-handler';
import { openEventSource, type EventSource } from '../../commands/open-event-source';
import { systemActor } from '../../domain/actor';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import type { DemoProfile } from '../../workflows/demo/demo-profile';
import { ledgerCollections, ledgerEntities, type LedgerDoc } from '../../workflows/ledger/ledger-collections';
import { createMetricsWorker } from '../../workflows/metrics/worker';
import { createThreadedLedgerFeedSender } from '../../workflows/outbox/threaded-ledger-feed-sender';
import { connectorsFor } from '../../workflows/sync/connectors';
import { createSyncWorker } from '../../workflows/sync/worker';
import { isolatedNames, testConfig, withReadStoreEnv, type IsolatedNames } from '../harness/isolation';
import { sellerStream } from '../../contracts/stream-ids';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';

/**
 * One test file's pipeline world on the real local servers: its own Mongo database, event store file,
 * task queues and topic prefix, with Temporal connections, set up in beforeAll and torn down in afterAll.
 */
export type LedgerWorld = {
  names: IsolatedNames;
  config: Config;
  dataDir: string;
  db: () => Db;
  events: () => EventSource;
  client: () => Client;
  temporal: () => { client: Client; config: Config };
  /** Kafka, for the ledger feed under the file's topic prefix. */
  kafka: Kafka;
  /**
   * Runs in-process sync and metrics workers until `work` settles; as in the worker process, syncs
   * send their pages to the ledger feed themselves.
   */
  withWorkers: <T>(work: () => Promise<T>) => Promise<T>;
  /** Starts test/workflows/ledger-child-process.ts (worker or publisher) in a process of its own. */
  spawnChild: (role: string) => ChildProcess;
};

export const useLedgerWorld = (testFile: string): LedgerWorld => {
  const names = isolatedNames(testFile);
  const dataDir = mkdtempSync(join(tmpdir(), 'lw-ledger-test-'));
  const config = testConfig(names, { DATA_DIR: dataDir });
  let readStore: ReadStore | undefined;
  let db: Db | undefined;
  let events: EventSource | undefined;
  let nativeConnection: NativeConnection | undefined;
  let connection: Connection | undefined;
  let client: Client | undefined;
  const kafka = new Kafka({
    clientId: names.runId,
    brokers: config.KAFKA_BROKERS,
    logLevel: logLevel.NOTHING,
  });
  // As the worker process runs it: the feed's producer in a thread of its own.
  const feed = createThreadedLedgerFeedSender({
    kafka: { clientId: `${names.runId}-feed`, brokers: config.KAFKA_BROKERS, logLevel: logLevel.NOTHING },
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
  });
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the ledger world is used before beforeAll');
    return value;
  };

  beforeAll(async () => {
    readStore = await openReadStore(config);
    db = readStore.db;
    events = await openEventSource(config);
    nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
    connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
    client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  });

  afterAll(async () => {
    await feed.disconnect();
    await connection?.close();
    await nativeConnection?.close();
    await events?.close();
    await db?.dropDatabase();
    await readStore?.close();
  });

  const newWorkers = async (): Promise<Worker[]> => {
    const now = () => new Date();
    const deps = { db: need(db), writeSide: need(events).writeSide, now };
    return [
      await createSyncWorker({
        connection: need(nativeConnection),
        config,
        deps: { ...deps, connectorFor: connectorsFor(need(db)), feed },
      }),
      await createMetricsWorker({ connection: need(nativeConnection), config, deps }),
    ];
  };

  return {
    names,
    config,
    dataDir,
    db: () => need(db),
    events: () => need(events),
    client: () => need(client),
    temporal: () => ({ client: need(client), config }),
    kafka,
    withWorkers: async (work) => {
      const [first, ...others] = await newWorkers();
      const runs = others.map((w) => w.run());
      try {
        return await first!.runUntil(work());
      } finally {
        others.forEach((w) => w.shutdown());
        await Promise.all(runs);
      }
    },
    spawnChild: (role) =>
      // node with tsx as a loader (not the tsx wrapper), so a SIGKILL stops the process doing the work.
      spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'ledger-child-process.ts'), role], {
        env: {
          ...withReadStoreEnv(process.env, config),
          DATA_DIR: dataDir,
          TEMPORAL_TASK_QUEUE_PREFIX: config.TEMPORAL_TASK_QUEUE_PREFIX,
          KAFKA_TOPIC_PREFIX: config.KAFKA_TOPIC_PREFIX,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
  };
};

/** Resolves on the first line a child writes that matches, rejects if it exits first. */
export const childSays = (child: ChildProcess, line: string): Promise<void> =>
  new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      if (buffer.split('\n').includes(line)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the child exited (${code}) before saying ${line}`)));
  });

export const killHard = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
};

export const connectDemoSeller = async (events: EventSource, ids: { sellerId: number; tenantId: number }) => {
  await handleCommand(
    sellerDecider,
    {
      streamId: sellerStream(ids.sellerId),
      commandId: `connect-${ids.sellerId}`,
      command: {
        type: 'ConnectSeller',
        now: new Date(),
        data: {
          ...ids,
          provider: 'DEMO',
          actor: systemActor,
          tenantIsDemo: true,
          tenantHasConnectedSeller: false,
          planAllowsProvider: true,
          companyName: `Demo Seller ${ids.sellerId}`,
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

/** The whole company as of `until`, straight from the generator. */
export const generatedCompany = (
  profile: DemoProfile,
  request: { sellerId: number; until: Date; pageSize?: number },
): LedgerPage => {
  const all = emptyLedgerPage();
  let cursor: string | null = null;
  do {
    const fetched = fetchDemoPage(profile, {
      sellerId: request.sellerId,
      since: null,
      until: request.until,
      cursor,
      pageSize: request.pageSize ?? 5000,
    });
    for (const entity of ledgerEntities) (all[entity] as unknown[]).push(...fetched.page[entity]);
    cursor = fetched.nextCursor;
  } while (cursor !== null);
  return all;
};

/** The stored ledger of a seller without the storage fields, to compare with generated data. */
export const storedLedger = async (db: Db, sellerId: number): Promise<LedgerPage> => {
  const page = emptyLedgerPage();
  for (const entity of ledgerEntities) {
    const docs = await db
      .collection<LedgerDoc<LedgerEntity>>(ledgerCollections[entity])
      .find({ sellerId }, { projection: { _id: 0, tenantId: 0, epoch: 0, hash: 0, changedAt: 0 } })
      .toArray();
    (page[entity] as unknown[]).push(...docs);
  }
  return page;
};

export const byProviderId = (page: LedgerPage) =>
  Object.fromEntries(
    ledgerEntities.map((e) => [e, [...page[e]].sort((a, b) => a.providerId.localeCompare(b.providerId))]),
  );
