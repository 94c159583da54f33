import { Kafka, logLevel } from 'kafkajs';
import type { Logger } from 'pino';
import type { Config } from '../../contracts/config';
import { check, healthReport, type RunningProcess } from '../../contracts/health';
import { ensureAnalyticsIndexes } from '../../projections/analytics/analytics-store';
import { openReadStore } from '../../projections/read-store/open-read-store';
import { startAnalyticsRecompute } from './analytics-recompute';
import { startLedgerFactsConsumer } from './ledger-facts-consumer';

/**
 * The analytics process (docs/analytics.md): the ledger-facts consumers (one consumer group; run
 * several processes to share the partitions) and the recompute of the sellers' figures.
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
  await ensureAnalyticsIndexes(readStore.db);
  const consumer = await startLedgerFactsConsumer({
    kafka,
    db: readStore.db,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    onError: (error) => logger.error({ err: error }, 'the analytics consumer crashed; kafkajs restarts it'),
  });
  const recompute = startAnalyticsRecompute({
    db: readStore.db,
    onError: (error) => logger.warn({ err: error }, 'seller analytics could not be recomputed; retrying'),
  });
  return {
    name: 'analytics',
    health: async () =>
      healthReport('analytics', [
        await check('kafka', () => admin.describeCluster()),
        await check('read store', readStore.ping),
      ]),
    stop: async () => {
      await consumer.stop();
      await recompute.stop();
      await admin.disconnect();
      await readStore.close();
    },
  };
};
