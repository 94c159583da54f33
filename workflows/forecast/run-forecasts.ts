import type { Db } from 'mongodb';
import type { ForecastKind, RevenueFrequency } from '../../contracts/api/forecasts';
import type { MetricRow } from '../../contracts/ledger';
import { queryMetricRows } from '../metrics/metric-store';
import { dayOf, type CollectionsResult } from './collections-forecast';
import { forecastSellerCollectionsAt } from './collections-source';
import {
  collectionsForecastDoc,
  ensureForecastIndexes,
  hasCustomerForecasts,
  pendingSellerForecasts,
  recordCustomerValidation,
  recordSellerValidation,
  sellerForecastDates,
  storeCustomerForecasts,
  storeSellerForecast,
  type SellerForecastDoc,
} from './forecast-store';
import { forecastRevenue } from './revenue-forecaster';

/** Which forecasts a run issues: the seller's (F S), its customers' (F C), or both (after a sync). */
export type ForecastScope = 'seller' | 'customers' | 'both';

export type ForecastRunRequest = {
  sellerId: number;
  scope: ForecastScope;
  /** The dates the forecasts see the data as of: the collection date, or past dates (historical). */
  asOfs: readonly Date[];
  /** Actuals are final up to here: the collection date (a historical run's asOfs lie before it). */
  knownThrough: Date;
  /** Historical runs stamp each forecast as issued at its asOf. */
  issuedAtAsOf: boolean;
  onlyMissing: boolean;
  excludedCustomerIds: readonly number[];
  now: () => Date;
  onProgress?: (done: number, total: number) => Promise<void>;
};

export type ForecastRunResult = {
  issued: number;
  skippedAsOfs: number;
  customerForecasts: number;
  validatedSteps: number;
  validatedCustomers: number;
};

const DAY_MS = 86_400_000;
/** How many pending collections forecasts one run validates (the newest): each costs a fit in the pass. */
const MAX_VALIDATED_PER_RUN = 13;

const revenueSettings: Record<
  RevenueFrequency,
  { kind: ForecastKind; horizon: number; seasonLength: number }
> = {
  WEEKLY: { kind: 'revenueWeekly', horizon: 13, seasonLength: 52 },
  MONTHLY: { kind: 'revenueMonthly', horizon: 12, seasonLength: 12 },
};

const periodAfter = (frequency: RevenueFrequency, start: Date): Date =>
  frequency === 'WEEKLY'
    ? new Date(start.getTime() + 7 * DAY_MS)
    : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));

/** A period is over, its actual final, once its end is no later than the day asOf falls on. */
const isOver = (frequency: RevenueFrequency, start: Date, asOf: Date) =>
  dayOf(periodAfter(frequency, start)) <= dayOf(asOf);

/** Mean absolute error of the naive (seasonal where the history allows) forecast in sample: MASE's scale. */
const naiveScale = (values: readonly number[], seasonLength: number): number | null => {
  const lag = values.length > seasonLength * 2 ? seasonLength : 1;
  let sum = 0;
  let count = 0;
  for (let i = lag; i < values.length; i += 1) {
    sum += Math.abs((values[i] ?? 0) - (values[i - lag] ?? 0));
    count += 1;
  }
  return count > 0 && sum > 0 ? sum / count : null;
};

/** The revenue forecast as of a date, fitted on the periods over by then; null with under two of them. */
export const revenueForecastAt = (
  rows: readonly MetricRow[],
  options: { sellerId: number; frequency: RevenueFrequency; asOf: Date; issuedAt: Date },
): Omit<SellerForecastDoc, '_id' | 'validatedSteps'> | null => {
  const settings = revenueSettings[options.frequency];
  const history = rows
    .map((row) => ({ startDate: new Date(row.StartDate), value: row.Value }))
    .filter((row) => isOver(options.frequency, row.startDate, options.asOf));
  const last = history[history.length - 1];
  if (history.length < 2 || !last) return null;
  const values = history.map((row) => row.value);
  const forecast = forecastRevenue(values, {
    horizon: settings.horizon,
    seasonLength: settings.seasonLength,
  });
  let start = last.startDate;
  const points = forecast.mean.map((mean, step) => {
    start = periodAfter(options.frequency, start);
    return {
      startDate: start,
      mean,
      lower80: forecast.lower80[step] ?? mean,
      upper80: forecast.upper80[step] ?? mean,
      lower95: forecast.lower95[step] ?? mean,
      upper95: forecast.upper95[step] ?? mean,
    };
  });
  return {
    sellerId: options.sellerId,
    kind: settings.kind,
    issuedAt: options.issuedAt,
    asOf: options.asOf,
    method: forecast.method,
    history,
    points,
    scale: naiveScale(values, settings.seasonLength),
    baseline: null,
    openInvoices: null,
    openBalance: null,
    beyondHorizon: null,
  };
};

const sameDay = (a: Date, b: Date) => dayOf(a) === dayOf(b);

/**
 * Issues a seller's forecasts as of each asOf and validates the earlier ones whose actuals arrived:
 * revenue (weekly and monthly, from the TOTAL_REVENUE metric rows) for the seller scope, collections
 * (one pass over the ledger for every asOf and every pending validation) for both scopes.
 */
