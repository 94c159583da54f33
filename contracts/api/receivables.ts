import { z } from 'zod';
import { IsoDateTime } from '../events/values';

/**
 * The receivables read API of issue 15: a seller's customers table, its aging as of a date, and one
 * customer's invoices (the customer transaction chart). Money is in integer cents; day figures are
 * plain days (two decimals), not the hundredths of metric rows. Formulas:
 * docs/adr/0030-receivables-metrics.md.
 */

const SellerId = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31);
const Cents = z.int();
/** A date in a query string: `2024-06-30` (the end of that UTC day) or a full ISO instant. */
const QueryDate = z
  .string()
  .trim()
  .max(40)
  .refine((text) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text), 'expected a date')
  .transform((text) =>
    /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T23:59:59.999Z`) : new Date(text),
  )
  .refine((date) => !Number.isNaN(date.getTime()), 'expected a valid date');

export const AgingBucket = z.enum(['current', '1-30', '31-60', '61-90', 'over-90']);
export type AgingBucket = z.infer<typeof AgingBucket>;

/** Open amounts by days past due; `current` is not yet due (due today counts as current). */
export const Aging = z.object({
  current: Cents,
  days1To30: Cents,
  days31To60: Cents,
  days61To90: Cents,
  over90: Cents,
});
export type Aging = z.infer<typeof Aging>;

/**
 * Risk from the overdue share of the open balance and the amount-weighted days past due of the
 * overdue part: high when the share is at least 50% or the days late exceed 60; medium when the
 * share is at least 20% or the days late exceed 30; low otherwise (and without an open balance).
 */
export const RiskLevel = z.enum(['low', 'medium', 'high']);
export type RiskLevel = z.infer<typeof RiskLevel>;

export const SellerParams = z.object({ sellerId: SellerId }).strict();

// ---- GET /api/sellers/{sellerId}/customers ----

export const CustomerSortColumn = z.enum([
  'customerId',
  'name',
  'salesT36M',
  'openBalance',
  'overdue',
  'dsoDays',
  'movingAvgDbtDays',
  'lastPurchase',
  'averageDaysLate',
  'risk',
]);
export type CustomerSortColumn = z.infer<typeof CustomerSortColumn>;

export const SellerCustomersQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(25),
    sort: CustomerSortColumn.default('openBalance'),
    order: z.enum(['asc', 'desc']).default('desc'),
    /** Case-insensitive part of the customer's name. */
    search: z.string().trim().max(100).optional(),
  })
  .strict();
export type SellerCustomersQuery = z.infer<typeof SellerCustomersQuery>;

/** One customer's figures as of the seller's last metrics run (excluded customers are not listed). */
export const SellerCustomerRow = z.object({
  customerId: z.number(),
  name: z.string(),
  email: z.string().nullable(),
  /** Invoice sales in the 36 months before the run's date (excluded products left out). */
  salesT36M: Cents,
  invoicesT36M: z.number(),
  openBalance: Cents,
  /** The open balance past its due date. */
  overdue: Cents,
  aging: Aging,
  /** Standard DSO over the trailing 12 months (its months up to the run's date); null without sales there. */
  dsoDays: z.number().nullable(),
  /** Mean of the customer's last 10 gaps between invoices; null with fewer than two invoices. */
  movingAvgDbtDays: z.number().nullable(),
  lastPurchase: IsoDateTime.nullable(),
  /** Amount-weighted days past due of the overdue balance; null when nothing is overdue. */
  averageDaysLate: z.number().nullable(),
  risk: RiskLevel,
});
export type SellerCustomerRow = z.infer<typeof SellerCustomerRow>;

export const SellerCustomersResponse = z.object({
  sellerId: z.number(),
  /** The date the figures describe (the run's CollectionDate); null before the first metrics run. */
  asOf: IsoDateTime.nullable(),
  page: z.number(),
  pageSize: z.number(),
  /** Customers matching the search. */
  total: z.number(),
  rows: z.array(SellerCustomerRow),
});
export type SellerCustomersResponse = z.infer<typeof SellerCustomersResponse>;

// ---- GET /api/sellers/{sellerId}/aging?asOf= ----

export const SellerAgingQuery = z
  .object({
    /** Defaults to the seller's CollectionDate (or now before its first sync). */
    asOf: QueryDate.optional(),
    /** Only this customer's invoices. */
    customerId: z.coerce
      .number()
      .int()
      .positive()
      .max(2 ** 31)
      .optional(),
  })
  .strict();
export type SellerAgingQuery = z.infer<typeof SellerAgingQuery>;

export const SellerAgingResponse = z.object({
  sellerId: z.number(),
  customerId: z.number().nullable(),
  asOf: IsoDateTime,
  /** In bucket order: current, 1-30, 31-60, 61-90, over-90. */
  buckets: z.array(z.object({ bucket: AgingBucket, amount: Cents, invoices: z.number() })),
  total: z.object({ amount: Cents, invoices: z.number(), overdue: Cents }),
});
export type SellerAgingResponse = z.infer<typeof SellerAgingResponse>;

// ---- GET /api/assets/{id}?sellerId=&startDate=&endDate= ----

/** `id` is the customer's id within its seller (the ledger's customerId), so the seller is required. */
export const AssetParams = z
  .object({
    id: z.coerce
      .number()
      .int()
      .positive()
      .max(2 ** 31),
  })
  .strict();

export const AssetQuery = z
  .object({
    sellerId: SellerId,
    /** Invoices dated on or after this day (default: the first). */
    startDate: QueryDate.optional(),
    /** Invoices dated on or before this day (default: the last). */
    endDate: QueryDate.optional(),
  })
  .strict();
export type AssetQuery = z.infer<typeof AssetQuery>;

export const AssetInvoice = z.object({
  providerId: z.string(),
  docNumber: z.string(),
  transactionDate: IsoDateTime,
  dueDate: IsoDateTime,
  amount: Cents,
  /** Still owed as of the seller's CollectionDate. */
  balance: Cents,
  /** The day the balance reached zero through payments and credit memos; null while open. */
  paidDate: IsoDateTime.nullable(),
  /** Days since the customer's previous invoice (over its whole history); null for its first. */
  daysSincePrevious: z.number().nullable(),
  /** Mean of the last up to 10 gaps ending at this invoice; null for the first. */
  movingAvgDbtDays: z.number().nullable(),
});
export type AssetInvoice = z.infer<typeof AssetInvoice>;

export const AssetResponse = z.object({
  sellerId: z.number(),
  customerId: z.number(),
  name: z.string(),
  email: z.string().nullable(),
  /** True when the seller's exclusions.CustomerIds leaves the customer out of every metric. */
  excluded: z.boolean(),
  /** Oldest first. */
  invoices: z.array(AssetInvoice),
});
export type AssetResponse = z.infer<typeof AssetResponse>;
