import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { loadConfig, type Config } from '../../contracts/config';

/**
 * Names that belong to one test file's run alone (a Mongo database, Kafka topics and consumer groups,
 * Temporal task queues, an S3 bucket), so test files run in parallel and rerun without any cleanup.
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

/** The MongoDB-wire server of the test run: the environment's, or the local FerretDB of deploy/local. */
export const wireMongoUrl = (database: string): string =>
  withDatabase(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017/ledgerwise', database);

/**
 * Which read store the integration tests run on (docs/adr/0028-embedded-read-store.md): the embedded
 * one, as the product runs locally, unless LEDGERWISE_TEST_READ_STORE=mongodb asks for the MongoDB
 * wire server (FerretDB here, MongoDB in a CI that has one) to run the whole suite on it.
 */
export const testReadStore = (): 'embedded' | 'mongodb' =>
  process.env.LEDGERWISE_TEST_READ_STORE === 'mongodb' ? 'mongodb' : 'embedded';

/** The configuration a test file runs with: the servers the global setup chose, the file's own names. */
export const testConfig = (names: IsolatedNames, overrides: Record<string, string> = {}): Config => {
  const base = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...overrides });
  const onMongo = testReadStore() === 'mongodb';
  return {
    ...base,
    MONGO_URL: onMongo ? wireMongoUrl(names.mongoDatabase) : undefined,
    READ_STORE_PATH: onMongo
      ? undefined
      : join(process.env.LEDGERWISE_TEST_SCRATCH ?? tmpdir(), `${names.mongoDatabase}.sqlite`),
    KAFKA_TOPIC_PREFIX: names.kafkaTopicPrefix,
    TEMPORAL_TASK_QUEUE_PREFIX: names.taskQueuePrefix,
    // Archive object keys start from ids that restart in each file's fresh event store: a bucket each.
    S3_BUCKET: `lwt-${names.runId}`
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-')
      .slice(0, 63),
  };
};

/** A child process's environment pointing at the same read store as `config` (and no other). */
export const withReadStoreEnv = (env: NodeJS.ProcessEnv, config: Config): NodeJS.ProcessEnv => {
  const out = { ...env };
  delete out.MONGO_URL;
  delete out.READ_STORE_PATH;
  if (config.MONGO_URL) out.MONGO_URL = config.MONGO_URL;
  if (config.READ_STORE_PATH) out.READ_STORE_PATH = config.READ_STORE_PATH;
  return out;
};
