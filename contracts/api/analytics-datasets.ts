import { z } from 'zod';
import { EntityId } from '../events/values';
import { SellerAnalyticsRow } from '../kafka/analytics';
import { DatasetContentType, DatasetType } from './jobs';

/**
 * The seven data sets (admin.md sections 2, 7 and 9; docs/analytics.md): one file per seller and
 * job, json (an array of the rows below), csv (a header, then one line per row, the same fields in
 * the same order, money in cents) or, for ar_forecast_aiml only, awsForecast (Amazon Forecast's
 * target time series: no header, `item_id,timestamp,target_value`).
 */

const IsoDay = z.iso.date();
const IsoTime = z.iso.datetime();
const Cents = z.number();

/** ar_forecast_aiml: per seller and day of the range, what was invoiced and collected (ledger). */
export const AimlRow = z.object({
  sellerId: EntityId,
  date: IsoDay,
  invoiced: Cents,
  collected: Cents,
});
export type AimlRow = z.infer<typeof AimlRow>;

/** ar_forecast_aiml as awsForecast: item `seller-<id>`, the day, collections in currency units. */
export const AwsForecastRow = z.tuple([z.string(), IsoDay, z.number()]);

/** ar_forecast_dso: the stored collections (cash-in) forecasts issued in the range, one row per week. */
export const ForecastDsoRow = z.object({
  sellerId: EntityId,
  asOf: IsoTime,
  issuedAt: IsoTime,
  horizonStep: z.int().positive(),
  startDate: IsoDay,
  mean: Cents,
  lower80: Cents,
  upper80: Cents,
  lower95: Cents,
  upper95: Cents,
  baseline: Cents.nullable(),
  openBalance: Cents.nullable(),
  openInvoices: z.int().nullable(),
});
export type ForecastDsoRow = z.infer<typeof ForecastDsoRow>;

/** ar_forecast_validations: the seller forecasts' validated steps (forecast_validations). */
export const ForecastValidationRow = z.object({
  sellerId: EntityId,
  kind: z.string(),
  asOf: IsoTime,
  issuedAt: IsoTime,
  horizonStep: z.int().positive(),
  startDate: IsoDay,
  forecast: z.number(),
  actual: z.number(),
  absError: z.number(),
  scale: z.number().nullable(),
  baselineForecast: z.number().nullable(),
  baselineAbsError: z.number().nullable(),
});
export type ForecastValidationRow = z.infer<typeof ForecastValidationRow>;

/** ar_customer_forecast_validations: per customer, issue and validated week. */
export const CustomerForecastValidationRow = z.object({
  sellerId: EntityId,
  customerId: z.int(),
  asOf: IsoTime,
  issuedAt: IsoTime,
  horizonStep: z.int().positive(),
  startDate: IsoDay,
  forecast: z.number(),
  actual: z.number(),
  absError: z.number(),
  baselineAbsError: z.number(),
});
export type CustomerForecastValidationRow = z.infer<typeof CustomerForecastValidationRow>;

/** ar_forecast_summary: one row per stored seller forecast issued in the range, with its scores. */
export const ForecastSummaryRow = z.object({
  sellerId: EntityId,
  kind: z.string(),
  asOf: IsoTime,
  issuedAt: IsoTime,
  method: z.string(),
  steps: z.int().nonnegative(),
  forecastTotal: z.number(),
  validatedSteps: z.int().nonnegative(),
  /** Mean absolute error over the validated steps; null before any. */
  mae: z.number().nullable(),
  /** MAE over the forecast's scale (naive in-sample MAE); null without either. */
  mase: z.number().nullable(),
  /** The baseline's MAE over the same steps (collections only). */
  baselineMae: z.number().nullable(),
});
export type ForecastSummaryRow = z.infer<typeof ForecastSummaryRow>;

export const datasetRowSchemas = {
  ar_forecast_aiml: AimlRow,
  ar_forecast_dso: ForecastDsoRow,
  ar_forecast_validations: ForecastValidationRow,
  ar_customer_forecast_validations: CustomerForecastValidationRow,
  ar_forecast_summary: ForecastSummaryRow,
  seller_analytics_weekly: SellerAnalyticsRow,
  seller_analytics_monthly: SellerAnalyticsRow,
} as const satisfies Record<DatasetType, z.ZodType>;

/** A data-set job's result (the jobs table shows it; the download routes read it). */
export const DatasetJobResult = z.object({
  dataset: DatasetType,
  contentType: DatasetContentType,
  objectKey: z.string(),
  fileName: z.string(),
  mimeType: z.string(),
  bytes: z.int().nonnegative(),
  rows: z.int().nonnegative(),
  startDate: IsoDay,
  endDate: IsoDay,
});
export type DatasetJobResult = z.infer<typeof DatasetJobResult>;

/** GET /api/sellers/{id}/datasets/{dataset} and its /download. */
export const SellerDatasetParams = z
  .object({ id: z.coerce.number().pipe(EntityId), dataset: DatasetType })
  .strict();
export type SellerDatasetParams = z.infer<typeof SellerDatasetParams>;

/** admin.md section 3, Data-set response: the newest generated file of the seller's data set. */
export const DatasetFile = z.object({
  encoding: z.literal('base64'),
  data: z.string(),
  contentType: z.string(),
  fileName: z.string(),
});
export type DatasetFile = z.infer<typeof DatasetFile>;

/** Files over this size are answered by the download route only (base64 would grow them a third). */
export const maxDatasetContentBytes = 20 * 1024 * 1024;

/** GET /api/sellers/{id}/datasets: the seller's generated files, newest first (the expandable row). */
export const SellerDatasetFile = DatasetJobResult.extend({ jobId: EntityId, createdAt: IsoTime });
export const SellerDatasetsResponse = z.object({ files: z.array(SellerDatasetFile) });
export type SellerDatasetsResponse = z.infer<typeof SellerDatasetsResponse>;
export const SellerIdParam = z.object({ id: z.coerce.number().pipe(EntityId) }).strict();
