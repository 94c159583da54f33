import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../contracts/config';

/**
 * A suite's own configuration: the local servers of the environment, with a throw-away data folder,
 * Mongo database, Temporal task-queue prefix and Kafka topic prefix, so runs never share state.
 */
export const benchConfig = (suite: string): Config => {
  const run = Date.now().toString(36);
  const base = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  // The read store the product would use here: MongoDB when MONGO_URL is set (its own database),
  // otherwise the embedded store in the run's data folder.
  const mongoUrl = base.MONGO_URL ? new URL(base.MONGO_URL) : undefined;
  if (mongoUrl) mongoUrl.pathname = `/lwbench_${suite}_${run}`;
  return {
    ...base,
    DATA_DIR: mkdtempSync(join(tmpdir(), `ledgerwise-bench-${suite}-`)),
    MONGO_URL: mongoUrl?.toString(),
    TEMPORAL_TASK_QUEUE_PREFIX: `lwbench-${suite}-${run}`,
    KAFKA_TOPIC_PREFIX: `lwbench.${suite}.${run}`,
  };
};
