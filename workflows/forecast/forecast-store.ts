import type { Db } from 'mongodb';
import type {
  CashInWeek,
  CollectionsForecast,
  CustomerForecastResponse,
  ForecastKind,
  ForecastValidationRow,
  OpenInvoiceForecast,
  RevenueForecast,
  RevenueFrequency,
} from '../../contracts/api/forecasts';
import {
  dateOfDay,
  type CollectionsResult,
  type CustomerCollections,
  type WeekBand,
} from './collections-forecast';

/**
 * Forecasts as issued and their validation (docs/adr/0034-collections-forecast-and-validation.md). A forecast is
 * keyed by what it saw, (seller, kind, asOf) or (seller, customer, asOf): issuing again as of the same
 * data replaces it, a later asOf adds one. issuedAt says when it was computed (asOf itself for a
 * historical run, which reconstructs what would have been issued then).
 */
export const SELLER_FORECASTS = 'seller_forecasts';
export const CUSTOMER_FORECASTS = 'customer_forecasts';
/** One row per seller forecast and horizon step whose actual has arrived: the MASE-ready table. */
export const FORECAST_VALIDATIONS = 'forecast_validations';
/** Per customer and issue, the same rows as an array: one document, not 13, per customer and issue. */
export const CUSTOMER_FORECAST_VALIDATIONS = 'customer_forecast_validations';

export type ForecastPointDoc = {
  startDate: Date;
  mean: number;
  lower80: number;
  upper80: number;
  lower95: number;
  upper95: number;
};

export type SellerForecastDoc = {
  _id: string;
  sellerId: number;
  kind: ForecastKind;
  issuedAt: Date;
  asOf: Date;
  method: string;
  /** Revenue only: the periods it was fitted on. */
  history: { startDate: Date; value: number }[];
  points: ForecastPointDoc[];
  /** In-sample mean absolute error of the naive forecast (MASE's scale), null where none applies. */
  scale: number | null;
  /** Collections only: the average-days-to-pay baseline per week, beside the forecast. */
  baseline: number[] | null;
  openInvoices: number | null;
  openBalance: number | null;
  beyondHorizon: number | null;
  /** How many leading steps have their actual recorded in FORECAST_VALIDATIONS. */
  validatedSteps: number;
};

type InvoiceForecastDoc = Omit<
  OpenInvoiceForecast,
  | 'transactionDate'
  | 'dueDate'
  | 'expectedPayDate'
  | 'payDateLower80'
  | 'payDateUpper80'
  | 'payDateLower95'
  | 'payDateUpper95'
> & {
  transactionDate: Date;
  dueDate: Date;
  expectedPayDate: Date;
  payDateLower80: Date;
  payDateUpper80: Date;
  payDateLower95: Date;
  payDateUpper95: Date;
};

export type CustomerForecastDoc = {
  _id: string;
  sellerId: number;
  customerId: number;
  issuedAt: Date;
  asOf: Date;
  weeks: ForecastPointDoc[];
  baseline: number[];
  invoices: InvoiceForecastDoc[];
  validatedSteps: number;
};

export type ValidationRowDoc = {
  _id: string;
  sellerId: number;
  kind: ForecastKind;
  issuedAt: Date;
  asOf: Date;
  horizonStep: number;
  startDate: Date;
  forecast: number;
  actual: number;
  absError: number;
  scale: number | null;
  /** Collections: the baseline's forecast of the same week and its error. */
  baselineForecast: number | null;
  baselineAbsError: number | null;
};

type CustomerValidationDoc = {
  _id: string;
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

type IndexSpec = { key: Record<string, 1 | -1>; name: string };

const indexes: Record<string, IndexSpec[]> = {
  [SELLER_FORECASTS]: [{ key: { sellerId: 1, kind: 1, asOf: 1 }, name: 'seller_kind_asof' }],
  [CUSTOMER_FORECASTS]: [
    { key: { sellerId: 1, customerId: 1, asOf: 1 }, name: 'seller_customer_asof' },
    { key: { sellerId: 1, asOf: 1 }, name: 'seller_asof' },
  ],
  [FORECAST_VALIDATIONS]: [{ key: { sellerId: 1, asOf: 1 }, name: 'seller_asof' }],
  [CUSTOMER_FORECAST_VALIDATIONS]: [
    { key: { sellerId: 1, customerId: 1, asOf: 1 }, name: 'seller_customer_asof' },
  ],
};

/** Creates the missing forecast indexes only (FerretDB drops the connection on an existing one). */
export const ensureForecastIndexes = async (db: Db): Promise<void> => {
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const [collection, specs] of Object.entries(indexes)) {
    const present = existing.has(collection)
      ? new Set(
          (await db.collection(collection).listIndexes().toArray()).map((index: { name?: unknown }) =>
            String(index.name),
          ),
        )
      : new Set<string>();
    const missing = specs.filter((spec) => !present.has(spec.name));
    if (missing.length > 0) await db.collection(collection).createIndexes(missing);
  }
};

