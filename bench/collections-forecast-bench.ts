/**
 * Collections forecast benchmarks (issue 15), called by the forecast-accuracy and forecast-speed suites:
 * (a) weekly cash-in error of the forecast beside the average-days-to-pay baseline on rolling origins
 * of DEMO sellers, and (b) seconds and peak memory of a seller's forecast beside one plain scan of the
 * same invoices and payments in the read store.
 */
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Db } from 'mongodb';
import type { DemoProfile } from '../workflows/demo/demo-profile';
import { fetchDemoPage } from '../workflows/demo/demo-connector';
import {
  createCollectionsForecaster,
  dateOfDay,
  dayOf,
  defaultCollectionsOptions,
  type CollectionsOptions,
  type CustomerLedger,
} from '../workflows/forecast/collections-forecast';
import { groupCustomerLedgers } from '../workflows/forecast/collections-ledger';
import { forecastSellerCollections } from '../workflows/forecast/collections-source';
import { ensureLedgerIndexes, ledgerCollections } from '../workflows/ledger/ledger-collections';
import { writeLedgerPage } from '../workflows/ledger/write-ledger-page';
import { openReadStore } from '../projections/read-store/open-read-store';
import { benchConfig } from './bench-config';
import type { Figure } from './harness';
import { measurePeakRss } from './sync-bench-seller';

/** Every customer's ledger of a DEMO company up to `until`, as a sync would store it. */
export const demoCustomerLedgers = (profile: DemoProfile, until: Date): CustomerLedger[] => {
  const ledgers: CustomerLedger[] = [];
  let cursor: string | null = null;
  do {
    const { page, nextCursor } = fetchDemoPage(profile, {
      sellerId: 1,
      since: null,
      until,
      cursor,
      pageSize: 1,
    });
    ledgers.push(
      ...groupCustomerLedgers({
        invoices: page.invoices,
        payments: page.payments,
        credits: page.creditMemos,
      }),
    );
    cursor = nextCursor;
  } while (cursor !== null);
  return ledgers;
};

export type CollectionsAccuracy = {
  sellers: number;
  origins: number;
  /** Mean absolute weekly cash-in error of the seller totals, in cents. */
  forecastMae: number;
  baselineMae: number;
  /** forecastMae / baselineMae: the target is at most 0.85. */
  ratio: number;
  /** A kinder baseline that drops the invoices whose baseline date has passed, and the ratio to it. */
  futureOnlyBaselineMae: number;
  futureOnlyRatio: number;
  /** Share of actual weekly cash-in inside the 80 and 95 percent bands. */
  coverage80: number;
  coverage95: number;
  perSeller: { seed: number; forecastMae: number; baselineMae: number }[];
};

/**
 * Rolling-origin backtest: for each DEMO seller, forecasts issued every four weeks over the year
 * before `until` less the horizon, each scored against the cash its open invoices actually brought in.
 */
