/**
 * The analytics consumers (issue 19, docs/adr/0041 and 0042):
 * 1. Consumer throughput on N ledger feed records (customers, invoices, payments of many sellers, as
 *    the sync sends them) beside a bare kafkajs consumer reading the same topics in the same run
 *    (eachBatch, counting messages, no parsing): target at least 0.5x. The baseline runs before and
 *    after the measured consumer; its mean is the figure's baseline. The measured consumer's lag is
 *    sampled every second while it drains and logged.
 * 2. The producer side: kafkajs sending the same records (acks from all in-sync replicas, batches of
 *    1,000, as the ledger feed sender does), beside the bare consumer's rate.
 * 3. A seller_analytics_weekly data set for many sellers (the job's build and store, in-process):
 *    seconds and peak RSS, beside the figures' recompute of the same sellers.
 * 4. Consumer lag during a live feed: `liveRecords` records sent to fresh topics in the sync's pages
 *    (2,000 records) at the rate the 1M-invoice sync sent them (`liveRate`, records/s; bench/README.md,
 *    sync), an analytics consumer (its own group and read store) running from the start; the lag
 *    (records sent and not committed) is sampled every second until it reaches 0.
 * 5. Optional, when LEDGERWISE_CONFLUENT_KAFKA_PATH points at a built @confluentinc/kafka-javascript:
 *    its producer, bare consumer and the analytics consumer beside the kafkajs figures above
 *    (bench/analytics-confluent.ts, ADR 42); skipped with a log line otherwise.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Kafka, logLevel, type Message } from 'kafkajs';
import { analyticsGroupId } from '../../contracts/kafka/analytics';
import { ledgerTopicOf, type LedgerFeedRecord } from '../../contracts/kafka/ledger-records';
import type { LedgerEntity } from '../../contracts/ledger';
import {
  ANALYTICS_FACTS,
  analyticsSettled,
  countFacts,
  ensureAnalyticsIndexes,
} from '../../projections/analytics/analytics-store';
import { openReadStore } from '../../projections/read-store/open-read-store';
import { recomputeDueSellers } from '../../workflows/analytics/analytics-recompute';
import { datasetFileOf, datasetRows } from '../../workflows/analytics/datasets/dataset-content';
import { datasetObjectKey } from '../../workflows/analytics/datasets/dataset-activities';
import { startLedgerFactsConsumer } from '../../workflows/analytics/ledger-facts-consumer';
import { ledgerEntities } from '../../workflows/ledger/ledger-collections';
import { ensureLedgerTopics } from '../../workflows/outbox/ledger-feed-sender';
import { createReportObjectStore } from '../../workflows/reports/archive/report-object-store';
import { confluentFigures } from '../analytics-confluent';
import { benchConfig } from '../bench-config';
import type { BenchSuite, Figure } from '../harness';

const DAY_MS = 86_400_000;
const START = Date.UTC(2022, 0, 1);

/** A deterministic stream of feed records: per seller one customer for every 10 invoices, a payment per invoice. */
export function* feedRecords(params: { records: number; sellers: number }): Generator<LedgerFeedRecord> {
  let n = 0;
  const at = new Date(START + 900 * DAY_MS).toISOString();
  const record = (
    entity: LedgerEntity,
    sellerId: number,
    providerId: string,
    body: LedgerFeedRecord['record'],
  ) => {
    n += 1;
    return {
      schemaVersion: 1 as const,
      recordId: `${entity}:${sellerId}:${providerId}:1:${n.toString(36)}`,
      entity,
      sellerId,
      tenantId: 1000 + sellerId,
      providerId,
      epoch: 1,
      changedAt: at,
      record: { sellerId, providerId, ...body },
    };
  };
  for (let i = 0; n < params.records; i += 1) {
    const sellerId = (i % params.sellers) + 1;
    const index = Math.floor(i / params.sellers);
    const customerId = Math.floor(index / 10) + 1;
    const day = START + ((index * 3) % 1000) * DAY_MS;
    const amount = 10_000 + ((index * 7919) % 90_000);
    if (index % 10 === 0)
      yield record('customers', sellerId, `C${customerId}`, {
        customerId,
        name: `Customer ${customerId} of seller ${sellerId}`,
        email: `billing${customerId}@customer${customerId}.example`,
        createdAt: new Date(day).toISOString(),
        habit: 'prompt',
      });
    yield record('invoices', sellerId, `I${index}`, {
      customerId,
      docNumber: `INV-${index}`,
      transactionDate: new Date(day).toISOString(),
      dueDate: new Date(day + 30 * DAY_MS).toISOString(),
      amount,
      balance: index % 4 === 0 ? amount : 0,
      lines: [{ productId: 1 + (index % 20), quantity: 1 + (index % 3), amount }],
    });
    if (index % 4 !== 0)
      yield record('payments', sellerId, `P${index}`, {
        customerId,
        date: new Date(day + (20 + (index % 25)) * DAY_MS).toISOString(),
        amount,
        applications: [{ invoiceProviderId: `I${index}`, amount }],
      });
  }
}

