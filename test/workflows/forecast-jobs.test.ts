import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import pino from 'pino';
import { CustomerForecastResponse, SellerForecastsResponse } from '../../contracts/api/forecasts';
import { Job, JobsResponse } from '../../contracts/api/jobs';
import { SellerResponse, SellersResponse } from '../../contracts/api/sellers';
import { sellerStream } from '../../contracts/stream-ids';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { startForecastAfterMetricsReactor } from '../../workflows/forecast/forecast-after-metrics-reactor';
import { CUSTOMER_FORECASTS, FORECAST_VALIDATIONS } from '../../workflows/forecast/forecast-store';
import { startMetricsJobReactor } from '../../workflows/metrics/metrics-job-reactor';
import { createMetricsWorker } from '../../workflows/metrics/worker';
import { connectorsFor } from '../../workflows/sync/connectors';
import { startSyncRequestReactor } from '../../workflows/sync/sync-request-reactor';
import { createSyncWorker } from '../../workflows/sync/worker';
import { companyFor, platformAdmin, signUp } from '../gateway/fixtures';
import { useGatewayWorld, type Browser } from '../gateway/gateway-world';

/**
 * Issue 15: the forecast jobs of the admin sellers table (F S `forecasts`, F C `forecastByCustomer`,
 * `historical`) run as Temporal workflows on the real local server, through the gateway and the
 * worker's reactors, only for sellers whose forecasting flag is on; a forecast follows every
 * metrics run; the forecast routes answer what they stored, validation included.
 */
jest.setTimeout(300_000);

const world = useGatewayWorld(__filename);
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;
let workers: Worker[] = [];
let running: Promise<unknown>;
let reactors: { stop: () => Promise<void> }[] = [];
let admin: Browser;

beforeAll(async () => {
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
  const reactorDeps = {
    writeSide: services.writeSide,
    db: services.db,
    client,
    config,
    logger: pino({ level: 'silent' }),
  };
  reactors = [
    startSyncRequestReactor(reactorDeps),
    startMetricsJobReactor(reactorDeps),
    startForecastAfterMetricsReactor(reactorDeps),
  ];
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

const syncedDemoSeller = async (name: string) => {
  const owner = await signUp(world, { name });
  await companyFor(world, owner, { name: `${name} Co` });
  const connected = await owner.browser.post('/api/sellers', { provider: 'DEMO' });
  expect(connected.statusCode).toBe(200);
  const sellerId = SellerResponse.parse(connected.json()).Id;
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const rows = SellersResponse.parse((await owner.browser.get('/api/sellers')).json()).rows;
    if (rows.find((s) => s.Id === sellerId)?.Progress === 'completed') return { owner, sellerId };
    await sleep(250);
  }
  throw new Error(`seller ${sellerId} did not complete its populate`);
};

const setForecasting = (sellerId: number, enabled: boolean) =>
  world.run(sellerDecider, sellerStream(sellerId), {
    type: 'SetSellerForecasting',
    now: world.clock.now(),
    data: { enabled },
  });

const runJob = async (jobType: string, body: { id: number; onlyMissing?: boolean }): Promise<Job> => {
  const response = await admin.post(`/api/metrics/sellers?jobType=${jobType}`, body);
  expect(response.statusCode).toBe(200);
  const [job] = JobsResponse.parse(response.json()).jobs;
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    await world.settle();
    const current = Job.parse((await admin.get(`/api/jobs/${job!.Id}`)).json());
    if (current.Status !== 'created' && current.Status !== 'running') return current;
    await sleep(250);
  }
  throw new Error(`the ${jobType} job never finished`);
};

const forecastsOf = async (browser: Browser, sellerId: number) => {
  const response = await browser.get(`/api/forecasts/sellers/${sellerId}`);
  expect(response.statusCode).toBe(200);
  return SellerForecastsResponse.parse(response.json());
};

