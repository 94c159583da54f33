import { z } from 'zod';
import { IsoDateTime } from '../events/values';

/**
 * The forecasts a seller's page and the dashboard's forecast card read (issue 15). Money is in cents
 * as the ledger's, but fractional: an expectation is a mean over outcomes, not an amount anyone paid.
 */

export const ForecastSellerParams = z.object({ sellerId: z.coerce.number().int().positive() }).strict();

export const ForecastCustomerParams = z
  .object({
    sellerId: z.coerce.number().int().positive(),
    customerId: z.coerce.number().int().positive(),
  })
  .strict();

/** Mean and 80 and 95 percent prediction intervals of one future period. */
const Band = {
  mean: z.number(),
  lower80: z.number(),
  upper80: z.number(),
  lower95: z.number(),
  upper95: z.number(),
};

export const RevenueFrequency = z.enum(['WEEKLY', 'MONTHLY']);
export type RevenueFrequency = z.infer<typeof RevenueFrequency>;

/** One period of a fitted history: the TOTAL_REVENUE metric's value in cents. */
export const RevenueHistoryPoint = z.object({ StartDate: IsoDateTime, Value: z.number() });

export const ForecastPoint = z.object({ StartDate: IsoDateTime, ...Band });
export type ForecastPoint = z.infer<typeof ForecastPoint>;

/** The seller's revenue forecast as issued: 13 weeks or 12 months ahead, and the history it was fitted on. */
export const RevenueForecast = z.object({
  frequency: RevenueFrequency,
  issuedAt: IsoDateTime,
  /** The data the forecast saw ended here (now for a live run, a past date for a historical one). */
  asOf: IsoDateTime,
  method: z.string(),
  history: z.array(RevenueHistoryPoint),
  points: z.array(ForecastPoint),
});
export type RevenueForecast = z.infer<typeof RevenueForecast>;

/**
 * Expected cash-in of one week, with its intervals. StartDate is the week's first day: the day after
 * asOf for the first week, then every 7 days (not calendar weeks: every week is whole).
 */
export const CashInWeek = z.object({ StartDate: IsoDateTime, ...Band });
export type CashInWeek = z.infer<typeof CashInWeek>;

/** Expected cash-in per week from the open invoices, 13 weeks from asOf. */
export const CollectionsForecast = z.object({
  issuedAt: IsoDateTime,
  asOf: IsoDateTime,
  method: z.string(),
  openInvoices: z.int().nonnegative(),
  openBalance: z.number(),
  weeks: z.array(CashInWeek),
  /** What the open balance is not expected to bring in within the horizon. */
  beyondHorizon: z.number(),
});
export type CollectionsForecast = z.infer<typeof CollectionsForecast>;

export const ForecastKind = z.enum(['revenueWeekly', 'revenueMonthly', 'collections']);
export type ForecastKind = z.infer<typeof ForecastKind>;

/** A forecast period whose actual has arrived: what was forecast, what happened. */
export const ForecastValidationRow = z.object({
  kind: ForecastKind,
  issuedAt: IsoDateTime,
  /** 1 for the first period after issue. */
  horizonStep: z.int().positive(),
  StartDate: IsoDateTime,
  forecast: z.number(),
  actual: z.number(),
  absError: z.number(),
});
export type ForecastValidationRow = z.infer<typeof ForecastValidationRow>;

/** Mean absolute error per kind over the recorded validation rows; MASE where a naive scale exists. */
export const ForecastValidationSummary = z.object({
  kind: ForecastKind,
  rows: z.int().nonnegative(),
  meanAbsError: z.number(),
  mase: z.number().nullable(),
});

/** GET /api/forecasts/sellers/{sellerId} */
export const SellerForecastsResponse = z.object({
  sellerId: z.number(),
  /** The seller's forecasts.Receivables.Enabled flag: no new forecasts are issued while it is off. */
  enabled: z.boolean(),
  revenue: z.object({ weekly: RevenueForecast.nullable(), monthly: RevenueForecast.nullable() }),
  collections: CollectionsForecast.nullable(),
  validation: z.object({
    summary: z.array(ForecastValidationSummary),
    /** The latest rows, newest issue first. */
    recent: z.array(ForecastValidationRow),
  }),
});
export type SellerForecastsResponse = z.infer<typeof SellerForecastsResponse>;

/** One open invoice's expected pay date (UTC day) and its 80 and 95 percent intervals. */
export const OpenInvoiceForecast = z.object({
  providerId: z.string(),
  docNumber: z.string(),
  transactionDate: IsoDateTime,
  dueDate: IsoDateTime,
  balance: z.number(),
  expectedPayDate: IsoDateTime,
  payDateLower80: IsoDateTime,
  payDateUpper80: IsoDateTime,
  payDateLower95: IsoDateTime,
  payDateUpper95: IsoDateTime,
  /** Chance that it is paid within the 13-week horizon. */
  paidWithinHorizon: z.number().min(0).max(1),
});
export type OpenInvoiceForecast = z.infer<typeof OpenInvoiceForecast>;

/** GET /api/forecasts/sellers/{sellerId}/customers/{customerId} */
export const CustomerForecastResponse = z.object({
  sellerId: z.number(),
  customerId: z.number(),
  enabled: z.boolean(),
  /** Null until a collections forecast covered this customer. */
  issuedAt: IsoDateTime.nullable(),
  asOf: IsoDateTime.nullable(),
  weeks: z.array(CashInWeek),
  invoices: z.array(OpenInvoiceForecast),
  validation: z.object({ recent: z.array(ForecastValidationRow) }),
});
export type CustomerForecastResponse = z.infer<typeof CustomerForecastResponse>;
