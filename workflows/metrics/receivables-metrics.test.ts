import {
  emptyLedgerPage,
  MetricFrequency,
  receivablesMetricTypes,
  type LedgerInvoice,
  type LedgerPage,
  type MetricType,
} from '../../contracts/ledger';
import { fetchDemoPage } from '../demo/demo-connector';
import type { ComputedMetricRow } from './compute-metrics';
import { createReceivablesAccumulator, riskOf, type ComputedReceivables } from './receivables-metrics';

/**
 * The receivables metrics against a naive computation written from ADR 30's text: calendar
 * arithmetic on Date objects, a day-by-day loop for sales, and each invoice's open balance at a
 * date recomputed from scratch from the settlements dated after it. No prefix sums, no segments.
 */
const DAY = 86_400_000;
const midnight = (date: Date) => Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
const ymd = (ms: number) => new Date(ms);
/** Rounded hundredths of an exact quotient of integers. */
const hundredthsOf = (numerator: number, denominator: number) => Math.round((numerator * 100) / denominator);

type Exclusions = { customerIds: number[]; productIds: number[] };

const computeAll = (ledger: LedgerPage, exclusions: Exclusions, asOf: Date): ComputedReceivables => {
  const accumulator = createReceivablesAccumulator(exclusions);
  // Settlements first: the accumulator must not depend on the order records arrive in.
  ledger.creditMemos.forEach(accumulator.addCreditMemo);
  ledger.payments.forEach(accumulator.addPayment);
  ledger.invoices.forEach(accumulator.addInvoice);
  return accumulator.compute({ asOf });
};

