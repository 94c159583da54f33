/**
 * The analytics suite's optional client comparison (issue 19, docs/adr/0042): @confluentinc/kafka-javascript
 * in its KafkaJS-compatible mode, beside the kafkajs figures of the same run. The client is not a project
 * dependency (its addon cannot be installed here from a registry); the part runs only when
 * LEDGERWISE_CONFLUENT_KAFKA_PATH points at a built copy of the package (ADR 42 says how to build one).
 */
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Kafka } from 'kafkajs';
import type { Config } from '../contracts/config';
import { ledgerTopicOf, type LedgerFeedRecord } from '../contracts/kafka/ledger-records';
import type { LedgerEntity } from '../contracts/ledger';
import { ensureAnalyticsIndexes } from '../projections/analytics/analytics-store';
import { openReadStore } from '../projections/read-store/open-read-store';
import { startLedgerFactsConsumer } from '../workflows/analytics/ledger-facts-consumer';
import { ledgerEntities } from '../workflows/ledger/ledger-collections';
import { ensureLedgerTopics } from '../workflows/outbox/ledger-feed-sender';
import type { Figure } from './harness';

type AnyFn = (...args: unknown[]) => Promise<unknown>;
type CkClient = { connect: AnyFn; disconnect: AnyFn; [method: string]: AnyFn };
type CkKafka = {
  producer: (config: unknown) => CkClient;
  consumer: (config: unknown) => CkClient;
  admin: () => CkClient;
};
type CkModule = {
  librdkafkaVersion: string;
  KafkaJS: { Kafka: new (config: unknown) => CkKafka; logLevel: { NOTHING: number } };
};

/** Its eachBatch hands 32 messages by default; the analytics consumer writes once a batch. */
const UNLIMITED_BATCH = { 'js.consumer.max.batch.size': -1 };

/**
 * The confluent client shaped like kafkajs for `startLedgerFactsConsumer`: the options it takes elsewhere
 * (fromBeginning, autoCommit, autoCommitInterval in the consumer's config), no consumer events, and
 * `createTopics` without waitForLeaders, an existing topic being no error.
 */
const asKafkajs = (kafka: CkKafka): Kafka =>
  ({
    consumer: (config: Record<string, unknown>) => {
      const consumer = kafka.consumer({
        kafkaJS: { ...config, fromBeginning: true, autoCommit: true, autoCommitInterval: 1000 },
        ...UNLIMITED_BATCH,
      });
      return {
        connect: () => consumer.connect(),
        disconnect: () => consumer.disconnect(),
        subscribe: ({ topics }: { topics: string[] }) => consumer.subscribe!({ topics }),
        run: (options: Record<string, unknown>) => {
          const { autoCommit: _autoCommit, autoCommitInterval: _interval, ...rest } = options;
          return consumer.run!(rest);
        },
        events: { CRASH: 'consumer.crash' },
        on: () => undefined,
      };
    },
    admin: () => {
      const admin = kafka.admin();
      return {
        connect: () => admin.connect(),
        disconnect: () => admin.disconnect(),
        createTopics: async (options: Record<string, unknown>) => {
          const { waitForLeaders: _wait, ...rest } = options;
          try {
            return await admin.createTopics!(rest);
          } catch (error) {
            if (/exist/i.test(String(error))) return false;
            throw error;
          }
        },
      };
    },
  }) as unknown as Kafka;

const cpuNow = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

export type KafkajsFigures = {
  produced: number;
  producerRate: number;
  bareRate: number;
  bareCpu: number;
  consumerRate: number;
  consumerCpu: number;
};

/**
 * The confluent client's producer (same records, acks -1, 1,000 a request), a bare consumer (eachBatch,
 * count only) and the analytics consumer (own group, fresh read store) on the run's topics, as figures
 * whose baselines are the run's kafkajs figures. Empty, after a loud log line, when the client is not set.
 */
