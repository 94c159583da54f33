import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import pino from 'pino';
import { Job, JobsResponse } from '../../contracts/api/jobs';
import { SellerResponse, SellersResponse } from '../../contracts/api/sellers';
import { JobEvent } from '../../contracts/events/job';
import type { JobProgressNotice } from '../../contracts/live';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { MetricFrequency, MetricType } from '../../contracts/ledger';
import type { generateMetricsWorkflow } from '../../workflows/metrics/workflows';
import {
  CUSTOMER_METRICS,
  METRIC_ROWS,
  queryMetricRows,
  querySellerMetricSummary,
} from '../../workflows/metrics/metric-store';
import { startMetricsJob } from '../../workflows/metrics/metrics-job-client';
import { startMetricsJobReactor } from '../../workflows/metrics/metrics-job-reactor';
import { withSellerMetricsLease } from '../../workflows/metrics/seller-metrics-lease';
import { createMetricsWorker } from '../../workflows/metrics/worker';
import { SellerIdKey, TenantIdKey } from '../../workflows/search-attributes';
import { connectorsFor } from '../../workflows/sync/connectors';
import { startSyncRequestReactor } from '../../workflows/sync/sync-request-reactor';
import { readState } from '../../workflows/sync/system-commands';
import { createSyncWorker } from '../../workflows/sync/worker';
import { sellerOf } from '../gateway/admin-fixtures';
import { companyFor, platformAdmin, signUp } from '../gateway/fixtures';
import { useGatewayWorld, type Browser } from '../gateway/gateway-world';
import { connectLive } from '../gateway/live-client';
import { expectedCustomerMetrics } from './expected-customer-metrics';
import { expectedMetricRows } from './expected-metrics';
import { storedLedger } from './ledger-world';
import { jobStream, sellerStream, tenantStream } from '../../contracts/stream-ids';

/**
 * Issue 5, section 5: the metrics jobs of the admin sellers table, C (customers) and S (sellers, the
 * default jobType). A platform admin asks for them through the gateway; the worker's metrics-job
 * reactor runs them on the metrics queue. The customers job recomputes a DEMO seller's customer
 * metrics (honouring the exclusion flags and the retention period) without redoing the seller
 * metrics; the sellers job runs GenerateMetrics for the seller. Both report their progress live.
 */
jest.setTimeout(300_000);

const world = useGatewayWorld(__filename, {}, { live: { heartbeatMs: 2000 } });
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;
let workers: Worker[] = [];
let running: Promise<unknown>;
let reactors: { stop: () => Promise<void> }[] = [];
let admin: Browser;

const reactorDeps = () => ({
  writeSide: world.services.writeSide,
  db: world.services.db,
  client,
  config: world.config,
  logger: pino({ level: 'silent' }),
});

beforeAll(async () => {
  await world.app.listen({ host: '127.0.0.1', port: 0 });
  const { config, services } = world;
  nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const deps = { db: services.db, writeSide: services.writeSide, now: () => new Date() };
  workers = [
    await createSyncWorker({
      connection: nativeConnection,
      config,
      deps: { ...deps, connectorFor: connectorsFor(services.db) },
    }),
    await createMetricsWorker({ connection: nativeConnection, config, deps }),
  ];
  running = Promise.all(workers.map((worker) => worker.run()));
  reactors = [startSyncRequestReactor(reactorDeps()), startMetricsJobReactor(reactorDeps())];
  admin = (await platformAdmin(world)).browser;
});

afterAll(async () => {
  for (const reactor of reactors) await reactor.stop();
  for (const worker of workers) worker.shutdown();
  await running;
  await connection?.close();
  await nativeConnection?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A company with a DEMO seller connected through the API and populated by the worker. */
const syncedDemoSeller = async (name: string) => {
  const owner = await signUp(world, { name });
  const tenantId = await companyFor(world, owner, { name: `${name} Co` });
  const connected = await owner.browser.post('/api/sellers', { provider: 'DEMO' });
  expect(connected.statusCode).toBe(200);
  const sellerId = SellerResponse.parse(connected.json()).Id;
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const rows = SellersResponse.parse((await owner.browser.get('/api/sellers')).json()).rows;
    if (rows.find((s) => s.Id === sellerId)?.Progress === 'completed') return { owner, tenantId, sellerId };
    await sleep(250);
  }
  throw new Error(`seller ${sellerId} did not complete its populate`);
};

const requestJob = async (jobType: string, sellerId: number): Promise<Job> => {
  const response = await admin.post(`/api/metrics/sellers?jobType=${jobType}`, { id: sellerId });
  expect(response.statusCode).toBe(200);
  const [job] = JobsResponse.parse(response.json()).jobs;
  return job!;
};

const jobOf = async (jobId: number): Promise<Job> => {
  await world.settle();
  return Job.parse((await admin.get(`/api/jobs/${jobId}`)).json());
};

const waitForJob = async (jobId: number, done: (job: Job) => boolean): Promise<Job> => {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const job = await jobOf(jobId);
    if (done(job)) return job;
    await sleep(250);
  }
  throw new Error(`job ${jobId} never reached the expected state`);
};

