import type { RetentionPeriod } from '../../contracts/events/tenant';
import type { MetricFrequency, MetricType } from '../../contracts/ledger';

/**
 * The seller metrics, computed in one pass over the ledger:
 * - TOTAL_REVENUE: invoice line amounts by transaction date, in cents;
 * - TOTAL_PAID: payment amounts by payment date, in cents;
 * - AVG_DAYS_BETWEEN_PURCHASES: for each invoice, days since the same customer's previous invoice,
 *   averaged over the invoices of the period, in hundredths of a day (a customer's first has none).
 * Excluded customers count nowhere; excluded products' lines count nowhere, and an invoice with only
 * excluded lines is not a purchase. Periods are UTC: weeks start on Monday; a trailing row's
 * StartDate is the first day of its three or twelve months. Rows run without gaps from the first
 * period with data to the one holding `asOf`.
 */

const DAY_MS = 86_400_000;
export const toDay = (date: Date) => Math.floor(date.getTime() / DAY_MS);
export const dayToDate = (day: number) => new Date(day * DAY_MS);

export const monthIndexOf = (day: number) => {
  const date = dayToDate(day);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
};
export const dayOfMonthIndex = (monthIndex: number) =>
  toDay(new Date(Date.UTC(Math.floor(monthIndex / 12), monthIndex % 12, 1)));
/** The same instant `months` calendar months earlier, as a day number. */
const monthsBefore = (asOf: Date, months: number) =>
  toDay(new Date(Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth() - months, asOf.getUTCDate())));

type Sum = { sum: number; count: number };
type DailySums = Map<number, Sum>;

const add = (sums: DailySums, day: number, amount: number) => {
  const current = sums.get(day);
  if (current) {
    current.sum += amount;
    current.count += 1;
  } else sums.set(day, { sum: amount, count: 1 });
};

export type MetricInvoice = {
  customerId: number;
  transactionDate: Date;
  balance: number;
  lines: { productId: number; amount: number }[];
};
export type MetricPayment = { customerId: number; date: Date; amount: number };
export type Exclusions = { customerIds: readonly number[]; productIds: readonly number[] };

export type ComputedMetricRow = {
  type: MetricType;
  frequency: MetricFrequency;
  startDate: Date;
  value: number;
  count: number;
};

export type CustomerMetrics = {
  customerId: number;
  firstPurchase: Date;
  lastPurchase: Date;
  purchases: number;
  salesT36M: number;
  invoicesT36M: number;
  /** Hundredths of a day; null with a single purchase. */
  avgDaysBetweenPurchases: number | null;
  /** The same over the customer's last 10 gaps between invoices (admin.md section 9). */
  movingAvgDaysBetweenPurchases: number | null;
  active: boolean;
};

export type ComputedSummary = {
  retentionMonths: number;
  customersT36M: number;
  activeCustomers: number;
  invoicesT36M: number;
  invoiceSalesT36M: number;
  salesAllTime: number;
  paidAllTime: number;
  openBalance: number;
};

export type ComputedMetrics = {
  rows: ComputedMetricRow[];
  customers: CustomerMetrics[];
  summary: ComputedSummary;
};

const retentionMonthsOf: Record<Exclude<RetentionPeriod, 'AUTO'>, number> = {
  TRAILING24MONTHS: 24,
  TRAILING12MONTHS: 12,
  TRAILING3MONTHS: 3,
  TRAILING1MONTH: 1,
};

/**
 * AUTO (portal.md section 9): 3 months when 90% of customers purchase within 90 days, else 12. A
 * customer "purchases within 90 days" when its average gap between purchases is at most 90 days;
 * customers with one purchase have no gap and are left out.
 */
const autoRetentionMonths = (averageGapsInDays: readonly number[]) => {
  if (averageGapsInDays.length === 0) return 12;
  const within = averageGapsInDays.filter((days) => days <= 90).length;
  return within / averageGapsInDays.length >= 0.9 ? 3 : 12;
};

const mean = (values: readonly number[]) =>
  values.length === 0 ? null : Math.round((values.reduce((a, b) => a + b, 0) * 100) / values.length);

