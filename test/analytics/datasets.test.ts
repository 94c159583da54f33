import { parseString } from '@fast-csv/parse';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import pino from 'pino';
import {
  AimlRow,
  DatasetFile,
  DatasetJobResult,
  ForecastDsoRow,
  SellerDatasetsResponse,
} from '../../contracts/api/analytics-datasets';
import { Job, JobsResponse, type DatasetContentType, type DatasetType } from '../../contracts/api/jobs';
import { SellerAnalyticsRow } from '../../contracts/kafka/analytics';
import { ledgerEntities } from '../../workflows/ledger/ledger-collections';
import { applyFacts, factIdOf, type FactDoc } from '../../projections/analytics/analytics-store';
import { recomputeSeller } from '../../workflows/analytics/analytics-recompute';
import { factFieldsOf } from '../../workflows/analytics/ledger-facts-consumer';
import { startDatasetJobReactor } from '../../workflows/analytics/datasets/dataset-job-reactor';
import { createDatasetsWorker } from '../../workflows/analytics/datasets/dataset-worker';
import {
  CUSTOMER_FORECAST_VALIDATIONS,
  FORECAST_VALIDATIONS,
  SELLER_FORECASTS,
  recordSellerValidation,
  storeSellerForecast,
  type SellerForecastDoc,
} from '../../workflows/forecast/forecast-store';
import { createReportObjectStore } from '../../workflows/reports/archive/report-object-store';
import { defaultDatasetRange } from '../../gateway/use-cases/jobs/request-datasets';
import { sellerOf } from '../gateway/admin-fixtures';
import { companyFor, platformAdmin, signUp } from '../gateway/fixtures';
import { useGatewayWorld, type Browser } from '../gateway/gateway-world';
import { generatedCompany } from '../workflows/ledger-world';
import { expectedSellerRows } from './expected-analytics';

/**
 * Issue 19: the seven data sets as Temporal jobs (POST /api/datasets, the reactor, the datasets
 * worker on the real local server), stored in the object store (s3rver) and answered by
 * GET /api/sellers/{id}/datasets/{dataset} and its download; each file's content checked against
 * the ledger it was built from or the forecasts stored for it, csv through a standard CSV reader.
 */
jest.setTimeout(300_000);

const world = useGatewayWorld(__filename);
let nativeConnection: NativeConnection;
let connection: Connection;
let worker: Worker;
let running: Promise<unknown>;
let reactor: { stop: () => Promise<void> };
let admin: Browser;
let sellerId: number;
let otherSellerId: number;
const objects = createReportObjectStore(world.config);
const company = generatedCompany(
  { seed: 21, startDate: '2022-03-01', invoicesPerYear: 500 },
  { sellerId: 0, until: new Date('2024-05-31T12:00:00.000Z') },
);
const range = { startDate: '2023-01-01', endDate: '2024-03-31' };
const day = (date: Date) => date.toISOString().slice(0, 10);
const asOf = new Date('2024-01-08T00:00:00.000Z');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The generated company as the consumers would have stored it for `id`. */
const storeFacts = async (id: number) => {
  const facts: FactDoc[] = [];
  let offset = 0;
  for (const entity of ledgerEntities)
    for (const record of company[entity]) {
      const json = JSON.parse(JSON.stringify({ ...record, sellerId: id })) as Record<string, never>;
      facts.push({
        _id: factIdOf(entity, id, record.providerId),
        sellerId: id,
        epoch: 1,
        offset: (offset += 1),
        ...factFieldsOf(entity, json),
      });
    }
  await applyFacts(world.services.db, facts);
  await recomputeSeller(world.services.db, id, new Date());
};

const collectionsForecast = (id: number): Omit<SellerForecastDoc, '_id' | 'validatedSteps'> => ({
  sellerId: id,
  kind: 'collections',
  issuedAt: new Date('2024-01-08T06:00:00.000Z'),
  asOf,
  method: 'censored-hazard',
  history: [],
  points: [0, 1, 2].map((step) => ({
    startDate: new Date(asOf.getTime() + step * 7 * 86_400_000),
    mean: 1000 * (step + 1),
    lower80: 500,
    upper80: 2000 * (step + 1),
    lower95: 100,
    upper95: 3000 * (step + 1),
  })),
  scale: 400,
  baseline: [900, 1800, 2900],
  openInvoices: 12,
  openBalance: 54_321,
  beyondHorizon: 0,
});

const storeForecasts = async (id: number) => {
  const { db } = world.services;
  await storeSellerForecast(db, collectionsForecast(id));
  const stored = await db.collection<SellerForecastDoc>(SELLER_FORECASTS).findOne({ sellerId: id });
  // Two of three weeks known: actuals 1100 and 1500.
  await recordSellerValidation(db, stored!, (step) => [1100, 1500][step] ?? null);
  await db.collection(CUSTOMER_FORECAST_VALIDATIONS).insertOne({
    _id: `${id}:7:${asOf.toISOString()}` as never,
    sellerId: id,
    customerId: 7,
    issuedAt: new Date('2024-01-08T06:00:00.000Z'),
    asOf,
    steps: [
      { horizonStep: 1, startDate: asOf, forecast: 300, actual: 250, absError: 50, baselineAbsError: 80 },
      {
        horizonStep: 2,
        startDate: new Date(asOf.getTime() + 7 * 86_400_000),
        forecast: 200,
        actual: 260,
        absError: 60,
        baselineAbsError: 10,
      },
    ],
  });
};