const naive = (ledger: LedgerPage, exclusions: Exclusions, asOf: Date) => {
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

const rowsOf = (rows: ComputedMetricRow[], type: MetricType, frequency: MetricFrequency) =>
  rows
    .filter((r) => r.type === type && r.frequency === frequency)
    .map((r) => ({ start: r.startDate.toISOString().slice(0, 10), value: r.value, count: r.count }));

const at = (iso: string) => new Date(`${iso}T00:00:00.000Z`);
const invoice = (
  providerId: string,
  customerId: number,
  dates: { on: string; due: string },
  amount: number,
  balance: number,
  lines = [{ productId: 1, quantity: 1, amount }],
): LedgerInvoice => ({
  sellerId: 9,
  providerId,
  customerId,
  docNumber: providerId,
  transactionDate: at(dates.on),
  dueDate: at(dates.due),
  amount,
  balance,
  lines,
});
const settlement = (
  providerId: string,
  customerId: number,
  on: string,
  applications: [string, number][],
) => ({
  sellerId: 9,
  providerId,
  customerId,
  date: at(on),
  amount: applications.reduce((s, [, a]) => s + a, 0),
  applications: applications.map(([invoiceProviderId, amount]) => ({ invoiceProviderId, amount })),
});

/**
 * A ledger small enough to check by hand. Customer 1: A partly paid then credited, B paid in March,
 * nothing in February, C open and not yet due. Customer 2: D never paid, F only excluded products,
 * G partly of an excluded product. Customer 3 is excluded.
 */
const handMade = (): LedgerPage => ({
  ...emptyLedgerPage(),
  invoices: [
    invoice('A', 1, { on: '2024-01-10', due: '2024-02-09' }, 10_000, 5_000),
    invoice('B', 1, { on: '2024-01-25', due: '2024-01-25' }, 6_000, 0),
    invoice('C', 1, { on: '2024-03-10', due: '2024-04-09' }, 3_000, 3_000),
    invoice('D', 2, { on: '2023-12-01', due: '2023-12-31' }, 20_000, 20_000),
    invoice('E', 3, { on: '2024-02-01', due: '2024-02-01' }, 99_000, 99_000),
    invoice('F', 2, { on: '2024-03-15', due: '2024-03-15' }, 700, 700, [
      { productId: 9, quantity: 1, amount: 700 },
    ]),
    invoice('G', 2, { on: '2024-02-20', due: '2024-03-21' }, 1_500, 1_500, [
      { productId: 1, quantity: 1, amount: 1_000 },
      { productId: 9, quantity: 1, amount: 500 },
    ]),
  ],
  payments: [
    settlement('P1', 1, '2024-01-20', [['A', 4_000]]),
    settlement('P2', 1, '2024-03-05', [['B', 6_000]]),
  ],
  creditMemos: [settlement('CM1', 1, '2024-02-15', [['A', 1_000]])],
});
const handExclusions = { customerIds: [3], productIds: [9] };
const handAsOf = new Date('2024-03-31T12:00:00.000Z');

describe('receivables metrics on a hand-made ledger', () => {
  const computed = computeAll(handMade(), handExclusions, handAsOf);
  const march = (type: MetricType) =>
    rowsOf(computed.rows, type, 'MONTHLY').find((r) => r.start === '2024-03-01');

  it('gives the values worked out by hand for March 2024', () => {
    // AR at March 31: A 5,000 + C 3,000 + D 20,000 + G 1,500; March sales: C only (F is all excluded).
    expect(march('DSO')).toEqual({
      start: '2024-03-01',
      value: Math.round((29_500 / 3_000) * 31 * 100),
      count: 1,
    });
    expect(march('BEST_POSSIBLE_DSO')?.value).toBe(3_100);
    expect(march('AVG_DAYS_DELINQUENT')?.value).toBe(Math.round((26_500 / 3_000) * 31 * 100));
    // Beginning AR (end of February): A 5,000, B 6,000 (paid March 5), D 20,000, G 1,500.
    expect(march('COLLECTION_EFFECTIVENESS_INDEX')?.value).toBe(Math.round((6_000 / 32_500) * 100 * 100));
    // Countback: March 3,000 and February 1,500 and January 16,000 are used up, December's 20,000 covers 9,000.
    expect(march('DSO_COUNTBACK')).toEqual({ start: '2024-03-01', value: 10_495, count: 4 });
    expect(march('AGING_CURRENT')).toMatchObject({ value: 3_000, count: 1 });
    expect(march('AGING_1_30')).toMatchObject({ value: 1_500, count: 1 });
    expect(march('AGING_31_60')).toMatchObject({ value: 5_000, count: 1 });
    expect(march('AGING_61_90')).toMatchObject({ value: 0, count: 0 });
    expect(march('AGING_OVER_90')).toMatchObject({ value: 20_000, count: 1 });
  });

  it('reconstructs balances at past period ends from payments and credit memos dated after them', () => {
    // January 31: A owes 6,000 (the credit memo of February 15 not yet), B 6,000 (paid in March), D 20,000.
    const january = (type: MetricType) =>
      rowsOf(computed.rows, type, 'MONTHLY').find((r) => r.start === '2024-01-01');
    expect(january('AGING_CURRENT')).toMatchObject({ value: 6_000, count: 1 });
    expect(january('AGING_1_30')).toMatchObject({ value: 6_000, count: 1 });
    expect(january('AGING_31_60')).toMatchObject({ value: 20_000, count: 1 });
    expect(january('DSO')?.value).toBe(Math.round((32_000 / 16_000) * 31 * 100));
  });

  it('has no DSO for a period without sales, and still a countback', () => {
    const customerOne = handMade();
    customerOne.invoices = customerOne.invoices.filter((i) => i.customerId === 1);
    const one = computeAll(customerOne, handExclusions, handAsOf);
    const february = (type: MetricType) =>
      rowsOf(one.rows, type, 'MONTHLY').find((r) => r.start === '2024-02-01');
    expect(february('DSO')).toEqual({ start: '2024-02-01', value: 0, count: 0 });
    expect(february('BEST_POSSIBLE_DSO')?.count).toBe(0);
    // AR at February 29 is A 5,000 + B 6,000: January's 16,000 covers it after February's 29 days.
    expect(february('DSO_COUNTBACK')).toEqual({
      start: '2024-02-01',
      value: Math.round((29 + (11_000 / 16_000) * 31) * 100),
      count: 2,
    });
  });

  it('gives each customer its figures as of the date, and a risk', () => {
    expect(computed.customers.map((c) => c.customerId)).toEqual([1, 2]);
    const [one, two] = computed.customers;
    expect(one).toMatchObject({ openBalance: 8_000, overdue: 5_000, aging: [3_000, 0, 5_000, 0, 0] });
    expect(one?.averageDaysLate).toBe(51);
    expect(two).toMatchObject({ openBalance: 21_500, overdue: 21_500, aging: [0, 1_500, 0, 0, 20_000] });
    expect(riskOf(one!)).toBe('high');
    expect(riskOf({ openBalance: 10_000, overdue: 1_000, averageDaysLate: 10 })).toBe('low');
    expect(riskOf({ openBalance: 10_000, overdue: 2_500, averageDaysLate: 10 })).toBe('medium');
    expect(riskOf({ openBalance: 10_000, overdue: 1_000, averageDaysLate: 45 })).toBe('medium');
    expect(riskOf({ openBalance: 0, overdue: 0, averageDaysLate: null })).toBe('low');
  });

  it('agrees with the naive computation for every type, frequency and customer', () => {
    const expected = naive(handMade(), handExclusions, handAsOf);
    for (const type of receivablesMetricTypes)
      for (const frequency of MetricFrequency.options)
        expect({ type, frequency, rows: rowsOf(computed.rows, type, frequency) }).toEqual({
          type,
          frequency,
          rows: rowsOf(expected.rows, type, frequency),
        });
    expect(computed.customers).toEqual(expected.customers);
  });
});

describe('receivables metrics on a generated DEMO company', () => {
  const until = new Date('2024-06-30T12:00:00.000Z');
  const ledger = emptyLedgerPage();
  let cursor: string | null = null;
  do {
    const fetched = fetchDemoPage(
      { seed: 7, startDate: '2022-06-01', invoicesPerYear: 200 },
      { sellerId: 9, since: null, until, cursor, pageSize: 5000 },
    );
    ledger.invoices.push(...fetched.page.invoices);
    ledger.payments.push(...fetched.page.payments);
    ledger.creditMemos.push(...fetched.page.creditMemos);
    cursor = fetched.nextCursor;
  } while (cursor !== null);
  const exclusions = { customerIds: [2], productIds: [3] };

  it('has what the edge cases need: credit memos, partial payments and open invoices', () => {
    expect(ledger.creditMemos.length).toBeGreaterThan(0);
    const applied = new Map<string, number>();
    for (const p of ledger.payments)
      for (const a of p.applications)
        applied.set(a.invoiceProviderId, (applied.get(a.invoiceProviderId) ?? 0) + 1);
    expect([...applied.values()].some((n) => n > 1)).toBe(true);
    expect(ledger.invoices.some((i) => i.balance > 0)).toBe(true);
  });

  it.each([
    ['as collected', until],
    ['as of a past date', new Date('2023-11-15T08:00:00.000Z')],
  ])('agrees with the naive computation %s', (_, asOf) => {
    const computed = computeAll(ledger, exclusions, asOf);
    const expected = naive(ledger, exclusions, asOf);
    for (const type of receivablesMetricTypes)
      for (const frequency of MetricFrequency.options)
        expect({ type, frequency, rows: rowsOf(computed.rows, type, frequency) }).toEqual({
          type,
          frequency,
          rows: rowsOf(expected.rows, type, frequency),
        });
    expect(computed.customers).toEqual(expected.customers);
    expect(computed.rows.some((r) => r.type === 'AGING_OVER_90' && r.value > 0)).toBe(true);
  });
});