export const measureCollectionsAccuracy = (
  options: {
    seeds?: readonly number[];
    invoicesPerYear?: number;
    until?: Date;
    origins?: number;
    model?: Partial<Omit<CollectionsOptions, 'asOf'>>;
  } = {},
): CollectionsAccuracy => {
  const seeds = options.seeds ?? [1, 2, 3, 4, 5];
  const until = options.until ?? new Date('2025-06-30T00:00:00.000Z');
  const originCount = options.origins ?? 12;
  const perSeller: CollectionsAccuracy['perSeller'] = [];
  let forecastError = 0;
  let baselineError = 0;
  let futureOnlyError = 0;
  let points = 0;
  let inside80 = 0;
  let inside95 = 0;
  for (const seed of seeds) {
    const profile = { seed, startDate: '2021-01-01', invoicesPerYear: options.invoicesPerYear ?? 1200 };
    const ledgers = demoCustomerLedgers(profile, until);
    let sellerForecast = 0;
    let sellerBaseline = 0;
    let sellerPoints = 0;
    const lastOrigin = dayOf(until) - 13 * 7;
    for (let origin = 0; origin < originCount; origin += 1) {
      const asOf = dateOfDay(lastOrigin - origin * 28);
      const forecaster = createCollectionsForecaster({
        ...defaultCollectionsOptions(asOf),
        ...options.model,
      });
      for (const ledger of ledgers) forecaster.addCustomer(ledger);
      const result = forecaster.finish();
      result.weeks.forEach((week, i) => {
        const actual = result.actual[i] ?? 0;
        sellerForecast += Math.abs(week.mean - actual);
        sellerBaseline += Math.abs((result.baseline[i] ?? 0) - actual);
        futureOnlyError += Math.abs((result.baselineFutureOnly[i] ?? 0) - actual);
        sellerPoints += 1;
        if (actual >= week.lower80 && actual <= week.upper80) inside80 += 1;
        if (actual >= week.lower95 && actual <= week.upper95) inside95 += 1;
      });
    }
    perSeller.push({
      seed,
      forecastMae: sellerForecast / sellerPoints,
      baselineMae: sellerBaseline / sellerPoints,
    });
    forecastError += sellerForecast;
    baselineError += sellerBaseline;
    points += sellerPoints;
  }
  return {
    sellers: seeds.length,
    origins: originCount,
    forecastMae: forecastError / points,
    baselineMae: baselineError / points,
    ratio: forecastError / baselineError,
    futureOnlyBaselineMae: futureOnlyError / points,
    futureOnlyRatio: forecastError / futureOnlyError,
    coverage80: inside80 / points,
    coverage95: inside95 / points,
    perSeller,
  };
};

export type CollectionsSpeed = {
  invoices: number;
  customers: number;
  openInvoices: number;
  forecastSeconds: number;
  /** Peak resident memory of the process during the forecast, and how far it rose above the start. */
  forecastPeakMiB: number;
  forecastRiseMiB: number;
  scanSeconds: number;
  scanPeakMiB: number;
  scanRiseMiB: number;
};

const measureWithRise = async <T>(work: () => Promise<T>) => {
  const startMiB = process.memoryUsage().rss / 2 ** 20;
  const started = performance.now();
  const { result, peakMiB } = await measurePeakRss(work);
  return { result, seconds: (performance.now() - started) / 1000, peakMiB, riseMiB: peakMiB - startMiB };
};

/**
 * A seller's collections forecast read from the read store beside one plain scan of the same invoices
 * and payments. 10,000 customers and 1M invoices is `invoices: 1_000_000` (about 100 invoices per
 * customer over eight years, as `customers = invoicesPerYear / 12`); the default is small enough to
 * run in a minute. Writes the DEMO ledger as seller 1 into a throw-away read store (or `db`).
 */
