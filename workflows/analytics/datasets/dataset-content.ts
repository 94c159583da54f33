import type { Db } from 'mongodb';
import {
  datasetRowSchemas,
  type AimlRow,
  type CustomerForecastValidationRow,
  type ForecastDsoRow,
  type ForecastSummaryRow,
  type ForecastValidationRow,
} from '../../../contracts/api/analytics-datasets';
import type { DatasetContentType, DatasetType } from '../../../contracts/api/jobs';
import type { SellerAnalyticsRow } from '../../../contracts/kafka/analytics';
import { querySellerAnalytics, sellerFacts } from '../../../projections/analytics/analytics-store';
import {
  CUSTOMER_FORECAST_VALIDATIONS,
  FORECAST_VALIDATIONS,
  SELLER_FORECASTS,
  type SellerForecastDoc,
  type ValidationRowDoc,
} from '../../forecast/forecast-store';
import { isoDayOf, newestEpochOf } from '../seller-analytics';

/**
 * The rows of each data set for one seller and range (docs/analytics.md), and their file. The range
 * is inclusive, by the row's date: its day (ar_forecast_aiml), its period's start (seller analytics),
 * or its forecast's asOf (the forecast data sets).
 */
export type DatasetRange = { sellerId: number; startDate: string; endDate: string };
type AnyRow = Record<string, string | number | null>;

