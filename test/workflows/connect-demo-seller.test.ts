import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import pino from 'pino';
import { Job } from '../../contracts/api/jobs';
import { MetricRowsResponse, TenantCustomersResponse } from '../../contracts/api/ledger';
import { SellerResponse, SellerSyncResponse, SellersResponse } from '../../contracts/api/sellers';
import type { JobProgressNotice } from '../../contracts/live';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { withSellerMetricsLease } from '../../workflows/metrics/seller-metrics-lease';
import { createMetricsWorker } from '../../workflows/metrics/worker';
import { startSellerSync } from '../../workflows/sync/client';
import { connectorsFor } from '../../workflows/sync/connectors';
import { startSyncRequestReactor } from '../../workflows/sync/sync-request-reactor';
import { readState } from '../../workflows/sync/system-commands';
import { createSyncWorker } from '../../workflows/sync/worker';
import { companyFor, platformAdmin, signUp } from '../gateway/fixtures';
import { useGatewayWorld, type Browser } from '../gateway/gateway-world';
import { connectLive } from '../gateway/live-client';
import { jobStream, sellerStream } from '../../contracts/stream-ids';

/**
 * Issue 5, "done means": connect a DEMO seller through the API; the worker's reactor populates it,
 * SyncSeller fills the ledger, GenerateMetrics follows, the seller's status moves syncing ->
 * generating -> completed, and a websocket client sees the job's progress notices in order. Then:
 * a redelivered request starts nothing, and a sync asked while the last one's metrics are still
 * being generated runs.
 */
jest.setTimeout(300_000);

const world = useGatewayWorld(__filename, {}, { live: { heartbeatMs: 2000 } });
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;
let workers: Worker[] = [];
let running: Promise<unknown>;
let reactor: { stop: () => Promise<void> };
let admin: Browser;

const startReactor = () =>
  startSyncRequestReactor({
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
  reactor = startReactor();
  admin = (await platformAdmin(world)).browser;
});