export const periodStartDay = (frequency: 'WEEKLY' | 'MONTHLY' | 'YEARLY', day: number) => {
  if (frequency === 'WEEKLY') return day - ((dayToDate(day).getUTCDay() + 6) % 7);
  if (frequency === 'MONTHLY') return dayOfMonthIndex(monthIndexOf(day));
  return dayOfMonthIndex(Math.floor(monthIndexOf(day) / 12) * 12);
};

export const nextPeriodDay = (frequency: 'WEEKLY' | 'MONTHLY' | 'YEARLY', start: number) => {
  if (frequency === 'WEEKLY') return start + 7;
  return dayOfMonthIndex(monthIndexOf(start) + (frequency === 'MONTHLY' ? 1 : 12));
};

type Series = { type: MetricType; daily: DailySums; value: (s: Sum) => number };

const calendarRows = (
  series: Series,
  frequency: 'WEEKLY' | 'MONTHLY' | 'YEARLY',
  range: { firstDay: number; lastDay: number },
): ComputedMetricRow[] => {
  const buckets = new Map<number, Sum>();
  for (const [day, sum] of series.daily) {
    if (day > range.lastDay) continue;
    const start = periodStartDay(frequency, day);
    const bucket = buckets.get(start) ?? { sum: 0, count: 0 };
    bucket.sum += sum.sum;
    bucket.count += sum.count;
    buckets.set(start, bucket);
  }
  const rows: ComputedMetricRow[] = [];
  const last = periodStartDay(frequency, range.lastDay);
  for (
    let start = periodStartDay(frequency, range.firstDay);
    start <= last;
    start = nextPeriodDay(frequency, start)
  ) {
    const bucket = buckets.get(start) ?? { sum: 0, count: 0 };
    rows.push({
      type: series.type,
      frequency,
      startDate: dayToDate(start),
      value: series.value(bucket),
      count: bucket.count,
    });
  }
  return rows;
};

const trailingRows = (
  series: Series,
  frequency: 'TRAILING3MONTHS' | 'TRAILING12MONTHS',
  range: { firstDay: number; lastDay: number },
): ComputedMetricRow[] => {
  const months = frequency === 'TRAILING3MONTHS' ? 3 : 12;
  const monthly = new Map<number, Sum>();
  for (const [day, sum] of series.daily) {
    if (day > range.lastDay) continue;
    const month = monthIndexOf(day);
    const bucket = monthly.get(month) ?? { sum: 0, count: 0 };
    bucket.sum += sum.sum;
    bucket.count += sum.count;
    monthly.set(month, bucket);
  }
  const rows: ComputedMetricRow[] = [];
  // One row per month that ends a window, from the first month with data to the month of asOf.
  for (let end = monthIndexOf(range.firstDay); end <= monthIndexOf(range.lastDay); end += 1) {
    const window = { sum: 0, count: 0 };
    for (let month = end - months + 1; month <= end; month += 1) {
      window.sum += monthly.get(month)?.sum ?? 0;
      window.count += monthly.get(month)?.count ?? 0;
    }
    const startDate = dayToDate(dayOfMonthIndex(end - months + 1));
    rows.push({ type: series.type, frequency, startDate, value: series.value(window), count: window.count });
  }
  return rows;
};