const finished = (job: Job) => job.Status !== 'created' && job.Status !== 'running';

/** The independent computation, from the stored ledger and the seller's and tenant's settings. */
const expectedFor = async (seller: { sellerId: number; tenantId: number }) => {
  const { writeSide } = world.services;
  const state = await readState(writeSide, sellerDecider, sellerStream(seller.sellerId));
  const tenant = await readState(writeSide, tenantDecider, tenantStream(seller.tenantId));
  if (state.status !== 'known' || state.collectionDate === null) throw new Error('the seller is not synced');
  const ledger = await storedLedger(world.services.db, seller.sellerId);
  return expectedCustomerMetrics({
    invoices: ledger.invoices,
    excludedCustomers: [...state.featureFlags['exclusions.CustomerIds']],
    excludedProducts: [...state.featureFlags['exclusions.ProductIds']],
    asOf: new Date(state.collectionDate),
    retention: tenant.status === 'none' ? 'AUTO' : tenant.reporting.RetentionPeriod,
  });
};

const storedCustomerMetrics = (sellerId: number) =>
  world.services.db
    .collection(CUSTOMER_METRICS)
    .find({ sellerId }, { projection: { _id: 0, sellerId: 0, generation: 0 } })
    .sort({ customerId: 1 })
    .toArray();

/** When a job's run held the seller: from its first `customers` progress to its last. */
const customersStageOf = async (jobId: number) => {
  const events = await world.services.writeSide.store.readStream(jobStream(jobId));
  const times = events
    .map((e) => JobEvent.parse({ type: e.type, data: e.data }))
    .flatMap((e) =>
      e.type === 'JobProgressRecorded' && e.data.stage === 'customers' ? [Date.parse(e.data.recordedAt)] : [],
    );
  return { from: Math.min(...times), to: Math.max(...times) };
};

