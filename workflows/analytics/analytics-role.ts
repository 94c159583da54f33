import { Kafka, logLevel } from 'kafkajs';
import type { Logger } from 'pino';
import type { Config } from '../../contracts/config';
import { check, healthReport, type RunningProcess } from '../../contracts/health';

/** The analytics process: Kafka consumers that build the analytics datasets (consumers arrive with their issue). */
export const startAnalyticsRole = async (config: Config, logger: Logger): Promise<RunningProcess> => {
  const kafka = new Kafka({
    clientId: `${config.KAFKA_TOPIC_PREFIX}-analytics`,
    brokers: config.KAFKA_BROKERS,
    logLevel: logLevel.WARN,
    logCreator: () => (entry) => logger.warn({ kafka: entry.namespace }, entry.log.message),
  });
  const admin = kafka.admin();
  await admin.connect();
  return {
    name: 'analytics',
    health: async () => healthReport('analytics', [await check('kafka', () => admin.describeCluster())]),
    stop: async () => {
      await admin.disconnect();
    },
  };
};
