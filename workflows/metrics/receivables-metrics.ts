import type { MetricFrequency, MetricType } from '../../contracts/ledger';
import {
  dayOfMonthIndex,
  dayToDate,
  monthIndexOf,
  nextPeriodDay,
  periodStartDay,
  toDay,
  type ComputedMetricRow,
  type Exclusions,
} from './compute-metrics';

/**
 * The receivables metrics of issue 15, computed in one pass over a seller's (or one customer's)
 * invoices, payments and credit memos. The formulas, rounding and edge cases are those of
 * docs/adr/0030-receivables-metrics.md; in short, for a period from `start` to its last day `L`:
 * DSO = AR(L) / Sales x days, BEST_POSSIBLE_DSO = CurrentAR(L) / Sales x days,
 * AVG_DAYS_DELINQUENT = their difference, CEI = (AR(start-1) + Sales - AR(L)) /
 * (AR(start-1) + Sales - CurrentAR(L)) x 100, DSO_COUNTBACK walks back through weeks or months of
 * sales until AR(L) is used up, AGING_* bucket AR(L) by days past due, and
 * MOVING_AVG_DAYS_BETWEEN_TRANSACTIONS averages each invoice's mean of its customer's last 10 gaps.
 * An invoice's open balance at the end of day D is its collected balance plus what payments and
 * credit memos dated after D applied to it.
 */

export type ReceivableInvoice = {
  customerId: number;
  providerId: string;
  transactionDate: Date;
  dueDate: Date;
  amount: number;
  balance: number;
  lines: { productId: number; amount: number }[];
};

/** A payment or a credit memo: both settle invoices through their applications. */
export type Settlement = {
  customerId: number;
  date: Date;
  applications: { invoiceProviderId: string; amount: number }[];
};

export const agingBuckets = ['current', '1-30', '31-60', '61-90', 'over-90'] as const;
export type AgingBucketName = (typeof agingBuckets)[number];
const agingTypes: MetricType[] = [
  'AGING_CURRENT',
  'AGING_1_30',
  'AGING_31_60',
  'AGING_61_90',
  'AGING_OVER_90',
];

/** 0 current (not yet due, due today included), 1: 1-30, 2: 31-60, 3: 61-90, 4: over 90 days past due. */
export const agingBucketOf = (daysPastDue: number) =>
  daysPastDue <= 0 ? 0 : daysPastDue <= 30 ? 1 : daysPastDue <= 60 ? 2 : daysPastDue <= 90 ? 3 : 4;

/** What one customer owes at the as-of day, and its trailing-12-month DSO. */
export type CustomerReceivables = {
  customerId: number;
  openBalance: number;
  overdue: number;
  /** Cents by bucket, in agingBuckets order. */
  aging: [number, number, number, number, number];
  /** Days, two decimals; null without sales in the trailing 12 months. */
  dsoDays: number | null;
  /** Amount-weighted days past due of the overdue balance, two decimals; null when nothing is overdue. */
  averageDaysLate: number | null;
};

export type ComputedReceivables = { rows: ComputedMetricRow[]; customers: CustomerReceivables[] };

type Kept = {
  customerId: number;
  day: number;
  dueDay: number;
  amount: number;
  balance: number;
  /** Settled amounts by day, from payments and credit memos. */
  applied: Map<number, number>;
};

/** Open balance segments of an invoice: `value` from `from` up to (not including) the next segment. */
const segmentsOf = (invoice: Kept): { from: number; value: number }[] => {
  const days = [...invoice.applied.keys()].filter((day) => day > invoice.day).sort((a, b) => a - b);
  let value = invoice.balance + days.reduce((sum, day) => sum + (invoice.applied.get(day) ?? 0), 0);
  const segments = [{ from: invoice.day, value }];
  for (const day of days) {
    value -= invoice.applied.get(day) ?? 0;
    segments.push({ from: day, value });
  }
  return segments;
};

type Snapshot = { sums: number[]; counts: number[] };
const emptySnapshot = (): Snapshot => ({ sums: [0, 0, 0, 0, 0], counts: [0, 0, 0, 0, 0] });
const total = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The period a row covers: from `start` to `last` (the as-of day for the period that holds it). */
type Period = { start: number; last: number };

