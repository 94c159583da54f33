/**
 * GenerateMetrics over an N-invoice DEMO ledger (issue 5): the workflow on a real Temporal worker
 * scans the seller's invoices and payments, computes every metric at every frequency plus customer
 * metrics, stores them and records the MetricsDate. Beside it, in the same run: one plain scan of the
 * same invoices and payments (the floor any metric generation has to pay), taken before and after
 * GenerateMetrics, the faster of the two counting.
 */
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { handleCommand } from '../../commands/command-handler';
import { openEventSource } from '../../commands/open-event-source';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import { ensureLedgerIndexes, ledgerCollections } from '../../workflows/ledger/ledger-collections';
import { writeLedgerPage } from '../../workflows/ledger/write-ledger-page';
import { createMetricsWorker } from '../../workflows/metrics/worker';
import type { generateMetricsWorkflow } from '../../workflows/metrics/workflows';
import { taskQueues } from '../../workflows/task-queues';
import { benchConfig } from '../bench-config';
import type { BenchSuite } from '../harness';
import { benchProfile, benchUntil, connectBenchSeller, measurePeakRss } from '../sync-bench-seller';
import { openReadStore } from '../../projections/read-store/open-read-store';

export const suite: BenchSuite = {
  name: 'metrics',
  description: 'GenerateMetrics over an N-invoice DEMO ledger beside one plain scan of the same data',
  params: { invoices: 100_000 },
  run: async (params, { log }) => {
    const invoices = params.invoices ?? 100_000;
    const config = benchConfig('metrics');
    const dataDir = config.DATA_DIR;
    const run = config.TEMPORAL_TASK_QUEUE_PREFIX;
    Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
    const readStore = await openReadStore(config);
    const { db } = readStore;
    const events = await openEventSource(config);
    const nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
    const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
    const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
    const ids = { sellerId: 1, tenantId: 1 };
    /** What any metric generation has to read: the seller's invoices and payments, as GenerateMetrics reads them. */
    const plainScan = () =>
      measurePeakRss(async () => {
        const t = performance.now();
        let n = 0;
        for await (const doc of db
          .collection(ledgerCollections.invoices)
          .find(
            { sellerId: 1 },
            { projection: { _id: 0, customerId: 1, transactionDate: 1, balance: 1, lines: 1 } },
          ))
          n += doc ? 1 : 0;
        for await (const doc of db
          .collection(ledgerCollections.payments)
          .find({ sellerId: 1 }, { projection: { _id: 0, customerId: 1, date: 1, amount: 1 } }))
          n += doc ? 1 : 0;
        return { seconds: (performance.now() - t) / 1000, n };
      });
    try {
      await connectBenchSeller(events, ids);
      await handleCommand(
        sellerDecider,
        {
          streamId: 'seller-1',
          commandId: 'bench-collection-date',
          command: {
            type: 'RecordSellerCollectionDate',
            now: new Date(),
            data: { collectionDate: benchUntil },
          },
        },
        events.writeSide,
      );
      log(`writing a DEMO ledger of about ${invoices} invoices`);
      await ensureLedgerIndexes(db);
      const profile = benchProfile(invoices);
      let cursor: string | null = null;
      do {
        const fetched = fetchDemoPage(profile, {
          sellerId: 1,
          since: null,
          until: benchUntil,
          cursor,
          pageSize: 2000,
        });
        await writeLedgerPage({ db, tenantId: 1, epoch: 1, now: new Date(), compare: false }, fetched.page);
        cursor = fetched.nextCursor;
      } while (cursor !== null);
      const stored = await db.collection(ledgerCollections.invoices).countDocuments({});
      log('baseline: one plain scan of the same invoices and payments, before and after GenerateMetrics');
      const scanBefore = await plainScan();
      log(`scan before: ${scanBefore.result.n} documents in ${scanBefore.result.seconds.toFixed(1)} s`);
      const worker = await createMetricsWorker({
        connection: nativeConnection,
        config,
        deps: { db, writeSide: events.writeSide, now: () => new Date() },
      });

      log(`generating metrics over ${stored} invoices`);
      const started = performance.now();
      const { result, peakMiB } = await measurePeakRss(() =>
        worker.runUntil(
          client.workflow.execute<typeof generateMetricsWorkflow>('generateMetricsWorkflow', {
            taskQueue: taskQueues(config).metrics,
            workflowId: `bench-metrics-${run}`,
            args: [{ ...ids, jobId: null, finishJob: false }],
          }),
        ),
      );
      const metricsSeconds = (performance.now() - started) / 1000;
      log(
        `metrics: ${result.rows} rows, ${result.customers} customers in ${metricsSeconds.toFixed(1)} s, peak RSS ${peakMiB.toFixed(0)} MiB`,
      );

      log('baseline again: one plain scan of the same invoices and payments');
      const scanAfter = await plainScan();
      log(`scan after: ${scanAfter.result.n} documents in ${scanAfter.result.seconds.toFixed(1)} s`);
      // The faster of the two scans: the baseline a busy moment of a shared machine inflates least.
      const scan = scanAfter.result.seconds < scanBefore.result.seconds ? scanAfter : scanBefore;
      return [
        {
          name: 'GenerateMetrics (all types, frequencies, customers)',
          unit: 's',
          value: metricsSeconds,
          baseline: { name: 'one plain scan of the same data (faster of two)', value: scan.result.seconds },
          higherIsBetter: false,
          target: { kind: 'ratio', op: '<=', value: 3, source: 'issue 5' },
        },
        {
          name: 'peak RSS during GenerateMetrics',
          unit: 'MiB',
          value: peakMiB,
          baseline: { name: 'peak RSS during the plain scan', value: scan.peakMiB },
          higherIsBetter: false,
        },
      ];
    } finally {
      await connection.close();
      await nativeConnection.close();
      await events.close();
      await db.dropDatabase();
      await readStore.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
