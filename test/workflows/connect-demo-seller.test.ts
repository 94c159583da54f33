import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import pino from 'pino';
import { MetricRowsResponse, TenantCustomersResponse } from '../../contracts/api/ledger';
import { SellerResponse, SellersResponse } from '../../contracts/api/sellers';
import type { JobProgressNotice } from '../../contracts/live';
import { createMetricsWorker } from '../../workflows/metrics/worker';
import { connectorsFor } from '../../workflows/sync/connectors';
import { startSyncRequestReactor } from '../../workflows/sync/sync-request-reactor';
import { createSyncWorker } from '../../workflows/sync/worker';
import { companyFor, signUp } from '../gateway/fixtures';
import { useGatewayWorld } from '../gateway/gateway-world';
import { connectLive } from '../gateway/live-client';

/**
 * Issue 5, "done means": connect a DEMO seller through the API; the worker's reactor populates it,
 * SyncSeller fills the ledger, GenerateMetrics follows, the seller's status moves syncing ->
 * generating -> completed, and a websocket client sees the job's progress notices in order.
 */
jest.setTimeout(300_000);

const world = useGatewayWorld(__filename, {}, { live: { heartbeatMs: 2000 } });
let nativeConnection: NativeConnection;
let connection: Connection;
let workers: Worker[] = [];
let running: Promise<unknown>;
let reactor: { stop: () => Promise<void> };

beforeAll(async () => {
  await world.app.listen({ host: '127.0.0.1', port: 0 });
  const { config, services } = world;
  nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
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
  reactor = startSyncRequestReactor({
    writeSide: services.writeSide,
    db: services.db,
    client,
    config,
    logger: pino({ level: 'silent' }),
  });
});

afterAll(async () => {
  await reactor?.stop();
  for (const worker of workers) worker.shutdown();
  await running;
  await connection?.close();
  await nativeConnection?.close();
});

describe('connecting a DEMO seller', () => {
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
    live.close();

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
});
