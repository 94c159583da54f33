import { z } from 'zod';
import { EntityId, IsoDateTime } from './events/values';

/**
 * The receivables ledger a sync copies from a seller's platform into MongoDB, and the metric rows
 * computed from it. Amounts are integer cents (admin.md section 9); dates are UTC instants. Every
 * record is keyed by (sellerId, providerId): the provider's own id, so a re-fetched record replaces
 * its earlier copy instead of duplicating it.
 */

const Cents = z.int();
/** The seller-scoped integer id shown in the UI and used by the exclusion flags (exclusions.CustomerIds). */
const LedgerId = z.int().positive();
const ProviderId = z.string().min(1);

const keyed = { sellerId: EntityId, providerId: ProviderId };

export const LedgerEntity = z.enum(['customers', 'products', 'invoices', 'payments', 'creditMemos']);
export type LedgerEntity = z.infer<typeof LedgerEntity>;

export const PaymentHabit = z.enum(['prompt', 'slow', 'erratic', 'seasonal']);
export type PaymentHabit = z.infer<typeof PaymentHabit>;

export const LedgerCustomer = z.object({
  ...keyed,
  customerId: LedgerId,
  name: z.string().min(1),
  email: z.string().nullable(),
  createdAt: z.date(),
  /** DEMO only: how the generated customer pays; null for real platforms. */
  habit: PaymentHabit.nullable(),
});
export type LedgerCustomer = z.infer<typeof LedgerCustomer>;

export const LedgerProduct = z.object({
  ...keyed,
  productId: LedgerId,
  name: z.string().min(1),
  unitPrice: Cents,
});
export type LedgerProduct = z.infer<typeof LedgerProduct>;

export const InvoiceLine = z.object({ productId: LedgerId, quantity: z.int().positive(), amount: Cents });
export type InvoiceLine = z.infer<typeof InvoiceLine>;

export const LedgerInvoice = z.object({
  ...keyed,
  customerId: LedgerId,
  docNumber: z.string().min(1),
  transactionDate: z.date(),
  dueDate: z.date(),
  /** The sum of the lines. */
  amount: Cents,
  /** What is still owed as of the sync's collection date: amount less payments and credits applied. */
  balance: Cents,
  lines: z.array(InvoiceLine).min(1),
});
export type LedgerInvoice = z.infer<typeof LedgerInvoice>;

/** How much of a payment or credit went to which invoice. */
export const Application = z.object({ invoiceProviderId: ProviderId, amount: Cents });
export type Application = z.infer<typeof Application>;

export const LedgerPayment = z.object({
  ...keyed,
  customerId: LedgerId,
  date: z.date(),
  amount: Cents,
  applications: z.array(Application),
});
export type LedgerPayment = z.infer<typeof LedgerPayment>;

export const LedgerCreditMemo = z.object({
  ...keyed,
  customerId: LedgerId,
  date: z.date(),
  amount: Cents,
  applications: z.array(Application),
});
export type LedgerCreditMemo = z.infer<typeof LedgerCreditMemo>;

export type LedgerRecordOf = {
  customers: LedgerCustomer;
  products: LedgerProduct;
  invoices: LedgerInvoice;
  payments: LedgerPayment;
  creditMemos: LedgerCreditMemo;
};

/**
 * A transaction the platform deleted (or voided): the writer removes its stored row and the ledger
 * feed carries a tombstone for it (docs/adr/0043-accounting-connectors.md, Deletes).
 */
export const LedgerDeletion = z.object({
  entity: z.enum(['invoices', 'payments', 'creditMemos']),
  sellerId: EntityId,
  providerId: ProviderId,
});
export type LedgerDeletion = z.infer<typeof LedgerDeletion>;

/**
 * One page of a connector's answer: records of every entity, in any mix, and the deletions. A record
 * a page both writes and deletes is deleted.
 */
export type LedgerPage = { [E in LedgerEntity]: LedgerRecordOf[E][] } & { deletions?: LedgerDeletion[] };