const peakRss = () => {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
};

export const suite: BenchSuite = {
  name: 'analytics',
  description:
    'The analytics consumers on N ledger feed records beside a bare kafkajs consumer of the same topics; the kafkajs producer; a seller_analytics_weekly data set for many sellers',
  // liveRate: the 1M-invoice sync's feed, 1,030,548 invoices (about 2.15 records each) in 310 s.
  // factsThread: 0 parses the feed lines on the consumer's thread (still pipelined), 1 on its facts thread.
  params: {
    records: 200_000,
    sellers: 1000,
    datasetSellers: 1000,
    liveRecords: 200_000,
    liveRate: 7150,
    factsThread: 1,
  },
  run: async (params, { log }) => {
    const sizes = {
      records: params.records ?? 200_000,
      sellers: params.sellers ?? 1000,
      datasetSellers: params.datasetSellers ?? 1000,
      liveRecords: params.liveRecords ?? 200_000,
      liveRate: params.liveRate ?? 7150,
    };
    const factsThread = (params.factsThread ?? 1) !== 0;
    const onError = (error: unknown) => log(`analytics consumer error: ${String(error)}`);
    const config = benchConfig('analytics');
    const prefix = config.KAFKA_TOPIC_PREFIX;
    const kafka = new Kafka({
      clientId: `${prefix}-bench`,
      brokers: config.KAFKA_BROKERS,
      logLevel: logLevel.NOTHING,
    });
    await ensureLedgerTopics(kafka, prefix);
    const topics = ledgerEntities.map((entity) => ledgerTopicOf(prefix, entity));

    // Producer: the records as the feed sender sends them (keyed by seller, acks -1, 1,000 a request).
    log(`producing ${sizes.records} feed records for ${sizes.sellers} sellers (kafkajs, acks -1)`);
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const pending: Partial<Record<LedgerEntity, Message[]>> = {};
    let produced = 0;
    const producing = performance.now();
    const flush = async (entity: LedgerEntity) => {
      const messages = pending[entity] ?? [];
      if (messages.length === 0) return;
      pending[entity] = [];
      await producer.send({ topic: ledgerTopicOf(prefix, entity), acks: -1, messages });
    };
    for (const record of feedRecords(sizes)) {
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
      `produced ${produced} in ${produceSeconds.toFixed(1)} s (${Math.round(produced / produceSeconds)}/s)`,
    );

    /** CPU time of this process (user + system), in microseconds: steadier than the clock on a busy machine. */
    const cpuNow = () => {
      const usage = process.cpuUsage();
      return usage.user + usage.system;
    };
    const bareCpu: number[] = [];
    const bareConsumer = async (label: string): Promise<number> => {
      const consumer = kafka.consumer({
        groupId: `${prefix}.bare-${label}`,
        maxBytesPerPartition: 4 * 1024 * 1024,
      });
      await consumer.connect();
      await consumer.subscribe({ topics, fromBeginning: true });
      let seen = 0;
      const started = performance.now();
      const cpuStarted = cpuNow();
      await new Promise<void>((resolve, reject) => {
        consumer
          .run({
            eachBatch: ({ batch }) => {
              seen += batch.messages.length;
              if (seen >= produced) resolve();
              return Promise.resolve();
            },
          })
          .catch(reject);
      });
      const seconds = (performance.now() - started) / 1000;
      bareCpu.push((cpuNow() - cpuStarted) / seen);
      await consumer.disconnect();
      log(
        `bare kafkajs consumer (${label}): ${seen} in ${seconds.toFixed(1)} s (${Math.round(seen / seconds)}/s), CPU ${bareCpu[bareCpu.length - 1]!.toFixed(2)} us per record`,
      );
      return seen / seconds;
    };

    const before = await bareConsumer('before');

    const readStore = await openReadStore(config);
    const { db } = readStore;
    await ensureAnalyticsIndexes(db);
    const admin = kafka.admin();
    await admin.connect();
    /** Records on the topics not yet committed by the group. */
    const lagOf = async (groupId = analyticsGroupId(prefix), of = topics) => {
      let lag = 0;
      for (const topic of of) {
        // Committed offsets first: read after them, the ends are never behind them.
        const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
        const ends = await admin.fetchTopicOffsets(topic);
        for (const end of ends) {
          const at = committed?.partitions.find((p) => p.partition === end.partition);
          lag += Number(end.high) - Math.max(0, Number(at?.offset ?? '0'));
        }
      }
      return lag;
    };
    const started = performance.now();
    const cpuStarted = cpuNow();
    const consumer = await startLedgerFactsConsumer({ kafka, db, topicPrefix: prefix, factsThread, onError });
    const lags: string[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        lags.push(`${((performance.now() - started) / 1000).toFixed(0)}s:${await lagOf()}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    })();
    while (consumer.applied() < produced) await new Promise((resolve) => setTimeout(resolve, 20));
    const consumeSeconds = (performance.now() - started) / 1000;
    const consumerCpu = (cpuNow() - cpuStarted) / consumer.applied();
    // Until the last commit (the lag reaches 0), then the sampler stops.
    while ((await lagOf()) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    sampling = false;
    await sampler;
    await consumer.stop();
    log(
      `analytics consumer: ${consumer.applied()} in ${consumeSeconds.toFixed(1)} s (${Math.round(consumer.applied() / consumeSeconds)}/s)`,
    );
    log(`analytics consumer CPU: ${consumerCpu.toFixed(2)} us per record`);
    log(`consumer lag (seconds since start: records behind): ${lags.join(' ')}`);
    const stored = await countFacts(db);
    log(
      `stored: ${stored.records} records as ${stored.versions} versions in ${await db.collection(ANALYTICS_FACTS).countDocuments({})} documents`,
    );

    const after = await bareConsumer('after');
    const bare = (before + after) / 2;

    const recomputing = performance.now();
    while (!(await analyticsSettled(db)))
      await recomputeDueSellers(db, { now: new Date(), quietMs: 0, maxDelayMs: 0 });
    const recomputeSeconds = (performance.now() - recomputing) / 1000;
    log(`recompute of ${sizes.sellers} sellers' figures: ${recomputeSeconds.toFixed(1)} s`);

    // The data set for many sellers: the job's build and store, one seller after another.
    const objects = createReportObjectStore({
      ...config,
      S3_BUCKET: `lwbench-analytics-${Date.now().toString(36)}`,
    });
    const rssBefore = process.memoryUsage().rss;
    const rss = peakRss();
    const building = performance.now();
    let bytes = 0;
    const datasetSellers = Math.min(sizes.datasetSellers, sizes.sellers);
    for (let sellerId = 1; sellerId <= datasetSellers; sellerId += 1) {
      const step = { sellerId, startDate: '2022-01-01', endDate: '2024-12-31' };
      const rows = await datasetRows(db, 'seller_analytics_weekly', step);
      const file = datasetFileOf('seller_analytics_weekly', 'csv', rows);
      const key = datasetObjectKey(
        { tenantId: 1000 + sellerId, jobId: 1, dataset: 'seller_analytics_weekly', sellerId },
        file.extension,
      );
      const body = Buffer.from(file.text);
      await objects.put(key, body, file.mimeType);
      bytes += body.byteLength;
    }
    const datasetSeconds = (performance.now() - building) / 1000;
    const peak = rss.stop();
    objects.close();
    log(
      `seller_analytics_weekly for ${datasetSellers} sellers: ${datasetSeconds.toFixed(1)} s, ${(bytes / 1024 / 1024).toFixed(1)} MB, peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB`,
    );
    await readStore.close();

    // The confluent client beside these kafkajs figures, when a built copy is given (ADR 42).
    const confluent = await confluentFigures({
      config,
      records: () => feedRecords(sizes),
      kafkajs: {
        produced,
        producerRate: produced / produceSeconds,
        bareRate: bare,
        bareCpu: (bareCpu[0]! + bareCpu[1]!) / 2,
        consumerRate: consumer.applied() / consumeSeconds,
        consumerCpu,
      },
      log,
    });

    // A live feed: the sync's pages at the sync's pace, the consumer running from the start.
    const livePrefix = `${prefix}.live`;
    await ensureLedgerTopics(kafka, livePrefix);
    const liveTopics = ledgerEntities.map((entity) => ledgerTopicOf(livePrefix, entity));
    const liveStore = await openReadStore({
      ...config,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ledgerwise-bench-analytics-live-')),
    });
    await ensureAnalyticsIndexes(liveStore.db);
    const liveConsumer = await startLedgerFactsConsumer({
      kafka,
      db: liveStore.db,
      topicPrefix: livePrefix,
      factsThread,
      onError,
    });
    const liveLag = () => lagOf(analyticsGroupId(livePrefix), liveTopics);
    const liveProducer = kafka.producer({ allowAutoTopicCreation: false });
    await liveProducer.connect();
    log(`live feed: ${sizes.liveRecords} records in pages of 2,000 at ${sizes.liveRate}/s, consumer running`);
    const liveStarted = performance.now();
    const liveLags: string[] = [];
    let maxLag = 0;
    let liveSampling = true;
    const liveSampler = (async () => {
      while (liveSampling) {
        const lag = await liveLag();
        maxLag = Math.max(maxLag, lag);
        liveLags.push(`${((performance.now() - liveStarted) / 1000).toFixed(0)}s:${lag}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    })();
    let sent = 0;
    let page: LedgerFeedRecord[] = [];
    const sendPage = async () => {
      const byEntity = new Map<LedgerEntity, Message[]>();
      for (const record of page) {
        const list = byEntity.get(record.entity) ?? [];
        list.push({
          key: String(record.sellerId),
          value: JSON.stringify(record),
          headers: { recordId: record.recordId, schemaVersion: '1' },
        });
        byEntity.set(record.entity, list);
      }
      for (const [entity, messages] of byEntity)
        await liveProducer.send({ topic: ledgerTopicOf(livePrefix, entity), acks: -1, messages });
      sent += page.length;
      page = [];
      const due = liveStarted + (sent / sizes.liveRate) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    };
    for (const record of feedRecords({ records: sizes.liveRecords, sellers: sizes.sellers })) {
      page.push(record);
      if (page.length >= 2000) await sendPage();
    }
    if (page.length > 0) await sendPage();
    const feedSeconds = (performance.now() - liveStarted) / 1000;
    const feedEnded = performance.now();
    while ((await liveLag()) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    const catchUpSeconds = (performance.now() - feedEnded) / 1000;
    liveSampling = false;
    await liveSampler;
    await liveProducer.disconnect();
    await liveConsumer.stop();
    await liveStore.close();
    await admin.disconnect();
    log(
      `live feed: ${sent} records sent in ${feedSeconds.toFixed(1)} s (${Math.round(sent / feedSeconds)}/s); max lag ${maxLag} records; lag 0 ${catchUpSeconds.toFixed(1)} s after the last page`,
    );
    log(`live consumer lag (seconds since the feed started: records behind): ${liveLags.join(' ')}`);

    const figures: Figure[] = [
      {
        name: 'analytics consumer (kafkajs), records/s',
        unit: 'records/s',
        value: consumer.applied() / consumeSeconds,
        baseline: { name: 'bare kafkajs consumer, same topics, mean of before and after', value: bare },
        higherIsBetter: true,
        target: {
          kind: 'ratio',
          op: '>=',
          value: 0.5,
          source: 'issue 19: consumer throughput at least 0.5x',
        },
      },
      {
        name: 'analytics consumer (kafkajs), CPU per record (lower is better)',
        unit: 'us',
        value: consumerCpu,
        baseline: {
          name: 'bare kafkajs consumer, same topics, mean of before and after',
          value: (bareCpu[0]! + bareCpu[1]!) / 2,
        },
        higherIsBetter: false,
        target: {
          kind: 'ratio',
          op: '<=',
          value: 2,
          source: 'issue 19: at least 0.5x of the bare consumer, by CPU time',
        },
      },
      {
        name: 'kafkajs producer, acks -1, records/s',
        unit: 'records/s',
        value: produced / produceSeconds,
        baseline: { name: 'bare kafkajs consumer, same topics', value: bare },
        higherIsBetter: true,
      },
      {
        name: `seller_analytics_weekly data set for ${datasetSellers} sellers, seconds`,
        unit: 's',
        value: datasetSeconds,
        baseline: { name: `recompute of the same sellers' figures`, value: recomputeSeconds },
        higherIsBetter: false,
      },
      {
        name: `seller_analytics_weekly data set for ${datasetSellers} sellers, peak RSS`,
        unit: 'MB',
        value: Math.round(peak / 1024 / 1024),
        baseline: { name: 'RSS before the data set', value: Math.round(rssBefore / 1024 / 1024) },
        higherIsBetter: false,
      },
      {
        name: `consumer lag during a live feed of ${sent} records at the sync's pace, max records behind`,
        unit: 'records',
        value: maxLag,
        baseline: { name: 'records the feed sent per second', value: sent / feedSeconds },
        higherIsBetter: false,
      },
      {
        name: 'consumer lag during a live feed, seconds from the last page to lag 0',
        unit: 's',
        value: catchUpSeconds,
        baseline: { name: 'seconds the feed took', value: feedSeconds },
        higherIsBetter: false,
      },
      ...confluent,
    ];
    return figures;
  },
};