const DAY_MS = 86_400_000;
const dayOfIso = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00.000Z`) / DAY_MS);
const isoTime = (date: Date) => date.toISOString();

const aimlRows = async (db: Db, range: DatasetRange): Promise<AimlRow[]> => {
  const facts = await sellerFacts(db, range.sellerId);
  const epoch = newestEpochOf(facts);
  const first = dayOfIso(range.startDate);
  const last = dayOfIso(range.endDate);
  const invoiced = new Map<number, number>();
  const collected = new Map<number, number>();
  for (const fact of facts) {
    if (fact.epoch !== epoch) continue;
    if (fact.entity === 'invoices') invoiced.set(fact.day, (invoiced.get(fact.day) ?? 0) + fact.amount);
    if (fact.entity === 'payments') collected.set(fact.day, (collected.get(fact.day) ?? 0) + fact.amount);
  }
  const rows: AimlRow[] = [];
  // Every day of the range, zeros included: a regular series, as forecasting services expect.
  for (let day = first; day <= last; day += 1)
    rows.push({
      sellerId: range.sellerId,
      date: isoDayOf(day),
      invoiced: invoiced.get(day) ?? 0,
      collected: collected.get(day) ?? 0,
    });
  return rows;
};

const asOfRange = (range: DatasetRange) => ({
  $gte: new Date(`${range.startDate}T00:00:00.000Z`),
  $lte: new Date(`${range.endDate}T23:59:59.999Z`),
});

const sellerForecasts = (db: Db, range: DatasetRange, kind?: string) =>
  db
    .collection<SellerForecastDoc>(SELLER_FORECASTS)
    .find({ sellerId: range.sellerId, asOf: asOfRange(range), ...(kind ? { kind: kind as never } : {}) })
    .sort({ asOf: 1, kind: 1 })
    .toArray();

const dsoRows = async (db: Db, range: DatasetRange): Promise<ForecastDsoRow[]> =>
  (await sellerForecasts(db, range, 'collections')).flatMap((forecast) =>
    forecast.points.map((point, index) => ({
      sellerId: forecast.sellerId,
      asOf: isoTime(forecast.asOf),
      issuedAt: isoTime(forecast.issuedAt),
      horizonStep: index + 1,
      startDate: isoTime(point.startDate).slice(0, 10),
      mean: point.mean,
      lower80: point.lower80,
      upper80: point.upper80,
      lower95: point.lower95,
      upper95: point.upper95,
      baseline: forecast.baseline?.[index] ?? null,
      openBalance: forecast.openBalance,
      openInvoices: forecast.openInvoices,
    })),
  );

const validationRowsOf = async (db: Db, range: DatasetRange): Promise<ValidationRowDoc[]> =>
  db
    .collection<ValidationRowDoc>(FORECAST_VALIDATIONS)
    .find({ sellerId: range.sellerId, asOf: asOfRange(range) })
    .sort({ asOf: 1, kind: 1, horizonStep: 1 })
    .toArray();

const validationRows = async (db: Db, range: DatasetRange): Promise<ForecastValidationRow[]> =>
  (await validationRowsOf(db, range)).map((row) => ({
    sellerId: row.sellerId,
    kind: row.kind,
    asOf: isoTime(row.asOf),
    issuedAt: isoTime(row.issuedAt),
    horizonStep: row.horizonStep,
    startDate: isoTime(row.startDate).slice(0, 10),
    forecast: row.forecast,
    actual: row.actual,
    absError: row.absError,
    scale: row.scale,
    baselineForecast: row.baselineForecast,
    baselineAbsError: row.baselineAbsError,
  }));

type CustomerValidationDoc = {
  sellerId: number;
  customerId: number;
  issuedAt: Date;
  asOf: Date;
  steps: {
    horizonStep: number;
    startDate: Date;
    forecast: number;
    actual: number;
    absError: number;
    baselineAbsError: number;
  }[];
};

const customerValidationRows = async (
  db: Db,
  range: DatasetRange,
): Promise<CustomerForecastValidationRow[]> =>
  (
    await db
      .collection<CustomerValidationDoc>(CUSTOMER_FORECAST_VALIDATIONS)
      .find({ sellerId: range.sellerId, asOf: asOfRange(range) })
      .sort({ asOf: 1, customerId: 1 })
      .toArray()
  ).flatMap((doc) =>
    doc.steps.map((step) => ({
      sellerId: doc.sellerId,
      customerId: doc.customerId,
      asOf: isoTime(doc.asOf),
      issuedAt: isoTime(doc.issuedAt),
      horizonStep: step.horizonStep,
      startDate: isoTime(step.startDate).slice(0, 10),
      forecast: step.forecast,
      actual: step.actual,
      absError: step.absError,
      baselineAbsError: step.baselineAbsError,
    })),
  );

const mean = (values: number[]) =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
const rounded = (value: number | null) => (value === null ? null : Math.round(value * 10_000) / 10_000);

const summaryRows = async (db: Db, range: DatasetRange): Promise<ForecastSummaryRow[]> => {
  const validations = await validationRowsOf(db, range);
  const byForecast = new Map<string, ValidationRowDoc[]>();
  for (const row of validations) {
    const key = `${row.kind}:${row.asOf.toISOString()}`;
    byForecast.set(key, [...(byForecast.get(key) ?? []), row]);
  }
  return (await sellerForecasts(db, range)).map((forecast) => {
    const rows = byForecast.get(`${forecast.kind}:${forecast.asOf.toISOString()}`) ?? [];
    const mae = mean(rows.map((row) => row.absError));
    const baselineErrors = rows.flatMap((row) =>
      row.baselineAbsError === null ? [] : [row.baselineAbsError],
    );
    return {
      sellerId: forecast.sellerId,
      kind: forecast.kind,
      asOf: isoTime(forecast.asOf),
      issuedAt: isoTime(forecast.issuedAt),
      method: forecast.method,
      steps: forecast.points.length,
      forecastTotal: forecast.points.reduce((sum, point) => sum + point.mean, 0),
      validatedSteps: rows.length,
      mae: rounded(mae),
      mase: rounded(mae !== null && forecast.scale ? mae / forecast.scale : null),
      baselineMae: rounded(mean(baselineErrors)),
    };
  });
};

const analyticsRows = (
  db: Db,
  range: DatasetRange,
  frequency: 'WEEKLY' | 'MONTHLY',
): Promise<SellerAnalyticsRow[]> =>
  querySellerAnalytics(db, {
    sellerId: range.sellerId,
    frequency,
    startDate: range.startDate,
    endDate: range.endDate,
  });

export const datasetRows = (db: Db, dataset: DatasetType, range: DatasetRange): Promise<AnyRow[]> => {
  switch (dataset) {
    case 'ar_forecast_aiml':
      return aimlRows(db, range);
    case 'ar_forecast_dso':
      return dsoRows(db, range);
    case 'ar_forecast_validations':
      return validationRows(db, range);
    case 'ar_customer_forecast_validations':
      return customerValidationRows(db, range);
    case 'ar_forecast_summary':
      return summaryRows(db, range);
    case 'seller_analytics_weekly':
      return analyticsRows(db, range, 'WEEKLY');
    case 'seller_analytics_monthly':
      return analyticsRows(db, range, 'MONTHLY');
  }
};

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
const csvField = (value: string | number | null): string => {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export const datasetFileOf = (
  dataset: DatasetType,
  contentType: DatasetContentType,
  rows: readonly AnyRow[],
): { text: string; mimeType: string; extension: string } => {
  if (contentType === 'json')
    return { text: JSON.stringify(rows), mimeType: 'application/json', extension: 'json' };
  if (contentType === 'awsForecast') {
    if (dataset !== 'ar_forecast_aiml') throw new Error('awsForecast is a layout of ar_forecast_aiml only');
    const lines = rows.map((row) =>
      [
        csvField(`seller-${row.sellerId}`),
        csvField(row.date ?? null),
        (Number(row.collected) / 100).toFixed(2),
      ].join(','),
    );
    return { text: lines.length ? `${lines.join('\n')}\n` : '', mimeType: 'text/csv', extension: 'csv' };
  }
  // The header comes from the schema, so an empty range still gives a file a CSV reader accepts.
  const header = Object.keys(datasetRowSchemas[dataset].shape);
  const lines = [
    header.join(','),
    ...rows.map((row) => header.map((key) => csvField(row[key] ?? null)).join(',')),
  ];
  return { text: `${lines.join('\n')}\n`, mimeType: 'text/csv', extension: 'csv' };
};

/** `<dataset>-<sellerId>-<start>-<end>.<ext>`, awsForecast marked in the name. */
export const datasetFileName = (
  input: {
    dataset: DatasetType;
    sellerId: number;
    startDate: string;
    endDate: string;
    contentType: DatasetContentType;
  },
  extension: string,
) =>
  `${input.dataset}-${input.sellerId}-${input.startDate}-${input.endDate}${input.contentType === 'awsForecast' ? '-aws-forecast' : ''}.${extension}`;