export const emptyLedgerPage = (): LedgerPage => ({
  customers: [],
  products: [],
  invoices: [],
  payments: [],
  creditMemos: [],
});

/**
 * Metric types with their numeric codes. The first three are admin.md section 3's; the receivables
 * metrics of issue 15 take free powers of two between them (docs/adr/0030-receivables-metrics.md
 * gives every formula). Units: DSO-like types and moving-average DBT in hundredths of a day,
 * COLLECTION_EFFECTIVENESS_INDEX in hundredths of a percent, AGING_* in cents open at the period's end.
 */
export const MetricType = z.enum([
  'TOTAL_REVENUE',
  'TOTAL_PAID',
  'AVG_DAYS_BETWEEN_PURCHASES',
  'DSO',
  'DSO_COUNTBACK',
  'BEST_POSSIBLE_DSO',
  'AVG_DAYS_DELINQUENT',
  'COLLECTION_EFFECTIVENESS_INDEX',
  'AGING_CURRENT',
  'AGING_1_30',
  'AGING_31_60',
  'AGING_61_90',
  'AGING_OVER_90',
  'MOVING_AVG_DAYS_BETWEEN_TRANSACTIONS',
]);
export type MetricType = z.infer<typeof MetricType>;
export const metricTypeCodes: Record<MetricType, number> = {
  TOTAL_REVENUE: 0,
  TOTAL_PAID: 16,
  AVG_DAYS_BETWEEN_PURCHASES: 1073741824,
  DSO: 32,
  DSO_COUNTBACK: 64,
  BEST_POSSIBLE_DSO: 128,
  AVG_DAYS_DELINQUENT: 256,
  COLLECTION_EFFECTIVENESS_INDEX: 512,
  AGING_CURRENT: 1024,
  AGING_1_30: 2048,
  AGING_31_60: 4096,
  AGING_61_90: 8192,
  AGING_OVER_90: 16384,
  MOVING_AVG_DAYS_BETWEEN_TRANSACTIONS: 32768,
};
/** The receivables metric types (issue 15), beside the three of the spec. */
export const receivablesMetricTypes = MetricType.options.slice(3) as readonly MetricType[];

export const MetricFrequency = z.enum(['WEEKLY', 'MONTHLY', 'YEARLY', 'TRAILING3MONTHS', 'TRAILING12MONTHS']);
export type MetricFrequency = z.infer<typeof MetricFrequency>;

/**
 * One period of one metric. `Value` is in hundredths, as the UI divides by 100: cents for the money
 * metrics, hundredths of a day for AVG_DAYS_BETWEEN_PURCHASES. `Count` is how many records went in.
 * A ratio with nothing to divide by (DSO of a period without sales, CEI with a zero denominator)
 * has Value 0 and Count 0: read Count 0 as "no value" for DSO, BEST_POSSIBLE_DSO,
 * AVG_DAYS_DELINQUENT and COLLECTION_EFFECTIVENESS_INDEX.
 */
export const MetricRow = z.object({
  StartDate: IsoDateTime,
  Value: z.int(),
  Count: z.int().nonnegative(),
});
export type MetricRow = z.infer<typeof MetricRow>;

/** The per-seller figures of the admin overview and the seller's CustomerCount.T36M. */
export const SellerMetricSummary = z.object({
  sellerId: EntityId,
  tenantId: EntityId,
  asOf: IsoDateTime,
  /** The tenant's retention period resolved to months (AUTO becomes 3 or 12). */
  retentionMonths: z.int().positive(),
  customersT36M: z.int().nonnegative(),
  /** Customers who bought within the retention period before asOf. */
  activeCustomers: z.int().nonnegative(),
  invoicesT36M: z.int().nonnegative(),
  invoiceSalesT36M: Cents,
  salesAllTime: Cents,
  paidAllTime: Cents,
  openBalance: Cents,
});
export type SellerMetricSummary = z.infer<typeof SellerMetricSummary>;
