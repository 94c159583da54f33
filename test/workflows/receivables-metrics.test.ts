import {
  emptyLedgerPage,
  MetricFrequency,
  receivablesMetricTypes,
  type LedgerInvoice,
  type LedgerPage,
  type MetricType,
} from '../../contracts/ledger';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import type { ComputedMetricRow } from '../../workflows/metrics/compute-metrics';
import {
  createReceivablesAccumulator,
  riskOf,
  type ComputedReceivables,
} from '../../workflows/metrics/receivables-metrics';
import { naiveReceivables, type Exclusions } from './expected-receivables-metrics';

/**
 * The receivables metrics against a naive computation written from ADR 30's text: calendar
 * arithmetic on Date objects, a day-by-day loop for sales, and each invoice's open balance at a
 * date recomputed from scratch from the settlements dated after it (expected-receivables-metrics.ts).
 */
const computeAll = (ledger: LedgerPage, exclusions: Exclusions, asOf: Date): ComputedReceivables => {
  const accumulator = createReceivablesAccumulator(exclusions);
  // Settlements first: the accumulator must not depend on the order records arrive in.
  ledger.creditMemos.forEach(accumulator.addCreditMemo);
  ledger.payments.forEach(accumulator.addPayment);
  ledger.invoices.forEach(accumulator.addInvoice);
  return accumulator.compute({ asOf });
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
    const expected = naiveReceivables(handMade(), handExclusions, handAsOf);
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
    const expected = naiveReceivables(ledger, exclusions, asOf);
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