const sellerForecastId = (sellerId: number, kind: ForecastKind, asOf: Date) =>
  `${sellerId}:${kind}:${asOf.toISOString()}`;
const customerForecastId = (sellerId: number, customerId: number, asOf: Date) =>
  `${sellerId}:${customerId}:${asOf.toISOString()}`;

const pointOf = (week: WeekBand): ForecastPointDoc => ({
  startDate: dateOfDay(week.startDay),
  mean: week.mean,
  lower80: week.lower80,
  upper80: week.upper80,
  lower95: week.lower95,
  upper95: week.upper95,
});

export const storeSellerForecast = async (db: Db, doc: Omit<SellerForecastDoc, '_id' | 'validatedSteps'>) => {
  const _id = sellerForecastId(doc.sellerId, doc.kind, doc.asOf);
  await db
    .collection<SellerForecastDoc>(SELLER_FORECASTS)
    .replaceOne({ _id }, { ...doc, validatedSteps: 0 }, { upsert: true });
};

export const collectionsForecastDoc = (
  sellerId: number,
  issue: { issuedAt: Date; asOf: Date },
  result: CollectionsResult,
): Omit<SellerForecastDoc, '_id' | 'validatedSteps'> => ({
  sellerId,
  kind: 'collections',
  issuedAt: issue.issuedAt,
  asOf: issue.asOf,
  method: result.method,
  history: [],
  points: result.weeks.map(pointOf),
  scale: null,
  baseline: result.baseline,
  openInvoices: result.openInvoices,
  openBalance: result.openBalance,
  beyondHorizon: result.beyondHorizon,
});

const customerDocOf = (
  sellerId: number,
  issue: { issuedAt: Date; asOf: Date },
  customer: CustomerCollections,
): CustomerForecastDoc => ({
  _id: customerForecastId(sellerId, customer.customerId, issue.asOf),
  sellerId,
  customerId: customer.customerId,
  issuedAt: issue.issuedAt,
  asOf: issue.asOf,
  weeks: customer.weeks.map(pointOf),
  baseline: customer.baseline,
  invoices: customer.invoices.map((invoice) => ({
    providerId: invoice.providerId,
    docNumber: invoice.docNumber,
    transactionDate: dateOfDay(invoice.transactionDay),
    dueDate: dateOfDay(invoice.dueDay),
    balance: invoice.balance,
    expectedPayDate: dateOfDay(invoice.expectedPayDay),
    payDateLower80: dateOfDay(invoice.payDayLower80),
    payDateUpper80: dateOfDay(invoice.payDayUpper80),
    payDateLower95: dateOfDay(invoice.payDayLower95),
    payDateUpper95: dateOfDay(invoice.payDayUpper95),
    paidWithinHorizon: invoice.paidWithinHorizon,
  })),
  validatedSteps: 0,
});

const BATCH = 1000;

/** Stores every customer's forecast of one issue, replacing an earlier issue as of the same data. */
export const storeCustomerForecasts = async (
  db: Db,
  issue: { sellerId: number; issuedAt: Date; asOf: Date },
  customers: readonly CustomerCollections[],
) => {
  const { sellerId } = issue;
  const collection = db.collection<CustomerForecastDoc>(CUSTOMER_FORECASTS);
  await collection.deleteMany({ sellerId, asOf: issue.asOf });
  for (let i = 0; i < customers.length; i += BATCH)
    await collection.insertMany(
      customers.slice(i, i + BATCH).map((customer) => customerDocOf(sellerId, issue, customer)),
      { ordered: false },
    );
};

/** The asOf dates a seller already has a forecast of this kind for (onlyMissing, validation). */
export const sellerForecastDates = async (db: Db, sellerId: number, kind: ForecastKind): Promise<Date[]> =>
  (
    await db
      .collection<SellerForecastDoc>(SELLER_FORECASTS)
      .find({ sellerId, kind }, { projection: { _id: 0, asOf: 1 } })
      .toArray()
  ).map((doc) => doc.asOf);

export const hasCustomerForecasts = async (db: Db, sellerId: number, asOf: Date): Promise<boolean> =>
  (await db
    .collection<CustomerForecastDoc>(CUSTOMER_FORECASTS)
    .findOne({ sellerId, asOf }, { projection: { _id: 1 } })) !== null;

