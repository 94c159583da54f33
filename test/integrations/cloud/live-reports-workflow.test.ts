import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import ExcelJS from 'exceljs';
import pino from 'pino';
import { ManagedReportsResponse } from '../../../contracts/api/reports';
import { SellerResponse, SellersResponse } from '../../../contracts/api/sellers';
import type { ManagedReportProvider } from '../../../contracts/events/job';
import { integrationStream, sellerStream } from '../../../contracts/stream-ids';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import { queryCollectionsForecast } from '../../../workflows/forecast/forecast-store';
import type { forecastJobWorkflow } from '../../../workflows/forecast/workflows';
import { weeklyForecastLayout } from '../../../workflows/reports/sheets/ar-forecast-sheet';
import { serialDateOf } from '../../../workflows/integrations/cloud/live-sheets';
import { taskQueues } from '../../../workflows/task-queues';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import { jobsCollection } from '../../../projections/jobs/query-jobs';
import type { JobDoc } from '../../../projections/jobs/jobs-projection';
import { createCredentialVault } from '../../../commands/credential-vault';
import { createCloudTokens } from '../../../workflows/integrations/cloud/cloud-tokens';
import {
  startLiveReportsJob,
  startLiveReportsReactor,
} from '../../../workflows/integrations/cloud/live-reports-reactor';
import { liveReportTypesAllowed } from '../../../workflows/integrations/cloud/live-reports-plan';
import { createLiveReportsWorker } from '../../../workflows/integrations/cloud/worker';
import { customerSheetLayout, loadCustomerSheetRows } from '../../../workflows/reports/sheets/customer-sheet';
import { readSheetContext } from '../../../workflows/reports/sheets/sheet-context';
import { createMetricsWorker } from '../../../workflows/metrics/worker';
import { startMetricsJobReactor } from '../../../workflows/metrics/metrics-job-reactor';
import { readState } from '../../../workflows/sync/system-commands';
import { connectorsFor } from '../../../workflows/sync/connectors';
import { startSyncRequestReactor } from '../../../workflows/sync/sync-request-reactor';
import { createSyncWorker } from '../../../workflows/sync/worker';
import { startGoogleSheetsFake, type GoogleSheetsFake } from '../../fakes/google-sheets-fake';
import { startMicrosoftGraphFake, type MicrosoftGraphFake } from '../../fakes/microsoft-graph-fake';
import { companyFor, signUp } from '../../gateway/fixtures';
import { useGatewayWorld, type Browser } from '../../gateway/gateway-world';
import { grantProducts } from '../../gateway/platform-fixtures';

/**
 * Live Reports end to end on the real local servers (docs/adr/0049-live-reports.md): a DEMO seller's
 * sync and metrics run by their workers; the live reports reactor starts one refresh per Google and
 * Microsoft integration of the tenant; the live reports worker writes the customer sheet to the local
 * Sheets and Graph fakes; GET /api/reports/managed lists them; a second refresh rewrites the same
 * files; a refused token marks the integration INVALID; a disconnect removes its rows.
 */
jest.setTimeout(300_000);

const world = useGatewayWorld(__filename);
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;
let workers: Worker[] = [];
let running: Promise<unknown>;
let reactors: { stop: () => Promise<void> }[] = [];
let google: GoogleSheetsFake;
let graph: MicrosoftGraphFake;
const systemActor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };

const reactorDeps = () => ({
  writeSide: world.services.writeSide,
  db: world.services.db,
  client,
  config: world.config,
  logger: pino({ level: 'silent' }),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  const { config, services } = world;
  [google, graph] = await Promise.all([startGoogleSheetsFake(), startMicrosoftGraphFake()]);
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
    await createLiveReportsWorker({
      connection: nativeConnection,
      config,
      deps: {
        ...deps,
        config: { ...config, ...google.configValues, ...graph.configValues },
        // The real token path: vault, discovery at the fakes' issuers, renewal, INVALID on refusal.
        tokensFor: createCloudTokens({
          db: services.db,
          writeSide: services.writeSide,
          config: { ...config, ...google.configValues, ...graph.configValues },
          now: () => new Date(),
        }),
        client,
      },
    }),
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
    startLiveReportsReactor(reactorDeps),
  ];
});

afterAll(async () => {
  for (const reactor of reactors) await reactor.stop();
  for (const worker of workers) worker.shutdown();
  await running;
  await connection?.close();
  await nativeConnection?.close();
  await Promise.all([google?.close(), graph?.close()]);
});