export const measureCollectionsSpeed = async (
  options: { invoices?: number; log?: (line: string) => void; db?: Db } = {},
): Promise<CollectionsSpeed> => {
  const invoices = options.invoices ?? 20_000;
  const log = options.log ?? (() => undefined);
  const config = benchConfig('collections-speed');
  const readStore = options.db ? null : await openReadStore(config);
  const db = options.db ?? readStore?.db;
  if (!db) throw new Error('no read store');
  try {
    const until = new Date('2025-06-30T00:00:00.000Z');
    const profile = { seed: 7, startDate: '2017-07-01', invoicesPerYear: Math.round(invoices / 8) };
    await ensureLedgerIndexes(db);
    log(`writing a DEMO ledger of about ${invoices} invoices`);
    let cursor: string | null = null;
    do {
      const fetched = fetchDemoPage(profile, { sellerId: 1, since: null, until, cursor, pageSize: 5000 });
      await writeLedgerPage({ db, tenantId: 1, epoch: 1, now: new Date(), compare: false }, fetched.page);
      cursor = fetched.nextCursor;
    } while (cursor !== null);
    const plainScan = () =>
      measureWithRise(async () => {
        let count = 0;
        for await (const doc of db
          .collection(ledgerCollections.invoices)
          .find({ sellerId: 1 }, { projection: { _id: 0, customerId: 1, transactionDate: 1, amount: 1 } }))
          count += doc ? 1 : 0;
        for await (const doc of db
          .collection(ledgerCollections.payments)
          .find({ sellerId: 1 }, { projection: { _id: 0, customerId: 1, date: 1, applications: 1 } }))
          count += doc ? 1 : 0;
        return count;
      });
    const scanBefore = await plainScan();
    log(`plain scan: ${scanBefore.result} documents in ${scanBefore.seconds.toFixed(1)} s`);
    const forecast = await measureWithRise(() =>
      forecastSellerCollections(db, { sellerId: 1, asOf: until, excludedCustomerIds: [] }),
    );
    log(`forecast: ${forecast.result.openInvoices} open invoices in ${forecast.seconds.toFixed(1)} s`);
    const scanAfter = await plainScan();
    // The faster of the two scans: the baseline a busy moment of a shared machine inflates least.
    const scan = scanAfter.seconds < scanBefore.seconds ? scanAfter : scanBefore;
    return {
      invoices: await db.collection(ledgerCollections.invoices).countDocuments({ sellerId: 1 }),
      customers: forecast.result.customersRead,
      openInvoices: forecast.result.openInvoices,
      forecastSeconds: forecast.seconds,
      forecastPeakMiB: forecast.peakMiB,
      forecastRiseMiB: forecast.riseMiB,
      scanSeconds: scan.seconds,
      scanPeakMiB: scan.peakMiB,
      scanRiseMiB: scan.riseMiB,
    };
  } finally {
    if (readStore) {
      await db.dropDatabase();
      await readStore.close();
      rmSync(config.DATA_DIR, { recursive: true, force: true });
    }
  }
};

/** The accuracy figure of the forecast-accuracy suite: weekly cash-in error beside the baseline's. */
export const collectionsAccuracyFigures = (log: (message: string) => void): Promise<Figure[]> => {
  const accuracy = measureCollectionsAccuracy();
  log(
    `collections: weekly cash-in MAE ${accuracy.forecastMae.toFixed(0)} beside the baseline's ${accuracy.baselineMae.toFixed(0)} (${accuracy.ratio.toFixed(2)}x); 80/95 coverage ${accuracy.coverage80.toFixed(2)}/${accuracy.coverage95.toFixed(2)}`,
  );
  return Promise.resolve([
    {
      name: `collections forecast, weekly cash-in MAE (${accuracy.sellers} DEMO sellers, ${accuracy.origins} origins)`,
      unit: 'cents',
      value: accuracy.forecastMae,
      baseline: {
        name: 'open invoices paid at transaction date + average days to pay',
        value: accuracy.baselineMae,
      },
      higherIsBetter: false,
      target: { kind: 'ratio', op: '<=', value: 0.85, source: 'issue 15' },
    },
    {
      name: 'collections forecast, weekly cash-in MAE beside the kinder baseline',
      unit: 'cents',
      value: accuracy.forecastMae,
      baseline: {
        name: 'the baseline without invoices whose baseline date has passed',
        value: accuracy.futureOnlyBaselineMae,
      },
      higherIsBetter: false,
    },
  ]);
};

/** The speed figures of the forecast-speed suite: the forecast beside one plain scan of the ledger. */
export const collectionsSpeedFigures = async (
  log: (message: string) => void,
  invoices = 20_000,
): Promise<Figure[]> => {
  const speed = await measureCollectionsSpeed({ invoices, log });
  const size = `${speed.customers} customers, ${speed.invoices} invoices`;
  return [
    {
      name: `collections forecast of one seller (${size})`,
      unit: 's',
      value: speed.forecastSeconds,
      baseline: {
        name: 'one plain scan of its invoices and payments (faster of two)',
        value: speed.scanSeconds,
      },
      higherIsBetter: false,
      target: { kind: 'ratio', op: '<=', value: 3, source: 'issue 15' },
    },
    {
      name: `peak RSS during the collections forecast (${size})`,
      unit: 'MiB',
      value: speed.forecastPeakMiB,
      baseline: { name: 'peak RSS during the plain scan', value: speed.scanPeakMiB },
      higherIsBetter: false,
      target: { kind: 'ratio', op: '<=', value: 3, source: 'issue 15' },
    },
  ];
};