beforeAll(async () => {
  const { config, services } = world;
  nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  worker = await createDatasetsWorker({
    connection: nativeConnection,
    config,
    deps: { db: services.db, writeSide: services.writeSide, objects, now: () => new Date() },
  });
  running = worker.run();
  reactor = startDatasetJobReactor({
    writeSide: services.writeSide,
    db: services.db,
    client,
    config,
    logger: pino({ level: 'silent' }),
  });
  admin = (await platformAdmin(world)).browser;
  const owner = await signUp(world, { name: 'datasets' });
  const tenantId = await companyFor(world, owner, { name: 'Datasets Co' });
  sellerId = await sellerOf(world, tenantId, { companyName: 'Datasets Books' });
  otherSellerId = await sellerOf(world, tenantId, { companyName: 'Datasets Books Two' });
  await world.settle();
  await storeFacts(sellerId);
  await storeFacts(otherSellerId);
  await storeForecasts(sellerId);
});

afterAll(async () => {
  await reactor?.stop();
  worker?.shutdown();
  await running;
  objects.close();
  await connection?.close();
  await nativeConnection?.close();
});

const requestDatasets = async (body: object): Promise<Job[]> => {
  const response = await admin.post('/api/datasets', body);
  expect(response.statusCode).toBe(200);
  return JobsResponse.parse(response.json()).jobs;
};

const finished = async (job: Job): Promise<Job> => {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    await world.settle();
    const current = Job.parse((await admin.get(`/api/jobs/${job.Id}`)).json());
    if (current.Status !== 'created' && current.Status !== 'running') return current;
    await sleep(200);
  }
  throw new Error(`data-set job ${job.Id} never finished`);
};

/** Generates one data set of the seller and answers its file's text, through the JSON route. */
const generated = async (dataset: DatasetType, contentType: DatasetContentType, id = sellerId) => {
  const [job] = await requestDatasets({ dataset, contentType, ...range, sellerIds: [id] });
  const done = await finished(job!);
  expect(done.Status).toBe('completed');
  expect(done.Progress).toMatchObject({ stage: 'stored', done: 3, total: 3 });
  const result = DatasetJobResult.parse(done.Result);
  const response = await admin.get(`/api/sellers/${id}/datasets/${dataset}`);
  expect(response.statusCode).toBe(200);
  const file = DatasetFile.parse(response.json());
  expect(file.fileName).toBe(result.fileName);
  expect(file.contentType).toBe(result.mimeType);
  return { text: Buffer.from(file.data, 'base64').toString('utf8'), result };
};

const parseCsv = (text: string, headers: boolean): Promise<Record<string, string>[] | string[][]> =>
  new Promise((resolve, reject) => {
    const rows: (Record<string, string> | string[])[] = [];
    parseString(text, { headers, strictColumnHandling: true })
      .on('error', reject)
      .on('data', (row: Record<string, string> | string[]) => rows.push(row))
      .on('end', () => resolve(rows as Record<string, string>[] | string[][]));
  });

/** The invoices and payments of the generated ledger, per day of the range. */
const ledgerByDay = () => {
  const invoiced = new Map<string, number>();
  const collected = new Map<string, number>();
  for (const invoice of company.invoices)
    invoiced.set(
      day(invoice.transactionDate),
      (invoiced.get(day(invoice.transactionDate)) ?? 0) + invoice.amount,
    );
  for (const payment of company.payments)
    collected.set(day(payment.date), (collected.get(day(payment.date)) ?? 0) + payment.amount);
  return { invoiced, collected };
};

