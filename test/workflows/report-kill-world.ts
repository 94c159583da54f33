import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { NativeConnection, type Worker } from '@temporalio/worker';
import pino from 'pino';
import { JobEvent } from '../../contracts/events/job';
import { jobStream } from '../../contracts/stream-ids';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { handleCommand } from '../../commands/command-handler';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { projections } from '../../projections/registry';
import { projectionPositions } from '../../projections/framework/read-your-writes';
import { createMetricsWorker } from '../../workflows/metrics/worker';
import { tenantArchivePrefix } from '../../workflows/reports/archive/report-archive';
import { startReportJobReactor } from '../../workflows/reports/report-job-reactor';
import { connectorsFor } from '../../workflows/sync/connectors';
import { startSyncRequestReactor } from '../../workflows/sync/sync-request-reactor';
import { readState } from '../../workflows/sync/system-commands';
import { createSyncWorker } from '../../workflows/sync/worker';
import { withReadStoreEnv } from '../harness/isolation';
import { killHard, type LedgerWorld } from './ledger-world';

/** What `report-worker-child.ts` does before it reports ready (see its modes). */
export type ReportsWorkerMode = 'stall-after-second-email' | 'batch-stall-after-second-email' | 'normal';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The runtime of the report kill tests: every projector, the sync and metrics workers and the sync
 * request and report job reactors in the test's process, and the reports worker in a child process
 * the test kills (`spawnReportsWorker`). Children still running at the end are killed.
 */
export const useReportKillRuntime = (world: LedgerWorld) => {
  let nativeConnection: NativeConnection | undefined;
  let workers: Worker[] = [];
  let running: Promise<unknown> = Promise.resolve();
  let processors: ProjectionProcessor[] = [];
  const reactors: { stop: () => Promise<void> }[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    const { config } = world;
    const events = world.events();
    const db = world.db();
    processors = projections.map(
      (projection) =>
        new ProjectionProcessor({
          db,
          store: events.store,
          decode: events.decode,
          projection,
          logger: pino({ level: 'silent' }),
        }),
    );
    for (const processor of processors) processor.start();
    nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
    const deps = { db, writeSide: events.writeSide, now: () => new Date() };
    workers = [
      await createSyncWorker({
        connection: nativeConnection,
        config,
        deps: { ...deps, connectorFor: connectorsFor(db) },
      }),
      await createMetricsWorker({ connection: nativeConnection, config, deps }),
    ];
    running = Promise.all(workers.map((worker) => worker.run()));
    const reactorDeps = {
      writeSide: events.writeSide,
      db,
      client: world.client(),
      config,
      logger: pino({ level: 'silent' }),
    };
    reactors.push(startSyncRequestReactor(reactorDeps), startReportJobReactor(reactorDeps));
  });

  afterAll(async () => {
    for (const child of children) await killHard(child);
    for (const reactor of reactors) await reactor.stop();
    for (const worker of workers) worker.shutdown();
    await running;
    for (const processor of processors) await processor.stop();
    await nativeConnection?.close();
  });

  /** The reports worker in a process of its own, on this test's data and task queues. */
  const spawnReportsWorker = (mode: ReportsWorkerMode): ChildProcess => {
    // node with tsx as a loader (not the tsx wrapper), so a SIGKILL stops the process doing the work.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'report-worker-child.ts'), mode],
      {
        env: {
          ...withReadStoreEnv(process.env, world.config),
          DATA_DIR: world.dataDir,
          TEMPORAL_TASK_QUEUE_PREFIX: world.config.TEMPORAL_TASK_QUEUE_PREFIX,
          S3_BUCKET: world.config.S3_BUCKET,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(child);
    return child;
  };

  /** Runs a command as the system would, with a command id of its own. */
  const run = <S, C extends { now: Date }, E extends { type: string; data: unknown }>(
    decider: Parameters<typeof handleCommand<S, C, E>>[0],
    streamId: string,
    command: C,
  ) =>
    handleCommand(
      decider,
      { streamId, commandId: `${streamId}:${command.now.getTime()}:${Math.random()}`, command },
      world.events().writeSide,
    );

  /** Waits until each seller's first sync and metrics have completed. */
  const waitForFirstMetrics = async (sellerIds: readonly number[]) => {
    for (let attempt = 0; attempt < 1200; attempt += 1) {
      const sellers = await Promise.all(
        sellerIds.map((sellerId) => readState(world.events().writeSide, sellerDecider, `seller-${sellerId}`)),
      );
      if (sellers.every((seller) => seller.status === 'known' && seller.metricsDate !== null)) return;
      await sleep(250);
    }
    throw new Error('the DEMO sellers never finished their first sync and metrics');
  };

  const jobEvents = async (jobId: number) =>
    (await world.events().store.readStream(jobStream(jobId))).map((event) =>
      JobEvent.parse({ type: event.type, data: event.data }),
    );

  /** Every read model has the store's last event. */
  const settled = async () => {
    const head = await world.events().store.headPosition();
    const positions = projectionPositions(world.db());
    await Promise.all(projections.map((p) => positions.waitForPosition(p.name, head, 20_000)));
  };

  /** The keys of the tenant's archived files in the object store. */
  const archivedKeys = async (tenantId: number): Promise<string[]> => {
    const s3 = new S3Client({
      endpoint: world.config.S3_ENDPOINT,
      region: world.config.S3_REGION,
      forcePathStyle: world.config.S3_FORCE_PATH_STYLE,
      credentials: {
        accessKeyId: world.config.S3_ACCESS_KEY_ID,
        secretAccessKey: world.config.S3_SECRET_ACCESS_KEY,
      },
    });
    try {
      const listed = await s3.send(
        new ListObjectsV2Command({ Bucket: world.config.S3_BUCKET, Prefix: tenantArchivePrefix(tenantId) }),
      );
      return (listed.Contents ?? []).map((object) => object.Key ?? '');
    } finally {
      s3.destroy();
    }
  };

  return { spawnReportsWorker, run, waitForFirstMetrics, jobEvents, settled, archivedKeys, sleep };
};