let nextIntegrationId = 975_000;

/** A Google or Microsoft account of the tenant, as its OAuth flow connects it, with tokens at its fake. */
const cloudAccountOf = async (tenantId: number, provider: ManagedReportProvider) => {
  const integrationId = (nextIntegrationId += 1);
  const fake = provider === 'GOOGLE' ? google : graph;
  const issued = fake.issueTokens();
  const credentialsRef = await createCredentialVault({
    db: world.services.db,
    masterSecret: world.config.SESSION_SECRET,
  }).store({
    tenantId,
    kind: 'oauth',
    secret: { accessToken: issued.accessToken, refreshToken: issued.refreshToken, expiresIn: '3600' },
  });
  await world.run(integrationDecider, integrationStream(integrationId), {
    type: 'ConnectIntegration',
    data: {
      integrationId,
      tenantId,
      provider,
      productIdentifier: null,
      authMethod: 'oauth2',
      credentialsRef,
      credentialsOwner: 'owner@example.test',
      url: null,
      actor: systemActor,
      tenantIsDemo: false,
      planAllowsProvider: true,
    },
    now: world.clock.now(),
  });
  await world.settle();
  return integrationId;
};

const liveJobsOf = async (sellerId: number): Promise<JobDoc[]> =>
  (await jobsCollection(world.services.db))
    .find({ sellerId, 'parameters.target': 'live-reports' })
    .sort({ _id: 1 })
    .toArray();

/** Waits until `count` live reports jobs of the seller have ended, and answers them. */
const endedJobs = async (sellerId: number, count: number) => {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    await world.settle();
    const jobs = await liveJobsOf(sellerId);
    const ended = jobs.filter((job) => ['completed', 'failed', 'cancelled'].includes(job.status));
    if (ended.length >= count) return ended;
    await sleep(250);
  }
  throw new Error(`the live reports jobs of seller ${sellerId} did not end`);
};

const managed = async (browser: Browser) => {
  const response = await browser.get('/api/reports/managed');
  expect(response.statusCode).toBe(200);
  return ManagedReportsResponse.parse(response.json()).rows;
};

const readXlsx = async (bytes: Buffer) => {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  book.getWorksheet('Customers')!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
};

