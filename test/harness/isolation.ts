import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { loadConfig, type Config } from '../../contracts/config';

/**
 * Names that belong to one test file's run alone (a Mongo database, Kafka topics and consumer groups,
 * Temporal task queues), so test files run in parallel and rerun without any cleanup.
 */
export type IsolatedNames = {
  runId: string;
  mongoDatabase: string;
  kafkaTopicPrefix: string;
  taskQueuePrefix: string;
};

export const isolatedNames = (testFile: string): IsolatedNames => {
  const slug = basename(testFile)
    .replace(/\.test\.tsx?$/, '')
    .replace(/[^a-z0-9]+/gi, '_')
    .toLowerCase()
    .slice(0, 24);
  const runId = `${slug}_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  return {
    runId,
    mongoDatabase: `lwt_${runId}`,
    kafkaTopicPrefix: `lwt.${runId}`,
    taskQueuePrefix: `lwt-${runId}`,
  };
};

/** Replaces the database of a MongoDB connection string. */
export const withDatabase = (mongoUrl: string, database: string): string => {
  const url = new URL(mongoUrl);
  url.pathname = `/${database}`;
  return url.toString();
};

/** The configuration a test file runs with: the servers the global setup chose, the file's own names. */
export const testConfig = (names: IsolatedNames, overrides: Record<string, string> = {}): Config => {
  const base = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...overrides });
  return {
    ...base,
    MONGO_URL: withDatabase(base.MONGO_URL, names.mongoDatabase),
    KAFKA_TOPIC_PREFIX: names.kafkaTopicPrefix,
    TEMPORAL_TASK_QUEUE_PREFIX: names.taskQueuePrefix,
  };
};