describe('the customers and sellers jobs', () => {
  let seller: Awaited<ReturnType<typeof syncedDemoSeller>>;

  it('recomputes the customer metrics of the seller, leaves its seller metrics, and shows its progress live', async () => {
    const demo = await syncedDemoSeller('customers-owner');
    seller = demo;
    const { sellerId, tenantId } = demo;
    const metricsDate = SellerResponse.parse(
      (await admin.get(`/api/sellers/${sellerId}`)).json(),
    ).MetricsDate;
    const rowsBefore = await world.services.db
      .collection(METRIC_ROWS)
      .find({ sellerId }, { projection: { _id: 1, value: 1, generation: 1 } })
      .toArray();
    const summaryBefore = await querySellerMetricSummary(world.services.db, sellerId);
    expect(rowsBefore.length).toBeGreaterThan(0);

    // Exclude the seller's biggest customer after the sync: only a recomputation can leave it out.
    const ledger = await storedLedger(world.services.db, sellerId);
    const invoicesOf = new Map<number, number>();
    for (const i of ledger.invoices) invoicesOf.set(i.customerId, (invoicesOf.get(i.customerId) ?? 0) + 1);
    const [excluded] = [...invoicesOf].sort((a, b) => b[1] - a[1])[0]!;
    await world.run(sellerDecider, sellerStream(sellerId), {
      type: 'SetSellerFeatureFlag',
      now: world.clock.now(),
      data: { flag: 'exclusions.CustomerIds', value: [excluded] },
    });
    expect((await storedCustomerMetrics(sellerId)).some((c) => c.customerId === excluded)).toBe(true);

    const live = await connectLive(world, demo.owner.browser);
    const job = await requestJob('customers', sellerId);
    expect(job).toMatchObject({ Kind: 'metrics', Type: 'customers', Status: 'created', TenantId: tenantId });
    expect(job.WorkflowId).toBe(
      `${world.config.TEMPORAL_TASK_QUEUE_PREFIX}-metrics-customers-seller-${sellerId}-job-${job.Id}`,
    );

    const done = await waitForJob(job.Id, finished);
    const expected = await expectedFor(demo);
    expect(done).toMatchObject({
      Status: 'completed',
      Failure: null,
      Progress: { stage: 'customers' },
      Result: { customers: expected.customers.length, ...expected.counts },
    });
    expect(done.Progress?.done).toBe(ledger.invoices.length);
    expect(done.Progress?.total).toBe(ledger.invoices.length);

    // The job's notices, in order: progress within the stage never goes back, completed last.
    await live.next('job-progress', {
      where: (m) => m.jobId === job.Id && m.status === 'completed',
      timeoutMs: 30_000,
    });
    const notices = live.messages.filter(
      (m): m is JobProgressNotice => m.type === 'job-progress' && m.jobId === job.Id,
    );
    live.close();
    expect(notices.every((n) => n.tenantId === tenantId && n.sellerId === sellerId)).toBe(true);
    expect(notices.map((n) => n.position)).toEqual([...notices.map((n) => n.position)].sort((a, b) => a - b));
    expect(notices.at(-1)?.status).toBe('completed');
    const steps = notices.filter((n) => n.stage === 'customers').map((n) => n.done);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps.at(-1)).toBe(ledger.invoices.length);

    // The figures agree with the independent computation, and the excluded customer is gone.
    expect(await storedCustomerMetrics(sellerId)).toEqual(expected.customers);
    expect(expected.customers.some((c) => c.customerId === excluded)).toBe(false);
    const summary = await querySellerMetricSummary(world.services.db, sellerId);
    expect(summary).toEqual({ ...summaryBefore, ...expected.counts });
    expect(summary?.customersT36M).toBe((summaryBefore?.customersT36M ?? 0) - 1);

    // The seller metrics are as GenerateMetrics left them: same rows, same MetricsDate.
    const rowsAfter = await world.services.db
      .collection(METRIC_ROWS)
      .find({ sellerId }, { projection: { _id: 1, value: 1, generation: 1 } })
      .toArray();
    expect(rowsAfter).toEqual(rowsBefore);
    expect(SellerResponse.parse((await admin.get(`/api/sellers/${sellerId}`)).json()).MetricsDate).toBe(
      metricsDate,
    );

    // Operators find the run by tenant and seller in the Temporal UI.
    const run = await client.workflow.getHandle(job.WorkflowId).describe();
    expect(run.type).toBe('customerMetricsWorkflow');
    expect(run.taskQueue).toBe(`${world.config.TEMPORAL_TASK_QUEUE_PREFIX}-metrics`);
    expect(run.typedSearchAttributes.get(TenantIdKey)).toBe(tenantId);
    expect(run.typedSearchAttributes.get(SellerIdKey)).toBe(sellerId);
  });

  it('waits while another metrics run holds the seller; a second request runs after the first, never beside it', async () => {
    const { sellerId } = seller;
    const { db } = world.services;
    // A forecast and a historical job run beside them (no lease); forecasting is off for this seller.
    const forecast = await requestJob('forecasts', sellerId);
    const historical = await requestJob('historical', sellerId);

    // Hold the seller as a running GenerateMetrics would, while two customers jobs are requested.
    const [first, second] = await withSellerMetricsLease(
      { db, now: () => new Date() },
      { sellerId, holder: 'test-running-generation' },
      async () => {
        const jobs = [await requestJob('customers', sellerId), await requestJob('customers', sellerId)];
        for (const job of jobs) {
          const waiting = await waitForJob(job.Id, (j) => j.Progress !== null || finished(j));
          expect(waiting).toMatchObject({ Status: 'running', Progress: { stage: 'waiting', total: null } });
        }
        return jobs;
      },
    );

    const ended = [await waitForJob(first!.Id, finished), await waitForJob(second!.Id, finished)];
    expect(ended.map((job) => job.Status)).toEqual(['completed', 'completed']);
    const [a, b] = [await customersStageOf(first!.Id), await customersStageOf(second!.Id)];
    expect(a.to <= b.from || b.to <= a.from).toBe(true);
    // Whichever stored last, the seller has every customer's figures, none lost to the other run.
    expect(await storedCustomerMetrics(sellerId)).toEqual((await expectedFor(seller)).customers);

    for (const job of [forecast, historical])
      expect(await waitForJob(job.Id, finished)).toMatchObject({
        Status: 'completed',
        Result: { skipped: 'Forecasting is off for this seller.' },
      });
  });

  it('the sellers job (the default jobType) runs GenerateMetrics: started, waiting, metrics, completed, with fresh rows and MetricsDate', async () => {
    const { sellerId, tenantId } = seller;
    const { db } = world.services;
    const before = SellerResponse.parse((await admin.get(`/api/sellers/${sellerId}`)).json());
    const rowsBefore = await db
      .collection(METRIC_ROWS)
      .find({ sellerId }, { projection: { _id: 1, generation: 1 } })
      .toArray();
    // The expected rows leave out the customer excluded by the first test; the sync's rows still count it.
    const state = await readState(world.services.writeSide, sellerDecider, sellerStream(sellerId));
    if (state.status !== 'known' || state.collectionDate === null)
      throw new Error('the seller is not synced');
    const asOf = new Date(state.collectionDate);
    const ledger = await storedLedger(db, sellerId);
    const expectedRows = (type: MetricType, frequency: MetricFrequency) =>
      expectedMetricRows({
        invoices: ledger.invoices,
        payments: ledger.payments,
        creditMemos: ledger.creditMemos,
        excludedCustomers: [...state.featureFlags['exclusions.CustomerIds']],
        excludedProducts: [...state.featureFlags['exclusions.ProductIds']],
        asOf,
        type,
        frequency,
      });
    expect(await queryMetricRows(db, { sellerId, type: 'TOTAL_REVENUE', frequency: 'YEARLY' })).not.toEqual(
      expectedRows('TOTAL_REVENUE', 'YEARLY'),
    );

    const live = await connectLive(world, seller.owner.browser);
    // Asked while another run holds the seller: the job starts and says it waits.
    const job = await withSellerMetricsLease(
      { db, now: () => new Date() },
      { sellerId, holder: 'test-running-customers-job' },
      async () => {
        const response = await admin.post('/api/metrics/sellers', { id: sellerId });
        expect(response.statusCode).toBe(200);
        const [requested] = JobsResponse.parse(response.json()).jobs;
        const waiting = await waitForJob(requested!.Id, (j) => j.Progress !== null || finished(j));
        expect(waiting).toMatchObject({ Status: 'running', Progress: { stage: 'waiting', total: null } });
        return requested!;
      },
    );
    expect(job).toMatchObject({ Kind: 'metrics', Type: 'sellers', TenantId: tenantId, SellerId: sellerId });
    expect(job.WorkflowId).toBe(
      `${world.config.TEMPORAL_TASK_QUEUE_PREFIX}-metrics-sellers-seller-${sellerId}-job-${job.Id}`,
    );

    const done = await waitForJob(job.Id, finished);
    expect(done).toMatchObject({
      Status: 'completed',
      Failure: null,
      Progress: { stage: 'metrics', done: 1, total: 1 },
    });
    const after = SellerResponse.parse((await admin.get(`/api/sellers/${sellerId}`)).json());
    expect(Date.parse(after.MetricsDate!)).toBeGreaterThan(Date.parse(before.MetricsDate!));
    expect(after.CollectionDate).toBe(before.CollectionDate);
    expect(done.Result).toMatchObject({ metricsDate: after.MetricsDate });

    // Every row is the run's, and agrees with the independent computation.
    const rowsAfter = await db
      .collection(METRIC_ROWS)
      .find({ sellerId }, { projection: { _id: 1, generation: 1 } })
      .toArray();
    expect(rowsBefore.every((row) => row.generation !== job.WorkflowId)).toBe(true);
    expect(rowsAfter.every((row) => row.generation === job.WorkflowId)).toBe(true);
    expect(done.Result).toMatchObject({ rows: rowsAfter.length });
    for (const type of MetricType.options)
      for (const frequency of MetricFrequency.options)
        expect({ type, frequency, rows: await queryMetricRows(db, { sellerId, type, frequency }) }).toEqual({
          type,
          frequency,
          rows: expectedRows(type, frequency),
        });

    // Its notices in order: waiting, then the metrics stage announced before its last step, completed last.
    await live.next('job-progress', {
      where: (m) => m.jobId === job.Id && m.status === 'completed',
      timeoutMs: 30_000,
    });
    const notices = live.messages.filter(
      (m): m is JobProgressNotice => m.type === 'job-progress' && m.jobId === job.Id,
    );
    live.close();
    expect(notices.map((n) => n.position)).toEqual([...notices.map((n) => n.position)].sort((a, b) => a - b));
    const steps = notices.flatMap((n) => (n.stage === null ? [] : [`${n.stage} ${n.done}/${n.total}`]));
    expect([...new Set(steps)]).toEqual(['waiting 0/null', 'metrics 0/null', 'metrics 1/1']);
    expect(notices.at(-1)?.status).toBe('completed');

    const run = await client.workflow.getHandle<typeof generateMetricsWorkflow>(job.WorkflowId).describe();
    expect(run.type).toBe('generateMetricsWorkflow');
    expect(run.typedSearchAttributes.get(TenantIdKey)).toBe(tenantId);
    expect(run.typedSearchAttributes.get(SellerIdKey)).toBe(sellerId);
  });

  it('a sellers job for a seller that has never synced fails with the reason, storing nothing', async () => {
    const sellerId = await sellerOf(world, seller.tenantId, { companyName: 'Desktop Co', provider: 'QBD' });
    const job = await requestJob('sellers', sellerId);
    const failed = await waitForJob(job.Id, finished);
    expect(failed).toMatchObject({
      Status: 'failed',
      Failure: 'Metrics need synced data; the seller has not synced yet.',
    });
    expect(await world.services.db.collection(METRIC_ROWS).countDocuments({ sellerId })).toBe(0);
    expect(SellerResponse.parse((await admin.get(`/api/sellers/${sellerId}`)).json()).MetricsDate).toBeNull();
  });

  it('never starts a job twice: a replay of the requests from scratch starts nothing', async () => {
    const { db } = world.services;
    const jobs = JobsResponse.parse(
      (await admin.get(`/api/jobs?sellerId=${seller.sellerId}&scope=all`)).json(),
    ).jobs.filter((job) => job.Type === 'customers' || job.Type === 'sellers');
    expect(jobs.map((job) => job.Type).sort()).toEqual(['customers', 'customers', 'customers', 'sellers']);
    const runsBefore = await Promise.all(
      jobs.map(async (job) => (await client.workflow.getHandle(job.WorkflowId).describe()).runId),
    );
    const streamLengths = async () =>
      Promise.all(
        jobs.map(async (job) => (await world.services.writeSide.store.readStream(jobStream(job.Id))).length),
      );
    const lengthsBefore = await streamLengths();

    // The reactor loses its checkpoint and reads every request again.
    await reactors[1]!.stop();
    const checkpoints = db.collection<{ _id: string; position: number }>('reactor_checkpoints');
    const reached = (await checkpoints.findOne({ _id: 'metrics-jobs' }))!.position;
    await checkpoints.deleteOne({ _id: 'metrics-jobs' });
    reactors[1] = startMetricsJobReactor(reactorDeps());
    for (let attempt = 0; attempt < 200; attempt += 1) {
      if (((await checkpoints.findOne({ _id: 'metrics-jobs' }))?.position ?? -1) >= reached) break;
      await sleep(100);
    }
    expect((await checkpoints.findOne({ _id: 'metrics-jobs' }))?.position).toBe(reached);

    // Even asked directly, a finished job's id is never reused.
    for (const job of jobs) {
      const jobType = job.Type === 'sellers' ? 'sellers' : 'customers';
      const again = await startMetricsJob(
        { jobType, sellerId: seller.sellerId, tenantId: seller.tenantId, jobId: job.Id },
        { client, config: world.config },
      );
      expect(again).toEqual({ workflowId: job.WorkflowId, started: false });
    }
    const runsAfter = await Promise.all(
      jobs.map(async (job) => (await client.workflow.getHandle(job.WorkflowId).describe()).runId),
    );
    expect(runsAfter).toEqual(runsBefore);
    expect(await streamLengths()).toEqual(lengthsBefore);
  });
});