/** Seller forecasts whose later steps still wait for their actuals. */
export const pendingSellerForecasts = async (db: Db, sellerId: number): Promise<SellerForecastDoc[]> =>
  (await db.collection<SellerForecastDoc>(SELLER_FORECASTS).find({ sellerId }).toArray()).filter(
    (doc) => doc.validatedSteps < doc.points.length,
  );

/**
 * Records the steps of a seller forecast whose actual is now known (`actualOf` answers null for a
 * period not over yet), and how far it is validated. Steps already recorded are written again with
 * the same id: a late backdated record corrects its actual.
 */
export const recordSellerValidation = async (
  db: Db,
  forecast: SellerForecastDoc,
  actualOf: (step: number, point: ForecastPointDoc) => number | null,
): Promise<number> => {
  const rows: ValidationRowDoc[] = [];
  for (const [index, point] of forecast.points.entries()) {
    const actual = actualOf(index, point);
    if (actual === null) break;
    const baselineForecast = forecast.baseline?.[index] ?? null;
    rows.push({
      _id: `${forecast._id}:${index + 1}`,
      sellerId: forecast.sellerId,
      kind: forecast.kind,
      issuedAt: forecast.issuedAt,
      asOf: forecast.asOf,
      horizonStep: index + 1,
      startDate: point.startDate,
      forecast: point.mean,
      actual,
      absError: Math.abs(point.mean - actual),
      scale: forecast.scale,
      baselineForecast,
      baselineAbsError: baselineForecast === null ? null : Math.abs(baselineForecast - actual),
    });
  }
  if (rows.length <= forecast.validatedSteps) return 0;
  const collection = db.collection<ValidationRowDoc>(FORECAST_VALIDATIONS);
  await collection.deleteMany({ _id: { $in: rows.map((row) => row._id) } });
  await collection.insertMany(rows, { ordered: false });
  await db
    .collection<SellerForecastDoc>(SELLER_FORECASTS)
    .updateOne({ _id: forecast._id }, { $set: { validatedSteps: rows.length } });
  return rows.length - forecast.validatedSteps;
};

/**
 * Records per customer the steps of an issue's customer forecasts whose actual is known, from a
 * collections result recomputed as of the same asOf over today's ledger (its `actual`).
 */
export const recordCustomerValidation = async (
  db: Db,
  issue: { sellerId: number; asOf: Date },
  options: { completedWeeks: number; recomputed: CollectionsResult },
): Promise<number> => {
  const { sellerId, asOf } = issue;
  const stored = await db
    .collection<CustomerForecastDoc>(CUSTOMER_FORECASTS)
    .find({ sellerId, asOf }, { projection: { invoices: 0 } })
    .toArray();
  const actualOf = new Map(
    options.recomputed.customers.map((customer) => [customer.customerId, customer.actual]),
  );
  const docs: CustomerValidationDoc[] = [];
  for (const forecast of stored) {
    if (forecast.validatedSteps >= options.completedWeeks) continue;
    const actual = actualOf.get(forecast.customerId) ?? [];
    docs.push({
      _id: forecast._id,
      sellerId,
      customerId: forecast.customerId,
      issuedAt: forecast.issuedAt,
      asOf,
      steps: forecast.weeks.slice(0, options.completedWeeks).map((week, index) => ({
        horizonStep: index + 1,
        startDate: week.startDate,
        forecast: week.mean,
        actual: actual[index] ?? 0,
        absError: Math.abs(week.mean - (actual[index] ?? 0)),
        baselineAbsError: Math.abs((forecast.baseline[index] ?? 0) - (actual[index] ?? 0)),
      })),
    });
  }
  if (docs.length === 0) return 0;
  const validations = db.collection<CustomerValidationDoc>(CUSTOMER_FORECAST_VALIDATIONS);
  for (let i = 0; i < docs.length; i += BATCH) {
    const batch = docs.slice(i, i + BATCH);
    await validations.deleteMany({ _id: { $in: batch.map((doc) => doc._id) } });
    await validations.insertMany(batch, { ordered: false });
  }
  await db
    .collection<CustomerForecastDoc>(CUSTOMER_FORECASTS)
    .updateMany({ sellerId, asOf }, { $set: { validatedSteps: options.completedWeeks } });
  return docs.length;
};

// ---- reads of the forecast routes ----------------------------------------------------------------

const bandOf = (point: ForecastPointDoc): CashInWeek => ({
  StartDate: point.startDate.toISOString(),
  mean: point.mean,
  lower80: point.lower80,
  upper80: point.upper80,
  lower95: point.lower95,
  upper95: point.upper95,
});

const latestSellerForecast = (db: Db, sellerId: number, kind: ForecastKind) =>
  db
    .collection<SellerForecastDoc>(SELLER_FORECASTS)
    .find({ sellerId, kind })
    .sort({ asOf: -1 })
    .limit(1)
    .next();