describe('the forecast jobs', () => {
  let seller: Awaited<ReturnType<typeof syncedDemoSeller>>;
  beforeAll(async () => {
    seller = await syncedDemoSeller('Forecaster');
  });

  it('issue nothing while the seller has forecasting off, and say so', async () => {
    const job = await runJob('forecasts', { id: seller.sellerId });
    expect(job.Status).toBe('completed');
    expect(job.Result).toMatchObject({ skipped: 'Forecasting is off for this seller.', issued: 0 });
    const forecasts = await forecastsOf(seller.owner.browser, seller.sellerId);
    expect(forecasts).toMatchObject({
      enabled: false,
      collections: null,
      revenue: { weekly: null, monthly: null },
    });
  });

  it('F S issues revenue forecasts weekly and monthly and the collections forecast, with progress', async () => {
    await setForecasting(seller.sellerId, true);
    const job = await runJob('forecasts', { id: seller.sellerId });
    expect(job.Status).toBe('completed');
    expect(job.Progress?.stage).toBe('forecasts');
    expect(job.Result).toMatchObject({ skipped: null, issued: 3 });
    const forecasts = await forecastsOf(seller.owner.browser, seller.sellerId);
    expect(forecasts.enabled).toBe(true);
    expect(forecasts.revenue.weekly?.points).toHaveLength(13);
    expect(forecasts.revenue.monthly?.points).toHaveLength(12);
    expect(forecasts.revenue.weekly?.history.length).toBeGreaterThan(52);
    const collections = forecasts.collections!;
    expect(collections.weeks).toHaveLength(13);
    expect(collections.openInvoices).toBeGreaterThan(0);
    // Every open cent is expected within the horizon or beyond it.
    const expected = collections.weeks.reduce((sum, week) => sum + week.mean, 0) + collections.beyondHorizon;
    expect(expected).toBeCloseTo(collections.openBalance, -2);
  });

  it('F C issues each customer its weekly cash-in and its open invoices pay dates', async () => {
    const job = await runJob('forecastByCustomer', { id: seller.sellerId });
    expect(job.Status).toBe('completed');
    const stored = await world.services.db
      .collection<{ customerId: number; invoices: unknown[] }>(CUSTOMER_FORECASTS)
      .findOne({ sellerId: seller.sellerId });
    expect(stored).not.toBeNull();
    const response = await seller.owner.browser.get(
      `/api/forecasts/sellers/${seller.sellerId}/customers/${stored!.customerId}`,
    );
    expect(response.statusCode).toBe(200);
    const customer = CustomerForecastResponse.parse(response.json());
    expect(customer.weeks).toHaveLength(13);
    expect(customer.invoices.length).toBeGreaterThan(0);
    for (const invoice of customer.invoices) {
      expect(invoice.payDateLower80 <= invoice.payDateUpper80).toBe(true);
      expect(invoice.payDateLower95 <= invoice.payDateLower80).toBe(true);
      expect(invoice.payDateUpper80 <= invoice.payDateUpper95).toBe(true);
    }
  });

  it('historical forecasts past dates and validates them at once; onlyMissing skips them again', async () => {
    const job = await runJob('historical', { id: seller.sellerId });
    expect(job.Status).toBe('completed');
    const result = job.Result as { issued: number; validatedSteps: number; validatedCustomers: number };
    expect(result.issued).toBeGreaterThan(10);
    expect(result.validatedSteps).toBeGreaterThan(13);
    expect(result.validatedCustomers).toBeGreaterThan(0);
    const forecasts = await forecastsOf(admin, seller.sellerId);
    const kinds = forecasts.validation.summary.map((summary) => summary.kind).sort();
    expect(kinds).toEqual(['collections', 'revenueMonthly', 'revenueWeekly']);
    for (const row of forecasts.validation.recent)
      expect(row.absError).toBeCloseTo(Math.abs(row.forecast - row.actual), 6);
    const rows = await world.services.db
      .collection(FORECAST_VALIDATIONS)
      .countDocuments({ sellerId: seller.sellerId });

    const again = await runJob('historical', { id: seller.sellerId, onlyMissing: true });
    expect(again.Result).toMatchObject({ issued: 0, customerForecasts: 0 });
    expect((again.Result as { skippedAsOfs: number }).skippedAsOfs).toBeGreaterThan(0);
    expect(
      await world.services.db.collection(FORECAST_VALIDATIONS).countDocuments({ sellerId: seller.sellerId }),
    ).toBe(rows);
  });

  it('follows every metrics run with a forecast', async () => {
    const before = (await forecastsOf(admin, seller.sellerId)).collections!.issuedAt;
    const metrics = await runJob('sellers', { id: seller.sellerId });
    expect(metrics.Status).toBe('completed');
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const latest = (await forecastsOf(admin, seller.sellerId)).collections!.issuedAt;
      if (latest > before) return;
      await sleep(250);
    }
    throw new Error('no forecast followed the metrics run');
  });
});
