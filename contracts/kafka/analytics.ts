import { z } from 'zod';
import { EntityId } from '../events/values';

/**
 * What the analytics process keeps from the ledger feed (docs/analytics.md, docs/adr/0041): per
 * seller, weekly and monthly figures; per seller, the monthly counts the platform totals add up.
 * Money is integer cents; days are UTC; weeks start on Monday, as the metric rows'.
 */

/** The analytics consumers' group (under KAFKA_TOPIC_PREFIX, so test runs never share one). */
export const analyticsGroupId = (prefix: string) => `${prefix}.analytics.ledger-facts.v1`;

/** A customer with no invoice for this many days is lost on the day they have passed. */
export const LOST_CUSTOMER_DAYS = 365;

const Cents = z.int();
const Count = z.int().nonnegative();
const IsoDay = z.iso.date();

export const AnalyticsFrequency = z.enum(['WEEKLY', 'MONTHLY']);
export type AnalyticsFrequency = z.infer<typeof AnalyticsFrequency>;

/** One period of one seller (data sets seller_analytics_weekly and seller_analytics_monthly). */
export const SellerAnalyticsRow = z.object({
  sellerId: EntityId,
  frequency: AnalyticsFrequency,
  /** The period's first day (a Monday for weeks). */
  startDate: IsoDay,
  /** Its last day, or the seller's as-of day for the period that holds it. */
  endDate: IsoDay,
  /** Invoice amounts dated in the period. */
  revenue: Cents,
  /** Payment amounts dated in the period. */
  collections: Cents,
  /** Invoices dated in the period. */
  invoices: Count,
  /** Distinct customers invoiced in the period. */
  customers: Count,
  /** Customers whose first invoice is in the period. */
  newCustomers: Count,
  /** Customers lost in the period: LOST_CUSTOMER_DAYS after their last invoice, on or before asOf. */
  lostCustomers: Count,
  /** Receivables open at endDate (docs/adr/0030: balance plus later applications). */
  openReceivables: Cents,
  /** openReceivables / revenue x days, in hundredths of a day; null without sales. */
  dso: z.int().nullable(),
});
export type SellerAnalyticsRow = z.infer<typeof SellerAnalyticsRow>;

/** Per seller, per calendar month (`YYYY-MM`): what the platform's T36M and all-time totals add. */
export const SellerMonthTotals = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/),
  invoices: Count,
  sales: Cents,
  /** Customers whose last invoice falls in this month (a customer counts in T36M if it is inside). */
  lastInvoicedCustomers: Count,
});
export type SellerMonthTotals = z.infer<typeof SellerMonthTotals>;

/** The platform totals the statistics screen and overview cards show (GET /api/stats). */
export const PlatformLedgerTotals = z.object({
  /** Customers with an invoice in the trailing 36 calendar months (the current one included). */
  customers: Count,
  /** Invoices dated in those months. */
  invoices: Count,
  /** Their amounts, in cents. */
  invoiceRevenue: Cents,
  /** Every invoice amount ever, in cents. */
  salesAllTime: Cents,
});
export type PlatformLedgerTotals = z.infer<typeof PlatformLedgerTotals>;
