import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { Kafka, logLevel } from 'kafkajs';
import type { Logger } from 'pino';
import { openEventSource } from '../../commands/open-event-source';
import type { Config } from '../../contracts/config';
import { check, healthReport, type RunningProcess } from '../../contracts/health';
import { ensureAnalyticsIndexes } from '../../projections/analytics/analytics-store';
import { openReadStore } from '../../projections/read-store/open-read-store';
import { createReportObjectStore } from '../reports/archive/report-object-store';
import { startAnalyticsRecompute } from './analytics-recompute';
import { startDatasetJobReactor } from './datasets/dataset-job-reactor';
import { createDatasetsWorker } from './datasets/dataset-worker';
import { startLedgerFactsConsumer } from './ledger-facts-consumer';

/**
 * The SDK's runtime is process-wide and installed once; `ledgerwise all` starts the worker role first,
 * which installs it, and a process of its own installs it here (the CLI owns the signals).
 */
const installTemporalRuntime = (config: Config) => {
  const level = config.LOG_LEVEL === 'debug' || config.LOG_LEVEL === 'trace' ? 'DEBUG' : 'WARN';
  try {
    Runtime.install({ logger: new DefaultLogger(level), shutdownSignals: [] });
  } catch {
    // Already installed by another role of this process.
  }
};

/**
 * The analytics process (docs/analytics.md): the ledger-facts consumers (one consumer group; run
 * several processes to share the partitions), the recompute of the sellers' figures, and the data-set
 * jobs (their reactor and the datasets queue's worker).
 */
export const startAnalyticsRole = async (config: Config, logger: Logger): Promise<RunningProcess> => {
  const kafka = new Kafka({
    clientId: `${config.KAFKA_TOPIC_PREFIX}-analytics`,
    brokers: config.KAFKA_BROKERS,
    logLevel: logLevel.WARN,
    logCreator: () => (entry) => logger.warn({ kafka: entry.namespace }, entry.log.message),
  });
  const admin = kafka.admin();
  await admin.connect();
  const readStore = await openReadStore(config);
  const { db } = readStore;
  await ensureAnalyticsIndexes(db);
  const consumer = await startLedgerFactsConsumer({
    kafka,
    db,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    onError: (error) => logger.error({ err: error }, 'the analytics consumer crashed; kafkajs restarts it'),
  });
  const recompute = startAnalyticsRecompute({
    db,
    onError: (error) => logger.warn({ err: error }, 'seller analytics could not be recomputed; retrying'),
  });

  installTemporalRuntime(config);
  const events = await openEventSource(config);
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const clientConnection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  const client = new Client({ connection: clientConnection, namespace: config.TEMPORAL_NAMESPACE });
  const objects = createReportObjectStore(config);
  const worker = await createDatasetsWorker({
    connection,
    config,
    deps: { db, writeSide: events.writeSide, objects, now: () => new Date() },
  });
  const running = worker.run();
  running.catch((error: unknown) =>
    logger.error({ err: error }, 'the datasets worker stopped with an error'),
  );
  const datasetJobs = startDatasetJobReactor({
    writeSide: events.writeSide,
    db,
    client,
    config,
    logger: logger.child({ reactor: 'dataset-jobs' }),
  });
  return {
    name: 'analytics',
    health: async () =>
      healthReport('analytics', [
        await check('kafka', () => admin.describeCluster()),
        await check('read store', readStore.ping),
        await check('temporal', () => clientConnection.healthService.check({})),
        await check('datasets worker', () =>
          worker.getState() === 'RUNNING' ? Promise.resolve() : Promise.reject(new Error(worker.getState())),
        ),
      ]),
    stop: async () => {
      await datasetJobs.stop();
      worker.shutdown();
      await running.catch(() => undefined);
      await consumer.stop();
      await recompute.stop();
      objects.close();
      await connection.close();
      await clientConnection.close();
      await events.close();
      await admin.disconnect();
      await readStore.close();
    },
  };
};