/** Accumulates the ledger record by record (in any order), then computes everything at once. */
export const createMetricsAccumulator = (exclusions: Exclusions) => {
  const excludedCustomers = new Set(exclusions.customerIds);
  const excludedProducts = new Set(exclusions.productIds);
  /** Per customer, its purchases as day numbers and revenue, in arrival order. */
  const purchases = new Map<number, { days: number[]; revenue: number[] }>();
  const paid: DailySums = new Map();
  let openBalance = 0;
  let firstDay = Number.POSITIVE_INFINITY;

  return {
    addInvoice: (invoice: MetricInvoice) => {
      if (excludedCustomers.has(invoice.customerId)) return;
      openBalance += invoice.balance;
      const counted = invoice.lines.filter((line) => !excludedProducts.has(line.productId));
      if (counted.length === 0) return;
      const day = toDay(invoice.transactionDate);
      firstDay = Math.min(firstDay, day);
      const customer = purchases.get(invoice.customerId) ?? { days: [], revenue: [] };
      customer.days.push(day);
      customer.revenue.push(counted.reduce((sum, line) => sum + line.amount, 0));
      purchases.set(invoice.customerId, customer);
    },
    addPayment: (payment: MetricPayment) => {
      if (excludedCustomers.has(payment.customerId)) return;
      const day = toDay(payment.date);
      firstDay = Math.min(firstDay, day);
      add(paid, day, payment.amount);
    },
    compute: (options: { asOf: Date; retention: RetentionPeriod }): ComputedMetrics => {
      const lastDay = toDay(options.asOf);
      const t36Day = monthsBefore(options.asOf, 36);
      const revenue: DailySums = new Map();
      const gaps: DailySums = new Map();
      const perCustomer: Omit<CustomerMetrics, 'active'>[] = [];
      const averageGaps: number[] = [];
      const summary = { salesAllTime: 0, invoicesT36M: 0, invoiceSalesT36M: 0, customersT36M: 0 };
      for (const [customerId, history] of purchases) {
        const order = history.days
          .map((_, i) => i)
          .sort((a, b) => (history.days[a] ?? 0) - (history.days[b] ?? 0));
        const days = order.map((i) => history.days[i] ?? 0);
        const amounts = order.map((i) => history.revenue[i] ?? 0);
        const customerGaps: number[] = [];
        let salesT36M = 0;
        let invoicesT36M = 0;
        days.forEach((day, i) => {
          if (day > lastDay) return;
          const amount = amounts[i] ?? 0;
          add(revenue, day, amount);
          summary.salesAllTime += amount;
          if (day > t36Day) {
            salesT36M += amount;
            invoicesT36M += 1;
          }
          if (i > 0) {
            const gap = day - (days[i - 1] ?? day);
            customerGaps.push(gap);
            add(gaps, day, gap);
          }
        });
        const kept = days.filter((day) => day <= lastDay);
        if (kept.length === 0) continue;
        summary.invoicesT36M += invoicesT36M;
        summary.invoiceSalesT36M += salesT36M;
        if (invoicesT36M > 0) summary.customersT36M += 1;
        const average = mean(customerGaps);
        if (average !== null) averageGaps.push(average / 100);
        perCustomer.push({
          customerId,
          firstPurchase: dayToDate(kept[0] ?? 0),
          lastPurchase: dayToDate(kept[kept.length - 1] ?? 0),
          purchases: kept.length,
          salesT36M,
          invoicesT36M,
          avgDaysBetweenPurchases: average,
          movingAvgDaysBetweenPurchases: mean(customerGaps.slice(-10)),
        });
      }
      const retentionMonths =
        options.retention === 'AUTO'
          ? autoRetentionMonths(averageGaps)
          : retentionMonthsOf[options.retention];
      const activeSince = monthsBefore(options.asOf, retentionMonths);
      const customers = perCustomer
        .map((c) => ({ ...c, active: toDay(c.lastPurchase) > activeSince }))
        .sort((a, b) => a.customerId - b.customerId);

      const series: Series[] = [
        { type: 'TOTAL_REVENUE', daily: revenue, value: (s) => s.sum },
        { type: 'TOTAL_PAID', daily: paid, value: (s) => s.sum },
        {
          type: 'AVG_DAYS_BETWEEN_PURCHASES',
          daily: gaps,
          value: (s) => (s.count === 0 ? 0 : Math.round((s.sum * 100) / s.count)),
        },
      ];
      const range = { firstDay: Math.min(firstDay, lastDay), lastDay };
      const rows = Number.isFinite(firstDay)
        ? series.flatMap((s) => [
            ...(['WEEKLY', 'MONTHLY', 'YEARLY'] as const).flatMap((f) => calendarRows(s, f, range)),
            ...(['TRAILING3MONTHS', 'TRAILING12MONTHS'] as const).flatMap((f) => trailingRows(s, f, range)),
          ])
        : [];
      let paidAllTime = 0;
      for (const [day, sum] of paid) if (day <= lastDay) paidAllTime += sum.sum;
      return {
        rows,
        customers,
        summary: {
          retentionMonths,
          customersT36M: summary.customersT36M,
          activeCustomers: customers.filter((c) => c.active).length,
          invoicesT36M: summary.invoicesT36M,
          invoiceSalesT36M: summary.invoiceSalesT36M,
          salesAllTime: summary.salesAllTime,
          paidAllTime,
          openBalance,
        },
      };
    },
  };
};