afterAll(async () => {
  await reactor?.stop();
  for (const worker of workers) worker.shutdown();
  await running;
  await connection?.close();
  await nativeConnection?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const jobOf = async (jobId: number): Promise<Job> => {
  await world.settle();
  return Job.parse((await admin.get(`/api/jobs/${jobId}`)).json());
};

const waitForJob = async (jobId: number, done: (job: Job) => boolean, attempts = 600): Promise<Job> => {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const job = await jobOf(jobId);
    if (done(job)) return job;
    await sleep(250);
  }
  throw new Error(`job ${jobId} never reached the expected state: ${JSON.stringify(await jobOf(jobId))}`);
};

const finished = (job: Job) => job.Status !== 'created' && job.Status !== 'running';

describe('connecting a DEMO seller', () => {
  let populated: { sellerId: number; tenantId: number; jobId: number };

  it('populates it, generates metrics, and shows the progress live and in order', async () => {
    const owner = await signUp(world, { name: 'demo-owner' });
    const tenantId = await companyFor(world, owner, { name: 'Demo Pipeline Co' });
    const live = await connectLive(world, owner.browser);

    const connected = await owner.browser.post('/api/sellers', { provider: 'DEMO' });
    expect(connected.statusCode).toBe(200);
    const sellerId = SellerResponse.parse(connected.json()).Id;

    // The seller's progress as the platforms page shows it, sampled until it completes.
    const seen: string[] = [];
    for (let attempt = 0; attempt < 600 && seen.at(-1) !== 'completed'; attempt += 1) {
      const response = await owner.browser.get('/api/sellers');
      const seller = SellersResponse.parse(response.json()).rows.find((s) => s.Id === sellerId);
      if (seller && seller.Progress !== seen.at(-1)) seen.push(seller.Progress);
      if (seen.at(-1) !== 'completed') await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(seen.at(-1)).toBe('completed');
    // Never backwards: syncing before generating before completed.
    const order = ['syncing', 'generating', 'completed'];
    expect(seen.map((s) => order.indexOf(s))).toEqual([...seen.map((s) => order.indexOf(s))].sort());
    expect(seen[0]).toBe('syncing');

    // The job's notices: queued or running first, progress that never goes back, completed last.
    const done = await live.next('job-progress', {
      where: (m) => m.sellerId === sellerId && m.status === 'completed' && m.kind === 'sync',
      timeoutMs: 30_000,
    });
    const notices = live.messages.filter(
      (m): m is JobProgressNotice => m.type === 'job-progress' && m.jobId === done.jobId,
    );
    expect(notices.every((n) => n.tenantId === tenantId)).toBe(true);
    expect(notices.map((n) => n.position)).toEqual([...notices.map((n) => n.position)].sort((a, b) => a - b));
    expect(notices.at(-1)?.status).toBe('completed');
    expect(notices.some((n) => n.stage !== null && (n.total ?? 0) > 0)).toBe(true);
    // Once fetched, the bar says metrics are being generated (not "fetching n of n") until the end.
    const stages = notices.map((n) => n.stage);
    const metricsFrom = stages.indexOf('metrics');
    expect(metricsFrom).toBeGreaterThan(stages.lastIndexOf('fetching'));
    expect(notices[metricsFrom]).toMatchObject({ status: 'running', done: 0, total: null });
    expect(notices.slice(metricsFrom).every((n) => n.stage === 'metrics')).toBe(true);
    expect(notices.at(-2)).toMatchObject({ stage: 'metrics', done: 1, total: 1, status: 'running' });
    live.close();
    populated = { sellerId, tenantId, jobId: done.jobId };

    // The dates the platforms page and the admin table show, and metric rows to chart.
    const seller = SellerResponse.parse((await owner.browser.get(`/api/sellers/${sellerId}`)).json());
    expect(seller.CollectionDate).not.toBeNull();
    expect(seller.MetricsDate).not.toBeNull();
    const metrics = MetricRowsResponse.parse(
      (await owner.browser.get(`/api/metrics/sellers/${sellerId}?type=0&frequency=MONTHLY`)).json(),
    );
    expect(metrics.type).toBe('TOTAL_REVENUE');
    expect(metrics.rows.length).toBeGreaterThan(12);
    expect(metrics.rows.some((row) => row.Value > 0)).toBe(true);
    const customers = TenantCustomersResponse.parse(
      (await owner.browser.get(`/api/tenants/${tenantId}/customers`)).json(),
    );
    expect(customers.total).toBeGreaterThan(0);
    expect(customers.rows.every((row) => row.SellerId === sellerId)).toBe(true);
  });

  it('starts nothing when a finished request is delivered again', async () => {
    const { sellerId, tenantId, jobId } = populated;
    const { db, writeSide } = world.services;
    const job = await jobOf(jobId);
    expect(job.Status).toBe('completed');
    const runBefore = (await client.workflow.getHandle(job.WorkflowId).describe()).runId;
    const lengths = async () => [
      (await writeSide.store.readStream(jobStream(jobId))).length,
      (await writeSide.store.readStream(sellerStream(sellerId))).length,
    ];
    const lengthsBefore = await lengths();

    // The reactor loses its checkpoint and reads the connect and the populate request again.
    await reactor.stop();
    const checkpoints = db.collection<{ _id: string; position: number }>('reactor_checkpoints');
    const reached = (await checkpoints.findOne({ _id: 'sync-requests' }))!.position;
    await checkpoints.deleteOne({ _id: 'sync-requests' });
    reactor = startReactor();
    for (let attempt = 0; attempt < 200; attempt += 1) {
      if (((await checkpoints.findOne({ _id: 'sync-requests' }))?.position ?? -1) >= reached) break;
      await sleep(100);
    }
    expect((await checkpoints.findOne({ _id: 'sync-requests' }))?.position).toBe(reached);

    // Even asked directly, the finished run's id is not run again.
    const again = await startSellerSync(
      { sellerId, tenantId, mode: 'populate', jobId, workflowId: job.WorkflowId },
      { client, config: world.config },
    );
    expect(again).toEqual({ workflowId: job.WorkflowId, started: false });
    expect((await client.workflow.getHandle(job.WorkflowId).describe()).runId).toBe(runBefore);
    const runs: string[] = [];
    for await (const run of client.workflow.list({ query: `WorkflowId = '${job.WorkflowId}'` }))
      runs.push(run.runId);
    expect(runs).toEqual([runBefore]);
    expect(await lengths()).toEqual(lengthsBefore);
  });

  it('runs a sync asked while the last sync is still generating its metrics', async () => {
    const { sellerId } = populated;
    const { db, writeSide } = world.services;
    // Another metrics run holds the seller, so the first sync's GenerateMetrics waits and its run stays open.
    const [first, second] = await withSellerMetricsLease(
      { db, now: () => new Date() },
      { sellerId, holder: 'test-running-metrics' },
      async () => {
        const requestSync = async () => {
          const response = await admin.post(`/api/sellers/${sellerId}/sync`, {});
          expect(response.statusCode).toBe(200);
          return SellerSyncResponse.parse(response.json()).job.jobId;
        };
        const waiting = (job: Job) => job.Progress?.stage === 'waiting' || finished(job);
        const a = await requestSync();
        expect(await waitForJob(a, waiting)).toMatchObject({
          Status: 'running',
          Progress: { stage: 'waiting' },
        });
        // The first sync is complete on the seller, so a second one is taken (200); its run must start
        // although the first's is still open, waiting for its metrics.
        const b = await requestSync();
        expect(await waitForJob(b, waiting, 120)).toMatchObject({
          Status: 'running',
          Progress: { stage: 'waiting' },
        });
        return [a, b];
      },
    );
    expect((await waitForJob(first, finished)).Status).toBe('completed');
    expect((await waitForJob(second, finished)).Status).toBe('completed');
    const state = await readState(writeSide, sellerDecider, sellerStream(sellerId));
    expect(state.status === 'known' && state.runningSync).toBeNull();
  });
});