describe('Live Reports after a sync', () => {
  let owner: Browser;
  let tenantId: number;
  let sellerId: number;
  let googleId: number;
  let microsoftId: number;

  beforeAll(async () => {
    const signedUp = await signUp(world, { name: 'liveowner' });
    owner = signedUp.browser;
    tenantId = await companyFor(world, signedUp, { name: 'Live Co' });
    await grantProducts(world, tenantId, ['cloud/sync', 'reports/customer_sheet']);
    googleId = await cloudAccountOf(tenantId, 'GOOGLE');
    microsoftId = await cloudAccountOf(tenantId, 'MICROSOFT');
    const connected = await owner.post('/api/sellers', { provider: 'DEMO' });
    expect(connected.statusCode).toBe(200);
    sellerId = SellerResponse.parse(connected.json()).Id;
    for (let attempt = 0; attempt < 1200; attempt += 1) {
      const rows = SellersResponse.parse((await owner.get('/api/sellers')).json()).rows;
      if (rows.find((s) => s.Id === sellerId)?.Progress === 'completed') return;
      await sleep(250);
    }
    throw new Error(`seller ${sellerId} did not complete its populate`);
  });

  it('writes the customer sheet to Google Sheets and OneDrive and lists both as live reports', async () => {
    const jobs = await endedJobs(sellerId, 2);
    expect(jobs.map((job) => [job.kind, job.type, job.status, job.failure, job.progress])).toEqual([
      [
        'sync',
        'live-reports',
        'completed',
        null,
        expect.objectContaining({ stage: 'writing live reports', done: 2, total: 2 }),
      ],
      [
        'sync',
        'live-reports',
        'completed',
        null,
        expect.objectContaining({ stage: 'writing live reports', done: 2, total: 2 }),
      ],
    ]);
    // No forecast yet (forecasting is off): only the customer sheet.
    expect(jobs[0]!.result).toEqual({
      written: [{ type: 'CUSTOMER_SHEET', storageUrl: expect.any(String) as string }],
      skipped: ['AR_FORECAST_SHEET'],
    });

    const context = await readSheetContext(world.services.db, sellerId);
    const { rows } = await loadCustomerSheetRows(world.services.db, context, new Date());
    expect(rows.length).toBeGreaterThan(10);
    const layout = customerSheetLayout(context);
    const headers = layout.columns.map((column) => column.header);
    const first = rows[0]!;

    const [spreadsheet] = [...google.spreadsheets.values()];
    expect(google.spreadsheets.size).toBe(1);
    const displayName = `${context.sellerName} - Customer Sheet`;
    expect(spreadsheet!.title).toBe(displayName);
    const cells = google.valuesOf(spreadsheet!.spreadsheetId, 'Customers');
    expect(cells[0]).toEqual(headers);
    expect(cells).toHaveLength(rows.length + 1);
    expect(cells[1]!.slice(0, 3)).toEqual([first.customerId, first.name, first.openBalance / 100]);

    const [item] = [...graph.items.values()];
    expect(item!.path).toBe(`Ledgerwise/${displayName} (company ${sellerId}).xlsx`);
    const workbook = await readXlsx(item!.bytes);
    expect(workbook[0]).toEqual(headers);
    expect(workbook).toHaveLength(rows.length + 1);
    expect(workbook[1]!.slice(0, 3)).toEqual([first.customerId, first.name, first.openBalance / 100]);

    const listed = await managed(owner);
    expect(
      listed.map((row) => [row.Type, row.Provider, row.StorageUrl, row.DisplayName, row.Seller]),
    ).toEqual(
      expect.arrayContaining([
        [
          'CUSTOMER_SHEET',
          'GOOGLE',
          `https://docs.google.com/spreadsheets/d/${spreadsheet!.spreadsheetId}`,
          displayName,
          { CompanyName: expect.any(String) as string },
        ],
        [
          'CUSTOMER_SHEET',
          'MICROSOFT',
          `https://fake-my.sharepoint.com/personal/user/Documents/Ledgerwise/${encodeURIComponent(`${displayName} (company ${sellerId})`)}.xlsx`,
          displayName,
          { CompanyName: expect.any(String) as string },
        ],
      ]),
    );
    expect(listed).toHaveLength(2);
    // Another company sees none of them.
    const stranger = await signUp(world, { name: 'liveother' });
    await companyFor(world, stranger, { name: 'Other Co' });
    expect(await managed(stranger.browser)).toEqual([]);
  });

  it('rewrites the same files on the next refresh, renewing expired tokens on the way', async () => {
    const before = await managed(owner);
    google.expireAccessTokens();
    graph.expireAccessTokens();
    for (const [integrationId, provider] of [
      [googleId, 'GOOGLE'],
      [microsoftId, 'MICROSOFT'],
    ] as const)
      await startLiveReportsJob(reactorDeps(), {
        requestId: `test-refresh-${integrationId}`,
        run: {
          tenantId,
          sellerId,
          integrationId,
          provider,
          types: ['CUSTOMER_SHEET'],
          forecastWorkflowId: null,
        },
        now: new Date(),
      });
    const jobs = await endedJobs(sellerId, 4);
    expect(jobs.map((job) => job.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(google.created()).toBe(1);
    expect(graph.items.size).toBe(1);
    expect([...graph.items.values()][0]!.versions).toBe(2);
    expect([google.refreshes(), graph.refreshes()]).toEqual([1, 1]);
    for (const integrationId of [googleId, microsoftId]) {
      const events = await world.services.writeSide.store.readStream(integrationStream(integrationId));
      expect(events.map((event) => event.type)).toContain('IntegrationCredentialsRenewed');
    }
    const after = await managed(owner);
    expect(after.map((row) => row.StorageUrl).sort()).toEqual(before.map((row) => row.StorageUrl).sort());
    for (const row of after)
      expect(Date.parse(row.updatedAt)).toBeGreaterThan(
        Date.parse(before.find((b) => b.Provider === row.Provider)!.updatedAt),
      );
  });

  it('writes the AR forecast sheet once the seller has a forecast, after waiting for it', async () => {
    await world.run(sellerDecider, sellerStream(sellerId), {
      type: 'SetSellerForecasting',
      now: world.clock.now(),
      data: { enabled: true },
    });
    const forecastWorkflowId = `${world.config.TEMPORAL_TASK_QUEUE_PREFIX}-test-forecast-${sellerId}`;
    // The forecast after metrics, started as its reactor starts it; the refresh waits for it.
    await client.workflow.start<typeof forecastJobWorkflow>('forecastJobWorkflow', {
      taskQueue: taskQueues(world.config).metrics,
      workflowId: forecastWorkflowId,
      args: [{ sellerId, tenantId, jobId: null, jobType: 'afterMetrics', onlyMissing: false }],
    });
    for (const [integrationId, provider] of [
      [googleId, 'GOOGLE'],
      [microsoftId, 'MICROSOFT'],
    ] as const)
      await startLiveReportsJob(reactorDeps(), {
        requestId: `test-forecast-${integrationId}`,
        run: {
          tenantId,
          sellerId,
          integrationId,
          provider,
          types: ['CUSTOMER_SHEET', 'AR_FORECAST_SHEET'],
          forecastWorkflowId,
        },
        now: new Date(),
      });
    const jobs = await endedJobs(sellerId, 6);
    expect(jobs.slice(4).map((job) => [job.status, job.failure])).toEqual([
      ['completed', null],
      ['completed', null],
    ]);
    const forecast = await queryCollectionsForecast(world.services.db, sellerId);
    expect(forecast).not.toBeNull();
    const weeks = forecast!.weeks;

    const spreadsheet = [...google.spreadsheets.values()].find((book) =>
      book.title.endsWith('- AR Forecast'),
    )!;
    const weekly = google.valuesOf(spreadsheet.spreadsheetId, 'Weekly');
    expect(weekly[0]).toEqual(weeklyForecastLayout().columns.map((column) => column.header));
    expect(weekly).toHaveLength(weeks.length + 1);
    expect(weekly[1]!.slice(0, 2)).toEqual([
      serialDateOf(new Date(weeks[0]!.StartDate)),
      Math.round(weeks[0]!.mean) / 100,
    ]);
    expect(google.valuesOf(spreadsheet.spreadsheetId, 'Monthly').length).toBeGreaterThan(1);

    const item = [...graph.items.values()].find((file) => file.path.includes('- AR Forecast ('))!;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(item.bytes as unknown as ArrayBuffer);
    expect(book.worksheets.map((sheet) => sheet.name).slice(0, 2)).toEqual(['Weekly', 'Monthly']);
    expect(book.getWorksheet('Weekly')!.rowCount).toBe(weeks.length + 1);

    const listed = await managed(owner);
    expect(listed.map((row) => `${row.Provider} ${row.Type}`).sort()).toEqual([
      'GOOGLE AR_FORECAST_SHEET',
      'GOOGLE CUSTOMER_SHEET',
      'MICROSOFT AR_FORECAST_SHEET',
      'MICROSOFT CUSTOMER_SHEET',
    ]);
  });

  it('marks the integration INVALID and asks to reconnect when Google refuses the token', async () => {
    google.expireAccessTokens();
    google.refuseRefresh();
    await startLiveReportsJob(reactorDeps(), {
      requestId: `test-refused-${googleId}`,
      run: {
        tenantId,
        sellerId,
        integrationId: googleId,
        provider: 'GOOGLE',
        types: ['CUSTOMER_SHEET'],
        forecastWorkflowId: null,
      },
      now: new Date(),
    });
    const jobs = await endedJobs(sellerId, 7);
    expect(jobs.at(-1)).toMatchObject({
      status: 'failed',
      failure: expect.stringMatching(/Reconnect Google on the Platforms page/) as string,
    });
    const account = await readState(
      world.services.writeSide,
      integrationDecider,
      integrationStream(googleId),
    );
    expect(account).toMatchObject({ credentialsStatus: 'INVALID' });
    // The file stays listed, as last written.
    expect((await managed(owner)).map((row) => row.Provider).sort()).toEqual([
      'GOOGLE',
      'GOOGLE',
      'MICROSOFT',
      'MICROSOFT',
    ]);
  });

  it("removes an integration's live reports when it is disconnected", async () => {
    await world.run(integrationDecider, integrationStream(microsoftId), {
      type: 'DisconnectIntegration',
      data: {},
      now: world.clock.now(),
    });
    await world.settle();
    expect((await managed(owner)).map((row) => row.Provider)).toEqual(['GOOGLE', 'GOOGLE']);
  });
});

/** A synced DEMO seller of a new company, and the position of its MetricsDate event. */
const syncedSellerOf = async (browser: Browser) => {
  const connected = await browser.post('/api/sellers', { provider: 'DEMO' });
  expect(connected.statusCode).toBe(200);
  const sellerId = SellerResponse.parse(connected.json()).Id;
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    const events = await world.services.writeSide.store.readStream(sellerStream(sellerId));
    const metrics = events.find((event) => event.type === 'SellerMetricsDateRecorded');
    if (metrics) {
      await world.settle();
      return { sellerId, position: metrics.position };
    }
    await sleep(250);
  }
  throw new Error(`seller ${sellerId} never recorded its metrics`);
};

/** Waits until the live reports reactor has handled the event at `position`. */
const reactorPassed = async (position: number) => {
  const checkpoints = world.services.db.collection<{ _id: string; position: number }>('reactor_checkpoints');
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const saved = await checkpoints.findOne({ _id: 'live-reports-after-metrics' });
    if (saved && saved.position >= position) return;
    await sleep(100);
  }
  throw new Error('the live reports reactor did not reach the event');
};