export const runSellerForecasts = async (db: Db, request: ForecastRunRequest): Promise<ForecastRunResult> => {
  const { sellerId } = request;
  await ensureForecastIndexes(db);
  const latest = request.knownThrough;
  const storedSeller = await sellerForecastDates(db, sellerId, 'collections');
  const wanted: Date[] = [];
  for (const asOf of request.asOfs) {
    const sellerDone = storedSeller.some((stored) => sameDay(stored, asOf));
    const customersDone = await hasCustomerForecasts(db, sellerId, asOf);
    const done =
      request.scope === 'seller'
        ? sellerDone
        : request.scope === 'customers'
          ? customersDone
          : sellerDone && customersDone;
    if (!(request.onlyMissing && done)) wanted.push(asOf);
  }
  const result: ForecastRunResult = {
    issued: 0,
    skippedAsOfs: request.asOfs.length - wanted.length,
    customerForecasts: 0,
    validatedSteps: 0,
    validatedCustomers: 0,
  };
  const issuedAt = (asOf: Date) => (request.issuedAtAsOf ? asOf : request.now());
  const revenueRows = {
    WEEKLY: await queryMetricRows(db, { sellerId, type: 'TOTAL_REVENUE', frequency: 'WEEKLY' }),
    MONTHLY: await queryMetricRows(db, { sellerId, type: 'TOTAL_REVENUE', frequency: 'MONTHLY' }),
  };
  if (request.scope !== 'customers')
    for (const asOf of wanted)
      for (const frequency of ['WEEKLY', 'MONTHLY'] as const) {
        const doc = revenueForecastAt(revenueRows[frequency], {
          sellerId,
          frequency,
          asOf,
          issuedAt: issuedAt(asOf),
        });
        if (doc) {
          await storeSellerForecast(db, doc);
          result.issued += 1;
        }
      }

  // Collections forecasts issued before the latest asOf whose weeks are not all validated yet.
  const pending = (await pendingSellerForecasts(db, sellerId))
    .filter((doc) => doc.kind === 'collections' && doc.asOf < latest)
    .sort((a, b) => b.asOf.getTime() - a.asOf.getTime())
    .slice(0, MAX_VALIDATED_PER_RUN);
  const validationAsOfs = pending
    .map((doc) => doc.asOf)
    .filter((asOf) => !wanted.some((w) => sameDay(w, asOf)));
  const asOfs = [...wanted, ...validationAsOfs];
  const fitted = new Map<string, CollectionsResult>();
  if (asOfs.length > 0) {
    const { results } = await forecastSellerCollectionsAt(db, {
      sellerId,
      asOfs,
      excludedCustomerIds: request.excludedCustomerIds,
      onChunk: request.onProgress,
    });
    results.forEach((fit, index) => {
      const asOf = asOfs[index];
      if (asOf) fitted.set(asOf.toISOString(), fit);
    });
  }
  for (const asOf of wanted) {
    const fit = fitted.get(asOf.toISOString());
    if (!fit) continue;
    const issue = { issuedAt: issuedAt(asOf), asOf };
    if (request.scope !== 'customers') {
      await storeSellerForecast(db, collectionsForecastDoc(sellerId, issue, fit));
      result.issued += 1;
    }
    if (request.scope !== 'seller') {
      await storeCustomerForecasts(db, { sellerId, ...issue }, fit.customers);
      result.customerForecasts += fit.customers.length;
    }
  }

  // Validation against what has happened by the collection date.
  for (const forecast of await pendingSellerForecasts(db, sellerId)) {
    if (forecast.kind === 'collections') {
      const fit = fitted.get(forecast.asOf.toISOString());
      if (!fit) continue;
      const weeksOver = Math.floor((dayOf(latest) - dayOf(forecast.asOf)) / 7);
      result.validatedSteps += await recordSellerValidation(db, forecast, (step) =>
        step < weeksOver ? (fit.actual[step] ?? 0) : null,
      );
      if (weeksOver > 0)
        result.validatedCustomers += await recordCustomerValidation(
          db,
          { sellerId, asOf: forecast.asOf },
          {
            completedWeeks: Math.min(weeksOver, fit.actual.length),
            recomputed: fit,
          },
        );
    } else {
      const frequency: RevenueFrequency = forecast.kind === 'revenueWeekly' ? 'WEEKLY' : 'MONTHLY';
      const actuals = new Map(
        revenueRows[frequency].map((row) => [dayOf(new Date(row.StartDate)), row.Value]),
      );
      result.validatedSteps += await recordSellerValidation(db, forecast, (_, point) =>
        isOver(frequency, point.startDate, latest) ? (actuals.get(dayOf(point.startDate)) ?? 0) : null,
      );
    }
  }
  return result;
};

/**
 * The past dates a historical run forecasts as of: every four weeks back from the collection date,
 * over two years at most, from where the seller has eight weeks of revenue.
 */
export const historicalAsOfs = (collectionDate: Date, firstActivity: Date | null): Date[] => {
  if (!firstActivity) return [];
  const dates: Date[] = [];
  for (let k = 1; k <= 26; k += 1) {
    const asOf = new Date(collectionDate.getTime() - k * 28 * DAY_MS);
    if (dayOf(asOf) - dayOf(firstActivity) < 8 * 7) break;
    dates.push(asOf);
  }
  return dates.reverse();
};