describe('the data sets', () => {
  it('ar_forecast_aiml as json: every day of the range with what the ledger invoiced and collected', async () => {
    const { text, result } = await generated('ar_forecast_aiml', 'json');
    const rows = AimlRow.array().parse(JSON.parse(text));
    const { invoiced, collected } = ledgerByDay();
    expect(rows).toHaveLength(456); // 2023-01-01 to 2024-03-31
    expect(result.rows).toBe(456);
    for (const row of rows) {
      expect(row.sellerId).toBe(sellerId);
      expect(row.invoiced).toBe(invoiced.get(row.date) ?? 0);
      expect(row.collected).toBe(collected.get(row.date) ?? 0);
    }
    expect(rows.reduce((sum, row) => sum + row.invoiced, 0)).toBeGreaterThan(0);
  });

  it('ar_forecast_aiml as awsForecast: item_id,timestamp,target_value without a header, read by a CSV reader', async () => {
    const { text, result } = await generated('ar_forecast_aiml', 'awsForecast');
    expect(result.fileName).toMatch(/-aws-forecast\.csv$/);
    const rows = (await parseCsv(text, false)) as string[][];
    const { collected } = ledgerByDay();
    expect(rows).toHaveLength(456);
    expect(rows[0]).toEqual([
      `seller-${sellerId}`,
      '2023-01-01',
      ((collected.get('2023-01-01') ?? 0) / 100).toFixed(2),
    ]);
    for (const [item, timestamp, target] of rows) {
      expect(item).toBe(`seller-${sellerId}`);
      expect(Number(target)).toBeCloseTo((collected.get(timestamp!) ?? 0) / 100, 2);
    }
  });

  it('seller_analytics_weekly as csv and seller_analytics_monthly as json: the ledger figures of the periods in the range', async () => {
    const ledger = {
      invoices: company.invoices,
      payments: company.payments,
      creditMemos: company.creditMemos,
    };
    const inRange = (row: SellerAnalyticsRow) =>
      row.startDate >= range.startDate && row.startDate <= range.endDate;
    const weekly = await generated('seller_analytics_weekly', 'csv');
    const csvRows = (await parseCsv(weekly.text, true)) as Record<string, string>[];
    const expectedWeeks = expectedSellerRows(sellerId, ledger, 'WEEKLY').filter(inRange);
    expect(csvRows).toHaveLength(expectedWeeks.length);
    expect(csvRows.map((row) => ({ ...row }))).toEqual(
      expectedWeeks.map((row) =>
        Object.fromEntries(
          Object.entries(row).map(([key, value]) => [key, value === null ? '' : String(value)]),
        ),
      ),
    );
    const monthly = await generated('seller_analytics_monthly', 'json');
    expect(SellerAnalyticsRow.array().parse(JSON.parse(monthly.text))).toEqual(
      expectedSellerRows(sellerId, ledger, 'MONTHLY').filter(inRange),
    );
  });

  it('the forecast data sets: the stored collections forecast, its validation, its customers and its summary', async () => {
    const forecast = collectionsForecast(sellerId);
    const dso = ForecastDsoRow.array().parse(JSON.parse((await generated('ar_forecast_dso', 'json')).text));
    expect(dso.map((row) => [row.horizonStep, row.mean, row.baseline, row.openBalance])).toEqual(
      forecast.points.map((point, index) => [index + 1, point.mean, forecast.baseline![index], 54_321]),
    );
    const validations = (await parseCsv(
      (await generated('ar_forecast_validations', 'csv')).text,
      true,
    )) as Record<string, string>[];
    expect(validations.map((row) => [row.horizonStep, row.forecast, row.actual, row.absError])).toEqual([
      ['1', '1000', '1100', '100'],
      ['2', '2000', '1500', '500'],
    ]);
    const customers = JSON.parse((await generated('ar_customer_forecast_validations', 'json')).text) as {
      customerId: number;
      absError: number;
    }[];
    expect(customers.map((row) => [row.customerId, row.absError])).toEqual([
      [7, 50],
      [7, 60],
    ]);
    const summary = JSON.parse((await generated('ar_forecast_summary', 'json')).text) as Record<
      string,
      unknown
    >[];
    // MAE (100 + 500) / 2 = 300, over the scale 400; the baseline's (900 and 1800 against them) (200 + 300) / 2 = 250.
    expect(summary).toEqual([
      expect.objectContaining({
        kind: 'collections',
        steps: 3,
        forecastTotal: 6000,
        validatedSteps: 2,
        mae: 300,
        mase: 0.75,
        baselineMae: 250,
      }),
    ]);
    expect(await world.services.db.collection(FORECAST_VALIDATIONS).countDocuments({ sellerId })).toBe(2);
  });

  it('many sellers at once with the default range and json; the download streams the same file; the list shows it', async () => {
    const jobs = await requestDatasets({
      dataset: 'seller_analytics_monthly',
      sellerIds: [sellerId, otherSellerId],
    });
    expect(jobs.map((job) => job.SellerId).sort()).toEqual([sellerId, otherSellerId].sort());
    const defaults = defaultDatasetRange(new Date());
    for (const job of jobs) {
      expect(job.Parameters).toMatchObject({ contentType: 'json', ...defaults });
      expect((await finished(job)).Status).toBe('completed');
    }
    const content = DatasetFile.parse(
      (await admin.get(`/api/sellers/${otherSellerId}/datasets/seller_analytics_monthly`)).json(),
    );
    const download = await admin.get(
      `/api/sellers/${otherSellerId}/datasets/seller_analytics_monthly/download`,
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain(content.fileName);
    expect(download.body).toBe(Buffer.from(content.data, 'base64').toString('utf8'));
    const list = SellerDatasetsResponse.parse(
      (await admin.get(`/api/sellers/${otherSellerId}/datasets`)).json(),
    );
    expect(list.files[0]).toMatchObject({ dataset: 'seller_analytics_monthly', fileName: content.fileName });
  });

  it('a seller with no generated file of a data set answers 404 saying so', async () => {
    const response = await admin.get(`/api/sellers/${otherSellerId}/datasets/ar_forecast_summary`);
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain(
      'No ar_forecast_summary data set has been generated for this seller yet.',
    );
  });
});