export const confluentFigures = async (options: {
  config: Config;
  records: () => Generator<LedgerFeedRecord>;
  kafkajs: KafkajsFigures;
  log: (line: string) => void;
}): Promise<Figure[]> => {
  const path = process.env.LEDGERWISE_CONFLUENT_KAFKA_PATH;
  if (!path) {
    options.log(
      'SKIPPED: the @confluentinc/kafka-javascript comparison; set LEDGERWISE_CONFLUENT_KAFKA_PATH to a built copy of the package (docs/adr/0042)',
    );
    return [];
  }
  const { log, config, kafkajs } = options;
  const module = createRequire(__filename)(path) as CkModule;
  log(`confluent client from ${path}, librdkafka ${module.librdkafkaVersion}`);
  const prefix = config.KAFKA_TOPIC_PREFIX;
  const kafka = new module.KafkaJS.Kafka({
    kafkaJS: {
      clientId: `${prefix}-confluent`,
      brokers: config.KAFKA_BROKERS,
      logLevel: module.KafkaJS.logLevel.NOTHING,
    },
  });
  const topics = ledgerEntities.map((entity) => ledgerTopicOf(prefix, entity));

  // Producer, to its own topics: the records as the suite's kafkajs producer sends them.
  const producePrefix = `${prefix}.confluent`;
  await ensureLedgerTopics(asKafkajs(kafka), producePrefix);
  const producer = kafka.producer({ kafkaJS: { acks: -1, allowAutoTopicCreation: false } });
  await producer.connect();
  const pending: Partial<Record<LedgerEntity, unknown[]>> = {};
  let produced = 0;
  const flush = async (entity: LedgerEntity) => {
    const messages = pending[entity] ?? [];
    if (messages.length === 0) return;
    pending[entity] = [];
    await producer.send!({ topic: ledgerTopicOf(producePrefix, entity), messages });
  };
  const producing = performance.now();
  for (const record of options.records()) {
    const list = (pending[record.entity] ??= []);
    list.push({
      key: String(record.sellerId),
      value: JSON.stringify(record),
      headers: { recordId: record.recordId, schemaVersion: '1' },
    });
    produced += 1;
    if (list.length >= 1000) await flush(record.entity);
  }
  for (const entity of ledgerEntities) await flush(entity);
  const produceSeconds = (performance.now() - producing) / 1000;
  await producer.disconnect();
  log(
    `confluent producer: ${produced} in ${produceSeconds.toFixed(1)} s (${Math.round(produced / produceSeconds)}/s)`,
  );

  // Bare consumer of the run's topics.
  const bare = kafka.consumer({
    kafkaJS: {
      groupId: `${prefix}.bare-confluent`,
      fromBeginning: true,
      maxBytesPerPartition: 4 * 1024 * 1024,
    },
    ...UNLIMITED_BATCH,
  });
  await bare.connect();
  await bare.subscribe!({ topics });
  let seen = 0;
  const bareStarted = performance.now();
  const bareCpuStarted = cpuNow();
  await new Promise<void>((resolve, reject) => {
    bare.run!({
      eachBatch: ({ batch }: { batch: { messages: unknown[] } }) => {
        seen += batch.messages.length;
        if (seen >= kafkajs.produced) resolve();
        return Promise.resolve();
      },
    }).catch(reject);
  });
  const bareSeconds = (performance.now() - bareStarted) / 1000;
  const bareCpu = (cpuNow() - bareCpuStarted) / seen;
  await bare.disconnect();
  log(
    `bare confluent consumer: ${seen} in ${bareSeconds.toFixed(1)} s (${Math.round(seen / bareSeconds)}/s), CPU ${bareCpu.toFixed(2)} us per record`,
  );

  // The analytics consumer on the confluent client: its own group and read store.
  const store = await openReadStore({
    ...config,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ledgerwise-bench-analytics-confluent-')),
  });
  await ensureAnalyticsIndexes(store.db);
  const started = performance.now();
  const cpuStarted = cpuNow();
  const consumer = await startLedgerFactsConsumer({
    kafka: asKafkajs(kafka),
    db: store.db,
    topicPrefix: prefix,
    groupId: `${prefix}.analytics-confluent`,
    // The shim has no commitOffsets or group events: written inside eachBatch, committed by the client.
    pipelined: false,
  });
  while (consumer.applied() < kafkajs.produced) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (performance.now() - started) / 1000;
  const cpu = (cpuNow() - cpuStarted) / consumer.applied();
  await consumer.stop();
  await store.close();
  log(
    `analytics consumer (confluent): ${consumer.applied()} in ${seconds.toFixed(1)} s (${Math.round(consumer.applied() / seconds)}/s), CPU ${cpu.toFixed(2)} us per record`,
  );

  return [
    {
      name: 'confluent producer (kafkaJS mode), acks -1, records/s',
      unit: 'records/s',
      value: produced / produceSeconds,
      baseline: { name: 'kafkajs producer, same records, same run', value: kafkajs.producerRate },
      higherIsBetter: true,
    },
    {
      name: 'bare confluent consumer (kafkaJS mode, unlimited batch), records/s',
      unit: 'records/s',
      value: seen / bareSeconds,
      baseline: { name: 'bare kafkajs consumer, same topics', value: kafkajs.bareRate },
      higherIsBetter: true,
    },
    {
      name: 'bare confluent consumer, CPU per record (lower is better)',
      unit: 'us',
      value: bareCpu,
      baseline: { name: 'bare kafkajs consumer, same topics', value: kafkajs.bareCpu },
      higherIsBetter: false,
    },
    {
      name: 'analytics consumer (confluent), records/s',
      unit: 'records/s',
      value: consumer.applied() / seconds,
      baseline: { name: 'analytics consumer (kafkajs), same topics', value: kafkajs.consumerRate },
      higherIsBetter: true,
    },
    {
      name: 'analytics consumer (confluent), CPU per record (lower is better)',
      unit: 'us',
      value: cpu,
      baseline: { name: 'analytics consumer (kafkajs), same topics', value: kafkajs.consumerCpu },
      higherIsBetter: false,
    },
  ];
};
