import {
  MetricFrequency,
  type LedgerPage,
  type LedgerInvoice,
  type MetricType,
} from '../../contracts/ledger';
import type { ComputedMetricRow } from '../../workflows/metrics/compute-metrics';

/**
 * The receivables metrics recomputed naively from docs/adr/0030-receivables-metrics.md's text, to
 * check workflows/metrics/receivables-metrics.ts: calendar arithmetic on Date objects, a day-by-day
 * loop for sales, and each invoice's open balance at a date recomputed from scratch from the
 * settlements dated after it. No prefix sums, no segments.
 */
const DAY = 86_400_000;
const midnight = (date: Date) => Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
const ymd = (ms: number) => new Date(ms);
/** Rounded hundredths of an exact quotient of integers. */
const hundredthsOf = (numerator: number, denominator: number) => Math.round((numerator * 100) / denominator);

export type Exclusions = { customerIds: readonly number[]; productIds: readonly number[] };

export const naiveReceivables = (ledger: LedgerPage, exclusions: Exclusions, asOf: Date) => {
  const asOfMs = midnight(asOf);
  const invoices = ledger.invoices.filter(
    (i) =>
      !exclusions.customerIds.includes(i.customerId) &&
      i.lines.some((l) => !exclusions.productIds.includes(l.productId)),
  );
  const kept = invoices.filter((i) => midnight(i.transactionDate) <= asOfMs);
  const settlements = [...ledger.payments, ...ledger.creditMemos].filter(
    (s) => !exclusions.customerIds.includes(s.customerId),
  );
  const appliedTo = new Map<string, { dayMs: number; amount: number }[]>();
  for (const s of settlements)
    for (const a of s.applications)
      appliedTo.set(a.invoiceProviderId, [
        ...(appliedTo.get(a.invoiceProviderId) ?? []),
        { dayMs: midnight(s.date), amount: a.amount },
      ]);
  const openAt = (invoice: LedgerInvoice, dayMs: number) => {
    let open = invoice.balance;
    for (const a of appliedTo.get(invoice.providerId) ?? []) if (a.dayMs > dayMs) open += a.amount;
    return open;
  };
  const openInvoicesAt = (dayMs: number) =>
    kept
      .filter((i) => midnight(i.transactionDate) <= dayMs)
      .map((i) => ({ invoice: i, open: openAt(i, dayMs), pastDue: (dayMs - midnight(i.dueDate)) / DAY }))
      .filter((o) => o.open !== 0);
  const invoicesOn = new Map<number, LedgerInvoice[]>();
  for (const i of kept)
    invoicesOn.set(midnight(i.transactionDate), [...(invoicesOn.get(midnight(i.transactionDate)) ?? []), i]);
  const salesBetween = (fromMs: number, toMs: number) => {
    let sum = 0;
    let count = 0;
    for (let d = fromMs; d <= toMs; d += DAY)
      for (const i of invoicesOn.get(d) ?? []) {
        sum += i.amount;
        count += 1;
      }
    return { sum, count };
  };
  const bucketIndex = (pastDue: number) =>
    pastDue < 1 ? 0 : pastDue < 31 ? 1 : pastDue < 61 ? 2 : pastDue < 91 ? 3 : 4;

  const dataDays = [
    ...invoices.map((i) => midnight(i.transactionDate)),
    ...ledger.payments
      .filter((p) => !exclusions.customerIds.includes(p.customerId))
      .map((p) => midnight(p.date)),
  ];
  const firstMs = Math.min(Math.min(...dataDays), asOfMs);

  const periods = (frequency: MetricFrequency): { start: number; end: number }[] => {
    const list: { start: number; end: number }[] = [];
    const first = ymd(firstMs);
    const last = ymd(asOfMs);
    if (frequency === 'WEEKLY') {
      let start = firstMs;
      while (ymd(start).getUTCDay() !== 1) start -= DAY;
      for (; start <= asOfMs; start += 7 * DAY) list.push({ start, end: Math.min(start + 6 * DAY, asOfMs) });
      return list;
    }
    if (frequency === 'YEARLY') {
      for (let y = first.getUTCFullYear(); y <= last.getUTCFullYear(); y += 1)
        list.push({ start: Date.UTC(y, 0, 1), end: Math.min(Date.UTC(y, 11, 31), asOfMs) });
      return list;
    }
    const span = frequency === 'MONTHLY' ? 1 : frequency === 'TRAILING3MONTHS' ? 3 : 12;
    for (let y = first.getUTCFullYear(), m = first.getUTCMonth(); Date.UTC(y, m, 1) <= asOfMs; m += 1)
      list.push({ start: Date.UTC(y, m - span + 1, 1), end: Math.min(Date.UTC(y, m + 1, 0), asOfMs) });
    return list;
  };

  const countback = (frequency: MetricFrequency, endMs: number, receivable: number) => {
    if (receivable <= 0) return { value: 0, count: 0 };
    const end = ymd(endMs);
    let stepStart =
      frequency === 'WEEKLY'
        ? endMs - ((end.getUTCDay() + 6) % 7) * DAY
        : Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 1);
    let stepEnd = endMs;
    let walked = 0;
    let steps = 0;
    let left = receivable;
    while (stepEnd >= firstMs) {
      const stepDays = (stepEnd - stepStart) / DAY + 1;
      const sales = salesBetween(stepStart, stepEnd).sum;
      steps += 1;
      if (sales > 0 && left <= sales)
        return { value: hundredthsOf(walked * sales + left * stepDays, sales), count: steps };
      left -= sales;
      walked += stepDays;
      stepEnd = stepStart - DAY;
      const s = ymd(stepStart);
      stepStart =
        frequency === 'WEEKLY' ? stepStart - 7 * DAY : Date.UTC(s.getUTCFullYear(), s.getUTCMonth() - 1, 1);
    }
    return { value: walked * 100, count: steps };
  };

  /** Each invoice's moving average of days between its customer's invoices, as [day, 2520ths]. */
  const movingAverages: { dayMs: number; units: number }[] = [];
  for (const customerId of new Set(kept.map((i) => i.customerId))) {
    const days = kept
      .filter((i) => i.customerId === customerId)
      .map((i) => midnight(i.transactionDate))
      .sort((a, b) => a - b);
    for (let i = 1; i < days.length; i += 1) {
      const from = Math.max(0, i - 10);
      const gaps: number[] = [];
      for (let j = from; j < i; j += 1) gaps.push((days[j + 1]! - days[j]!) / DAY);
      movingAverages.push({ dayMs: days[i]!, units: (gaps.reduce((a, b) => a + b, 0) * 2520) / gaps.length });
    }
  }

  const rows: ComputedMetricRow[] = [];
  for (const frequency of MetricFrequency.options)
    for (const { start, end } of periods(frequency)) {
      const startDate = new Date(start);
      const push = (type: MetricType, value: number, count: number) =>
        rows.push({ type, frequency, startDate, value, count });
      const days = (end - start) / DAY + 1;
      const sales = salesBetween(start, end);
      const atEnd = openInvoicesAt(end);
      const receivable = atEnd.reduce((s, o) => s + o.open, 0);
      const current = atEnd.filter((o) => o.pastDue <= 0).reduce((s, o) => s + o.open, 0);
      const atBegin = openInvoicesAt(start - DAY);
      const beginning = atBegin.reduce((s, o) => s + o.open, 0);
      if (sales.sum === 0) {
        push('DSO', 0, 0);
      } else push('DSO', hundredthsOf(receivable * days, sales.sum), sales.count);
      const back = countback(frequency, end, receivable);
      push('DSO_COUNTBACK', back.value, back.count);
      push(
        'BEST_POSSIBLE_DSO',
        sales.sum === 0 ? 0 : hundredthsOf(current * days, sales.sum),
        sales.sum === 0 ? 0 : sales.count,
      );
      push(
        'AVG_DAYS_DELINQUENT',
        sales.sum === 0 ? 0 : hundredthsOf((receivable - current) * days, sales.sum),
        sales.sum === 0 ? 0 : sales.count,
      );
      const denominator = beginning + sales.sum - current;
      push(
        'COLLECTION_EFFECTIVENESS_INDEX',
        denominator === 0 ? 0 : hundredthsOf((beginning + sales.sum - receivable) * 100, denominator),
        denominator === 0 ? 0 : atBegin.length + sales.count,
      );
      (['AGING_CURRENT', 'AGING_1_30', 'AGING_31_60', 'AGING_61_90', 'AGING_OVER_90'] as const).forEach(
        (type, bucket) => {
          const inBucket = atEnd.filter((o) => bucketIndex(o.pastDue) === bucket);
          push(
            type,
            inBucket.reduce((s, o) => s + o.open, 0),
            inBucket.length,
          );
        },
      );
      const inPeriod = movingAverages.filter((m) => m.dayMs >= start && m.dayMs <= end);
      push(
        'MOVING_AVG_DAYS_BETWEEN_TRANSACTIONS',
        inPeriod.length === 0
          ? 0
          : hundredthsOf(
              inPeriod.reduce((s, m) => s + m.units, 0),
              2520 * inPeriod.length,
            ),
        inPeriod.length,
      );
    }

  const windowStart = Date.UTC(ymd(asOfMs).getUTCFullYear(), ymd(asOfMs).getUTCMonth() - 11, 1);
  const customers = [...new Set(kept.map((i) => i.customerId))]
    .sort((a, b) => a - b)
    .map((customerId) => {
      const own = openInvoicesAt(asOfMs).filter((o) => o.invoice.customerId === customerId);
      const aging = [0, 1, 2, 3, 4].map((b) =>
        own.filter((o) => bucketIndex(o.pastDue) === b).reduce((s, o) => s + o.open, 0),
      );
      const openBalance = aging.reduce((a, b) => a + b, 0);
      const overdue = openBalance - aging[0]!;
      const sales = kept
        .filter((i) => i.customerId === customerId && midnight(i.transactionDate) >= windowStart)
        .reduce((s, i) => s + i.amount, 0);
      const late = own.filter((o) => o.pastDue > 0).reduce((s, o) => s + o.open * o.pastDue, 0);
      return {
        customerId,
        openBalance,
        overdue,
        aging,
        dsoDays:
          sales === 0 ? null : hundredthsOf(openBalance * ((asOfMs - windowStart) / DAY + 1), sales) / 100,
        averageDaysLate: overdue <= 0 ? null : hundredthsOf(late, overdue) / 100,
      };
    });
  return { rows, customers };
};