const periodsOf = (frequency: MetricFrequency, range: { firstDay: number; lastDay: number }): Period[] => {
  const periods: Period[] = [];
  if (frequency === 'TRAILING3MONTHS' || frequency === 'TRAILING12MONTHS') {
    const months = frequency === 'TRAILING3MONTHS' ? 3 : 12;
    for (let end = monthIndexOf(range.firstDay); end <= monthIndexOf(range.lastDay); end += 1)
      periods.push({
        start: dayOfMonthIndex(end - months + 1),
        last: Math.min(dayOfMonthIndex(end + 1) - 1, range.lastDay),
      });
    return periods;
  }
  const lastStart = periodStartDay(frequency, range.lastDay);
  for (
    let start = periodStartDay(frequency, range.firstDay);
    start <= lastStart;
    start = nextPeriodDay(frequency, start)
  )
    periods.push({ start, last: Math.min(nextPeriodDay(frequency, start) - 1, range.lastDay) });
  return periods;
};

const frequencies: MetricFrequency[] = ['WEEKLY', 'MONTHLY', 'YEARLY', 'TRAILING3MONTHS', 'TRAILING12MONTHS'];

/** Sales by day, summed over any range of days by binary search on prefix sums. */
const salesIndex = (daily: Map<number, { sum: number; count: number }>) => {
  const days = [...daily.keys()].sort((a, b) => a - b);
  const sums = [0];
  const counts = [0];
  for (const day of days) {
    sums.push((sums.at(-1) ?? 0) + (daily.get(day)?.sum ?? 0));
    counts.push((counts.at(-1) ?? 0) + (daily.get(day)?.count ?? 0));
  }
  /** How many days are <= day. */
  const upTo = (day: number) => {
    let low = 0;
    let high = days.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((days[mid] ?? 0) <= day) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  return (from: number, to: number) => {
    const a = upTo(from - 1);
    const b = upTo(to);
    return { sum: (sums[b] ?? 0) - (sums[a] ?? 0), count: (counts[b] ?? 0) - (counts[a] ?? 0) };
  };
};

const hundredths = (numerator: number, denominator: number) => Math.round((numerator * 100) / denominator);
const twoDecimals = (numerator: number, denominator: number) => hundredths(numerator, denominator) / 100;

/** Least common multiple of 1..10: a mean of up to 10 whole-day gaps is a whole number of these. */
const GAP_UNITS = 2520;

/** Accumulates the ledger record by record (in any order), then computes everything at once. */
export const createReceivablesAccumulator = (exclusions: Exclusions) => {
  const excludedCustomers = new Set(exclusions.customerIds);
  const excludedProducts = new Set(exclusions.productIds);
  const invoices = new Map<string, Kept>();
  /** Per customer, its purchase days (for days between transactions). */
  const purchaseDays = new Map<number, number[]>();
  /** Applications seen before their invoice, or to invoices never seen. */
  const pending = new Map<string, { day: number; amount: number }[]>();
  let firstDay = Number.POSITIVE_INFINITY;

  const apply = (invoice: Kept, day: number, amount: number) =>
    invoice.applied.set(day, (invoice.applied.get(day) ?? 0) + amount);

  const addSettlement = (settlement: Settlement, countsForRange: boolean) => {
    if (excludedCustomers.has(settlement.customerId)) return;
    const day = toDay(settlement.date);
    if (countsForRange) firstDay = Math.min(firstDay, day);
    for (const application of settlement.applications) {
      const invoice = invoices.get(application.invoiceProviderId);
      if (invoice) apply(invoice, day, application.amount);
      else {
        const waiting = pending.get(application.invoiceProviderId) ?? [];
        waiting.push({ day, amount: application.amount });
        pending.set(application.invoiceProviderId, waiting);
      }
    }
  };

  return {
    addInvoice: (invoice: ReceivableInvoice) => {
      if (excludedCustomers.has(invoice.customerId)) return;
      if (invoice.lines.every((line) => excludedProducts.has(line.productId))) return;
      const day = toDay(invoice.transactionDate);
      firstDay = Math.min(firstDay, day);
      const kept: Kept = {
        customerId: invoice.customerId,
        day,
        dueDay: toDay(invoice.dueDate),
        amount: invoice.amount,
        balance: invoice.balance,
        applied: new Map(),
      };
      invoices.set(invoice.providerId, kept);
      for (const waiting of pending.get(invoice.providerId) ?? []) apply(kept, waiting.day, waiting.amount);
      pending.delete(invoice.providerId);
      const days = purchaseDays.get(invoice.customerId) ?? [];
      days.push(day);
      purchaseDays.set(invoice.customerId, days);
    },
    /** Payments also start the rows' range, as for TOTAL_PAID. */
    addPayment: (payment: Settlement) => addSettlement(payment, true),
    addCreditMemo: (creditMemo: Settlement) => addSettlement(creditMemo, false),

    compute: (options: { asOf: Date }): ComputedReceivables => {
      const lastDay = toDay(options.asOf);
      const kept = [...invoices.values()].filter((invoice) => invoice.day <= lastDay);
      const customers = receivablesPerCustomer(kept, lastDay);
      if (!Number.isFinite(firstDay)) return { rows: [], customers };
      const range = { firstDay: Math.min(firstDay, lastDay), lastDay };

      const periods = new Map(frequencies.map((frequency) => [frequency, periodsOf(frequency, range)]));
      // The days whose open balances the rows need: every period's last day and the day before it.
      const evaluationDays = [
        ...new Set([...periods.values()].flatMap((list) => list.flatMap((p) => [p.start - 1, p.last]))),
      ].sort((a, b) => a - b);
      const snapshots = new Map(evaluationDays.map((day) => [day, emptySnapshot()]));
      const firstEvaluationAtOrAfter = (day: number) => {
        let low = 0;
        let high = evaluationDays.length;
        while (low < high) {
          const mid = (low + high) >> 1;
          if ((evaluationDays[mid] ?? 0) < day) low = mid + 1;
          else high = mid;
        }
        return low;
      };
      const salesDaily = new Map<number, { sum: number; count: number }>();
      for (const invoice of kept) {
        const sales = salesDaily.get(invoice.day) ?? { sum: 0, count: 0 };
        sales.sum += invoice.amount;
        sales.count += 1;
        salesDaily.set(invoice.day, sales);
        const segments = segmentsOf(invoice);
        segments.forEach((segment, i) => {
          if (segment.value === 0) return;
          const until = segments[i + 1]?.from ?? Number.POSITIVE_INFINITY;
          for (let e = firstEvaluationAtOrAfter(segment.from); e < evaluationDays.length; e += 1) {
            const day = evaluationDays[e] ?? 0;
            if (day >= until) break;
            const snapshot = snapshots.get(day) ?? emptySnapshot();
            const bucket = agingBucketOf(day - invoice.dueDay);
            snapshot.sums[bucket] = (snapshot.sums[bucket] ?? 0) + segment.value;
            snapshot.counts[bucket] = (snapshot.counts[bucket] ?? 0) + 1;
          }
        });
      }
      const salesIn = salesIndex(salesDaily);
      const snapshotAt = (day: number) => snapshots.get(day) ?? emptySnapshot();
      const movingAverages = movingAverageDaily(purchaseDays, lastDay);

      /** Countback DSO at `last`: weeks for WEEKLY rows, calendar months otherwise. */
      const countback = (frequency: MetricFrequency, last: number, receivable: number) => {
        let remaining = receivable;
        let days = 0;
        let steps = 0;
        let stepStart =
          frequency === 'WEEKLY' ? periodStartDay('WEEKLY', last) : periodStartDay('MONTHLY', last);
        let stepEnd = last;
        while (remaining > 0 && stepEnd >= range.firstDay) {
          const stepDays = stepEnd - stepStart + 1;
          const sales = salesIn(stepStart, stepEnd).sum;
          steps += 1;
          if (sales > 0 && remaining <= sales)
            return { value: hundredths(days * sales + remaining * stepDays, sales), count: steps };
          remaining -= sales;
          days += stepDays;
          stepEnd = stepStart - 1;
          stepStart = frequency === 'WEEKLY' ? stepStart - 7 : dayOfMonthIndex(monthIndexOf(stepStart) - 1);
        }
        return { value: days * 100, count: steps };
      };

      const rows: ComputedMetricRow[] = [];
      for (const frequency of frequencies) {
        for (const { start, last } of periods.get(frequency) ?? []) {
          const startDate = dayToDate(start);
          const row = (type: MetricType, value: number, count: number) =>
            rows.push({ type, frequency, startDate, value, count });
          const days = last - start + 1;
          const sales = salesIn(start, last);
          const end = snapshotAt(last);
          const begin = snapshotAt(start - 1);
          const receivable = total(end.sums);
          const current = end.sums[0] ?? 0;
          const defined = sales.sum !== 0;
          row('DSO', defined ? hundredths(receivable * days, sales.sum) : 0, defined ? sales.count : 0);
          const back = countback(frequency, last, receivable);
          row('DSO_COUNTBACK', back.value, back.count);
          row(
            'BEST_POSSIBLE_DSO',
            defined ? hundredths(current * days, sales.sum) : 0,
            defined ? sales.count : 0,
          );
          row(
            'AVG_DAYS_DELINQUENT',
            defined ? hundredths((receivable - current) * days, sales.sum) : 0,
            defined ? sales.count : 0,
          );
          const beginning = total(begin.sums);
          const denominator = beginning + sales.sum - current;
          row(
            'COLLECTION_EFFECTIVENESS_INDEX',
            denominator === 0 ? 0 : hundredths((beginning + sales.sum - receivable) * 100, denominator),
            denominator === 0 ? 0 : total(begin.counts) + sales.count,
          );
          agingTypes.forEach((type, bucket) => row(type, end.sums[bucket] ?? 0, end.counts[bucket] ?? 0));
          let units = 0;
          let counted = 0;
          for (const [day, sum] of movingAverages)
            if (day >= start && day <= last) {
              units += sum.units;
              counted += sum.count;
            }
          row(
            'MOVING_AVG_DAYS_BETWEEN_TRANSACTIONS',
            counted === 0 ? 0 : hundredths(units, GAP_UNITS * counted),
            counted,
          );
        }
      }
      return { rows, customers };
    },
  };
};

/**
 * Per day, the sum of the moving averages (in 1/2520 days) of the invoices dated that day and how
 * many: each invoice's value is the mean of its customer's last up to 10 gaps ending at it.
 */
const movingAverageDaily = (purchaseDays: Map<number, number[]>, lastDay: number) => {
  const daily = new Map<number, { units: number; count: number }>();
  for (const unsorted of purchaseDays.values()) {
    const days = unsorted.filter((day) => day <= lastDay).sort((a, b) => a - b);
    const gaps = days.slice(1).map((day, i) => day - (days[i] ?? day));
    gaps.forEach((_, i) => {
      const window = gaps.slice(Math.max(0, i - 9), i + 1);
      const day = days[i + 1] ?? 0;
      const sum = daily.get(day) ?? { units: 0, count: 0 };
      sum.units += (total(window) * GAP_UNITS) / window.length;
      sum.count += 1;
      daily.set(day, sum);
    });
  }
  return daily;
};

/** Each customer's open balance, overdue, aging and trailing-12-month DSO at the as-of day. */
const receivablesPerCustomer = (kept: Kept[], lastDay: number): CustomerReceivables[] => {
  const windowStart = dayOfMonthIndex(monthIndexOf(lastDay) - 11);
  const days = lastDay - windowStart + 1;
  const byCustomer = new Map<number, { aging: number[]; sales: number; lateWeighted: number }>();
  for (const invoice of kept) {
    const figures = byCustomer.get(invoice.customerId) ?? {
      aging: [0, 0, 0, 0, 0],
      sales: 0,
      lateWeighted: 0,
    };
    if (invoice.day >= windowStart) figures.sales += invoice.amount;
    let open = invoice.balance;
    for (const [day, amount] of invoice.applied) if (day > lastDay && day > invoice.day) open += amount;
    const pastDue = lastDay - invoice.dueDay;
    const bucket = agingBucketOf(pastDue);
    figures.aging[bucket] = (figures.aging[bucket] ?? 0) + open;
    if (bucket > 0) figures.lateWeighted += open * pastDue;
    byCustomer.set(invoice.customerId, figures);
  }
  return [...byCustomer.entries()]
    .sort(([a], [b]) => a - b)
    .map(([customerId, figures]) => {
      const openBalance = total(figures.aging);
      const overdue = openBalance - (figures.aging[0] ?? 0);
      return {
        customerId,
        openBalance,
        overdue,
        aging: figures.aging as CustomerReceivables['aging'],
        dsoDays: figures.sales === 0 ? null : twoDecimals(openBalance * days, figures.sales),
        averageDaysLate: overdue <= 0 ? null : twoDecimals(figures.lateWeighted, overdue),
      };
    });
};

export type RiskLevel = 'low' | 'medium' | 'high';

/** The customers table's risk (ADR 30): from the overdue share of the open balance and the days late. */
export const riskOf = (figures: Pick<CustomerReceivables, 'openBalance' | 'overdue' | 'averageDaysLate'>) => {
  if (figures.openBalance <= 0 || figures.overdue <= 0) return 'low';
  const share = figures.overdue / figures.openBalance;
  const late = figures.averageDaysLate ?? 0;
  if (share >= 0.5 || late > 60) return 'high';
  if (share >= 0.2 || late > 30) return 'medium';
  return 'low';
};