export const queryRevenueForecast = async (
  db: Db,
  sellerId: number,
  frequency: RevenueFrequency,
): Promise<RevenueForecast | null> => {
  const doc = await latestSellerForecast(
    db,
    sellerId,
    frequency === 'WEEKLY' ? 'revenueWeekly' : 'revenueMonthly',
  );
  if (!doc) return null;
  return {
    frequency,
    issuedAt: doc.issuedAt.toISOString(),
    asOf: doc.asOf.toISOString(),
    method: doc.method,
    history: doc.history.map((point) => ({ StartDate: point.startDate.toISOString(), Value: point.value })),
    points: doc.points.map(bandOf),
  };
};

export const queryCollectionsForecast = async (
  db: Db,
  sellerId: number,
): Promise<CollectionsForecast | null> => {
  const doc = await latestSellerForecast(db, sellerId, 'collections');
  if (!doc) return null;
  return {
    issuedAt: doc.issuedAt.toISOString(),
    asOf: doc.asOf.toISOString(),
    method: doc.method,
    openInvoices: doc.openInvoices ?? 0,
    openBalance: doc.openBalance ?? 0,
    weeks: doc.points.map(bandOf),
    beyondHorizon: doc.beyondHorizon ?? 0,
  };
};

const RECENT_ROWS = 60;
const SUMMARY_ROWS = 2000;

const rowOf = (
  row: Pick<
    ValidationRowDoc,
    'kind' | 'issuedAt' | 'horizonStep' | 'startDate' | 'forecast' | 'actual' | 'absError'
  >,
): ForecastValidationRow => ({
  kind: row.kind,
  issuedAt: row.issuedAt.toISOString(),
  horizonStep: row.horizonStep,
  StartDate: row.startDate.toISOString(),
  forecast: row.forecast,
  actual: row.actual,
  absError: row.absError,
});

/** The latest validation rows and, over the latest few thousand, the mean error per kind (MASE where scaled). */
export const querySellerValidation = async (db: Db, sellerId: number) => {
  const rows = await db
    .collection<ValidationRowDoc>(FORECAST_VALIDATIONS)
    .find({ sellerId })
    .sort({ asOf: -1 })
    .limit(SUMMARY_ROWS)
    .toArray();
  const kinds: ForecastKind[] = ['revenueWeekly', 'revenueMonthly', 'collections'];
  const summary = kinds.flatMap((kind) => {
    const ofKind = rows.filter((row) => row.kind === kind);
    if (ofKind.length === 0) return [];
    const scaled = ofKind.filter((row) => row.scale !== null && row.scale > 0);
    return [
      {
        kind,
        rows: ofKind.length,
        meanAbsError: ofKind.reduce((sum, row) => sum + row.absError, 0) / ofKind.length,
        mase:
          scaled.length === 0
            ? null
            : scaled.reduce((sum, row) => sum + row.absError / (row.scale ?? 1), 0) / scaled.length,
      },
    ];
  });
  return { summary, recent: rows.slice(0, RECENT_ROWS).map(rowOf) };
};

export const queryCustomerForecast = async (
  db: Db,
  query: { sellerId: number; customerId: number },
): Promise<Omit<CustomerForecastResponse, 'sellerId' | 'customerId' | 'enabled'>> => {
  const [doc, validations] = await Promise.all([
    db.collection<CustomerForecastDoc>(CUSTOMER_FORECASTS).find(query).sort({ asOf: -1 }).limit(1).next(),
    db
      .collection<CustomerValidationDoc>(CUSTOMER_FORECAST_VALIDATIONS)
      .find(query)
      .sort({ asOf: -1 })
      .limit(8)
      .toArray(),
  ]);
  const recent = validations.flatMap((validation) =>
    validation.steps.map((step) => rowOf({ ...step, kind: 'collections', issuedAt: validation.issuedAt })),
  );
  if (!doc) return { issuedAt: null, asOf: null, weeks: [], invoices: [], validation: { recent } };
  return {
    issuedAt: doc.issuedAt.toISOString(),
    asOf: doc.asOf.toISOString(),
    weeks: doc.weeks.map(bandOf),
    invoices: doc.invoices.map((invoice) => ({
      ...invoice,
      transactionDate: invoice.transactionDate.toISOString(),
      dueDate: invoice.dueDate.toISOString(),
      expectedPayDate: invoice.expectedPayDate.toISOString(),
      payDateLower80: invoice.payDateLower80.toISOString(),
      payDateUpper80: invoice.payDateUpper80.toISOString(),
      payDateLower95: invoice.payDateLower95.toISOString(),
      payDateUpper95: invoice.payDateUpper95.toISOString(),
    })),
    validation: { recent },
  };
};