describe('a newly connected account', () => {
  it('writes the live reports of the sellers synced before it, without waiting for a sync', async () => {
    const signedUp = await signUp(world, { name: 'lateowner' });
    const tenant = await companyFor(world, signedUp, { name: 'Late Co' });
    await grantProducts(world, tenant, ['cloud/sync', 'reports/customer_sheet']);
    const { sellerId } = await syncedSellerOf(signedUp.browser);
    const before = graph.items.size;
    await cloudAccountOf(tenant, 'MICROSOFT');
    const [job] = await endedJobs(sellerId, 1);
    expect([job!.status, job!.failure]).toEqual(['completed', null]);
    expect(graph.items.size).toBe(before + 1);
    expect((await managed(signedUp.browser)).map((row) => `${row.Provider} ${row.Type}`)).toEqual([
      'MICROSOFT CUSTOMER_SHEET',
    ]);
  });
});

describe('the plan gate of Live Reports', () => {
  it('starts no refresh without sync-to-cloud, nor for a WORKSPACE account', async () => {
    const noPlanOwner = await signUp(world, { name: 'noplanowner' });
    const noPlan = await companyFor(world, noPlanOwner, { name: 'No Cloud Co' });
    await cloudAccountOf(noPlan, 'GOOGLE');
    const unplanned = await syncedSellerOf(noPlanOwner.browser);

    const workspaceOwner = await signUp(world, { name: 'workspaceowner' });
    const workspace = await companyFor(world, workspaceOwner, { name: 'Workspace Co' });
    await grantProducts(world, workspace, ['cloud/sync', 'reports/customer_sheet']);
    await world.run(integrationDecider, integrationStream((nextIntegrationId += 1)), {
      type: 'ConnectIntegration',
      data: {
        integrationId: nextIntegrationId,
        tenantId: workspace,
        provider: 'WORKSPACE',
        productIdentifier: null,
        authMethod: 'oauth2',
        credentialsRef: `workspace-link-${workspace}`,
        credentialsOwner: null,
        url: null,
        actor: systemActor,
        tenantIsDemo: false,
        planAllowsProvider: true,
      },
      now: world.clock.now(),
    });
    const workspaceSeller = await syncedSellerOf(workspaceOwner.browser);

    await reactorPassed(Math.max(unplanned.position, workspaceSeller.position));
    await world.settle();
    expect(await liveJobsOf(unplanned.sellerId)).toEqual([]);
    expect(await liveJobsOf(workspaceSeller.sellerId)).toEqual([]);
    expect(await managed(noPlanOwner.browser)).toEqual([]);
  });

  it('needs sync-to-cloud, and the customer-sheet feature too for the customer sheet', async () => {
    const now = new Date();
    const owner = await signUp(world, { name: 'planowner' });
    const none = await companyFor(world, owner, { name: 'No Plan Co' });
    expect(await liveReportTypesAllowed(world.services.db, { tenantId: none, now })).toEqual([]);
    const cloudOnly = await companyFor(world, owner, { name: 'Cloud Co' });
    await grantProducts(world, cloudOnly, ['cloud/sync']);
    expect(await liveReportTypesAllowed(world.services.db, { tenantId: cloudOnly, now })).toEqual(
      expect.arrayContaining(['AR_FORECAST_SHEET']),
    );
  });
});
