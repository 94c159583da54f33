import {
  emptyLedgerPage,
  receivablesMetricTypes,
  type LedgerCreditMemo,
  type LedgerInvoice,
  type LedgerPayment,
  type MetricFrequency,
  type MetricRow,
  type MetricType,
} from '../../contracts/ledger';
import type { ComputedMetricRow } from '../../workflows/metrics/compute-metrics';
import { naiveReceivables } from './expected-receivables-metrics';

/**
 * The metrics recomputed the slow, obvious way, to check the workflow's one-pass computation: list
 * the periods, then for each one filter the generated records that fall in it. The receivables types
 * come from expected-receivables-metrics.ts.
 */
const utc = (y: number, m: number, d = 1) => new Date(Date.UTC(y, m, d));

const periodsOf = (frequency: MetricFrequency, first: Date, last: Date): { start: Date; end: Date }[] => {
  const periods: { start: Date; end: Date }[] = [];
  if (frequency === 'WEEKLY') {
    const start = utc(first.getUTCFullYear(), first.getUTCMonth(), first.getUTCDate());
    while (start.getUTCDay() !== 1) start.setUTCDate(start.getUTCDate() - 1);
    for (let s = start; s <= last; s = utc(s.getUTCFullYear(), s.getUTCMonth(), s.getUTCDate() + 7))
      periods.push({ start: s, end: utc(s.getUTCFullYear(), s.getUTCMonth(), s.getUTCDate() + 7) });
    return periods;
  }
  if (frequency === 'YEARLY') {
    for (let y = first.getUTCFullYear(); y <= last.getUTCFullYear(); y += 1)
      periods.push({ start: utc(y, 0), end: utc(y + 1, 0) });
    return periods;
  }
  const span = frequency === 'MONTHLY' ? 1 : frequency === 'TRAILING3MONTHS' ? 3 : 12;
  // Month-ending windows: one per month from the first month with data to the last.
  for (
    let m = first.getUTCFullYear() * 12 + first.getUTCMonth();
    m <= last.getUTCFullYear() * 12 + last.getUTCMonth();
    m += 1
  ) {
    const endMonth = m + 1;
    const startMonth = endMonth - span;
    periods.push({
      start: utc(Math.floor(startMonth / 12), startMonth % 12),
      end: utc(Math.floor(endMonth / 12), endMonth % 12),
    });
  }
  return periods;
};

type ExpectedRowsInput = {
  invoices: LedgerInvoice[];
  payments: LedgerPayment[];
  creditMemos: LedgerCreditMemo[];
  excludedCustomers: number[];
  excludedProducts: number[];
  asOf: Date;
  type: MetricType;
  frequency: MetricFrequency;
};

/** The naive receivables of one ledger, computed once for all its types and frequencies. */
const receivablesOf = new WeakMap<LedgerInvoice[], { key: string; rows: ComputedMetricRow[] }>();

const expectedReceivablesRows = (input: ExpectedRowsInput): MetricRow[] => {
  const key = JSON.stringify([
    input.asOf,
    input.excludedCustomers,
    input.excludedProducts,
    input.payments.length,
  ]);
  let cached = receivablesOf.get(input.invoices);
  if (cached?.key !== key) {
    const ledger = { ...emptyLedgerPage(), ...input };
    const exclusions = { customerIds: input.excludedCustomers, productIds: input.excludedProducts };
    cached = { key, rows: naiveReceivables(ledger, exclusions, input.asOf).rows };
    receivablesOf.set(input.invoices, cached);
  }
  return cached.rows
    .filter((row) => row.type === input.type && row.frequency === input.frequency)
    .map((row) => ({ StartDate: row.startDate.toISOString(), Value: row.value, Count: row.count }));
};

export const expectedMetricRows = (input: ExpectedRowsInput): MetricRow[] => {
  if (receivablesMetricTypes.includes(input.type)) return expectedReceivablesRows(input);
  const keepCustomer = (id: number) => !input.excludedCustomers.includes(id);
  const purchases = input.invoices
    .filter((i) => keepCustomer(i.customerId) && i.transactionDate <= input.asOf)
    .map((i) => ({
      customerId: i.customerId,
      date: i.transactionDate,
      revenue: i.lines
        .filter((l) => !input.excludedProducts.includes(l.productId))
        .reduce((s, l) => s + l.amount, 0),
      counted: i.lines.some((l) => !input.excludedProducts.includes(l.productId)),
    }))
    .filter((p) => p.counted);
  const payments = input.payments.filter((p) => keepCustomer(p.customerId) && p.date <= input.asOf);
  const gapOf = (purchase: (typeof purchases)[number]) => {
    const earlier = purchases
      .filter((p) => p.customerId === purchase.customerId && p.date < purchase.date)
      .map((p) => p.date.getTime());
    const same = purchases.filter(
      (p) => p.customerId === purchase.customerId && p.date.getTime() === purchase.date.getTime(),
    );
    // Same-day purchases: the second of them has a gap of 0 days.
    if (same.length > 1 && same.indexOf(purchase) > 0) return 0;
    return earlier.length === 0 ? null : (purchase.date.getTime() - Math.max(...earlier)) / 86_400_000;
  };
  const dates = [...purchases.map((p) => p.date), ...payments.map((p) => p.date)];
  const first = new Date(Math.min(...dates.map((d) => d.getTime())));
  return periodsOf(input.frequency, first, input.asOf).map(({ start, end }) => {
    const inPeriod = (d: Date) => d >= start && d < end;
    if (input.type === 'TOTAL_REVENUE') {
      const rows = purchases.filter((p) => inPeriod(p.date));
      return {
        StartDate: start.toISOString(),
        Value: rows.reduce((s, p) => s + p.revenue, 0),
        Count: rows.length,
      };
    }
    if (input.type === 'TOTAL_PAID') {
      const rows = payments.filter((p) => inPeriod(p.date));
      return {
        StartDate: start.toISOString(),
        Value: rows.reduce((s, p) => s + p.amount, 0),
        Count: rows.length,
      };
    }
    const gaps = purchases
      .filter((p) => inPeriod(p.date))
      .map(gapOf)
      .filter((g): g is number => g !== null);
    const total = gaps.reduce((s, g) => s + g, 0);
    return {
      StartDate: start.toISOString(),
      Value: gaps.length === 0 ? 0 : Math.round((total * 100) / gaps.length),
      Count: gaps.length,
    };
  });
};
