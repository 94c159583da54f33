import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { MongoClient } from 'mongodb';
import type { Config } from '../../contracts/config';
import { isolatedNames, testConfig } from './isolation';

/**
 * The product as the README's run command starts it: `ledgerwise all` (gateway, projector, worker,
 * analytics and the demo seed) in a child process on its own ports, database, data folder and queue
 * prefixes, against the servers the global setup found. Used by the run-command test and the browser
 * journeys, which must see what a user of `scripts/run.sh` sees.
 */
export type LedgerwiseProcess = {
  /** http://127.0.0.1:<port> of the gateway (API, websocket and the built web app). */
  base: string;
  config: Config;
  /** Its DATA_DIR: the embedded stores live here (tests read the read models the product wrote). */
  dataDir: string;
  /** Everything the processes printed so far. */
  output: () => string;
  stop: () => Promise<void>;
};

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

export const stopChild = async (child: ChildProcess): Promise<void> => {
  // A child ended by a signal has a signalCode and no exitCode.
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  const stopped = await Promise.race([
    exited.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000)),
  ]);
  // The caller drops the database next, which must not happen under open connections (it once crashed
  // FerretDB): a process that did not stop in time is killed and waited for.
  if (!stopped) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
    await exited;
  }
};

/**
 * The environment of the product's processes in a test run: its own read store, data folder and
 * prefixes. On the embedded read store the processes share `<dataDir>/read-models.sqlite`.
 */
export const productEnv = (config: Config, dataDir: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    // LEDGERWISE_TEST_LOG_LEVEL=info shows what the product's processes did when a journey fails.
    LOG_LEVEL: process.env.LEDGERWISE_TEST_LOG_LEVEL ?? 'warn',
    DATA_DIR: dataDir,
    TEMPORAL_TASK_QUEUE_PREFIX: config.TEMPORAL_TASK_QUEUE_PREFIX,
    KAFKA_TOPIC_PREFIX: config.KAFKA_TOPIC_PREFIX,
  };
  delete env.READ_STORE_PATH;
  if (config.MONGO_URL) env.MONGO_URL = config.MONGO_URL;
  else delete env.MONGO_URL;
  return env;
};

/**
 * Drops a run's read store and data folder: only once its processes have gone, since a drop under
 * open connections once crashed FerretDB.
 */
/**
 * The tenants of a run get report Schedules on the shared Temporal server (docs/adr/0038); they would
 * fire every week for queues nobody serves any more. A cleanup failure is not the test's failure.
 */
const deleteRunSchedules = async (config: Config): Promise<void> => {
  const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS }).catch(() => null);
  if (!connection) return;
  try {
    const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
    const ours: string[] = [];
    for await (const schedule of client.schedule.list())
      if (schedule.scheduleId.startsWith(`${config.TEMPORAL_TASK_QUEUE_PREFIX}-`))
        ours.push(schedule.scheduleId);
    for (const scheduleId of ours)
      await client.schedule
        .getHandle(scheduleId)
        .delete()
        .catch(() => undefined);
  } catch {
    /* the server went away: nothing left to tidy */
  } finally {
    await connection.close();
  }
};

export const dropScratch = async (config: Config, dataDir: string): Promise<void> => {
  await deleteRunSchedules(config);
  if (config.MONGO_URL) {
    const client = await MongoClient.connect(config.MONGO_URL);
    await client.db().dropDatabase();
    await client.close();
  }
  rmSync(dataDir, { recursive: true, force: true });
};

export const startLedgerwise = async (testFile: string): Promise<LedgerwiseProcess> => {
  const names = isolatedNames(testFile);
  const config = testConfig(names);
  const dataDir = mkdtempSync(join(tmpdir(), `lw-${names.runId}-`));
  const [gateway, projector, worker, analytics] = await Promise.all([1, 2, 3, 4].map(() => freePort()));
  const base = `http://127.0.0.1:${gateway}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/ledgerwise.ts', 'all', '--no-infra'], {
    cwd: join(__dirname, '..', '..'),
    // Its own process group, so stopping it stops every process it started.
    detached: true,
    env: {
      ...productEnv(config, dataDir),
      GATEWAY_PORT: String(gateway),
      PROJECTOR_HEALTH_PORT: String(projector),
      WORKER_HEALTH_PORT: String(worker),
      ANALYTICS_HEALTH_PORT: String(analytics),
      PUBLIC_URL: base,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const stop = async () => {
    await stopChild(child);
    await dropScratch(config, dataDir);
  };

  for (let i = 0; i < 240 && !output.includes('Ledgerwise is running'); i += 1) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`ledgerwise all exited:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (!output.includes('Ledgerwise is running')) {
    await stop();
    throw new Error(`ledgerwise all did not start within 120 s:\n${output}`);
  }
  return { base, config, dataDir, output: () => output, stop };
};
