import { emptyLedgerPage, type LedgerPage, type PaymentHabit } from '../../contracts/ledger';
import { ledgerEntities } from '../ledger/ledger-collections';
import { fetchDemoPage } from './demo-connector';
import type { DemoProfile } from './demo-profile';

const until = new Date('2024-06-30T12:00:00.000Z');
const DAY_MS = 86_400_000;

/** Every page of a DEMO company up to `window.until` (changes after `window.since` only, when given). */
const company = (
  profile: DemoProfile,
  window: { since?: Date; until?: Date; pageSize?: number } = {},
): LedgerPage => {
  const all = emptyLedgerPage();
  let cursor: string | null = null;
  do {
    const fetched = fetchDemoPage(profile, {
      sellerId: 9,
      since: window.since ?? null,
      until: window.until ?? until,
      cursor,
      pageSize: window.pageSize ?? 500,
    });
    for (const entity of ledgerEntities) (all[entity] as unknown[]).push(...fetched.page[entity]);
    cursor = fetched.nextCursor;
  } while (cursor !== null);
  return all;
};

const profile = (overrides: Partial<DemoProfile> = {}): DemoProfile => ({
  seed: 11,
  startDate: '2022-01-01',
  invoicesPerYear: 2_400,
  ...overrides,
});

const byProviderId = <T extends { providerId: string }>(records: T[]) =>
  new Map(records.map((r) => [r.providerId, r]));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

describe('the DEMO generator', () => {
  it('gives the same company for the same seed, whatever the page size, and another for another seed', () => {
    const first = company(profile());
    expect(company(profile())).toEqual(first);
    const otherPaging = company(profile(), { pageSize: 37 });
    for (const entity of ledgerEntities)
      expect(byProviderId(otherPaging[entity] as { providerId: string }[])).toEqual(
        byProviderId(first[entity] as { providerId: string }[]),
      );
    const reseeded = company(profile({ seed: 12 }));
    expect(reseeded.invoices.map((i) => i.amount)).not.toEqual(first.invoices.map((i) => i.amount));
  });

  it('scales with invoicesPerYear: ten times the parameter, about ten times the invoices and customers', () => {
    const small = company(profile({ invoicesPerYear: 1_200 }));
    const large = company(profile({ invoicesPerYear: 12_000 }));
    // 2.5 years of history, customers joining over the first three: about 0.8 of the nominal count.
    for (const [page, perYear] of [
      [small, 1_200],
      [large, 12_000],
    ] as const) {
      expect(page.invoices.length).toBeGreaterThan(perYear * 2.5 * 0.7);
      expect(page.invoices.length).toBeLessThan(perYear * 2.5 * 1.0);
    }
    const invoiceRatio = large.invoices.length / small.invoices.length;
    expect(invoiceRatio).toBeGreaterThan(8);
    expect(invoiceRatio).toBeLessThan(12);
    const customerRatio = large.customers.length / small.customers.length;
    expect(customerRatio).toBeGreaterThan(8);
    expect(customerRatio).toBeLessThan(12);
    expect(large.products.length).toBeGreaterThanOrEqual(small.products.length);
  });

  it('mixes payment habits (about 45% prompt, 25% slow, 15% erratic, 15% seasonal) that pay differently', () => {
    const page = company(profile({ invoicesPerYear: 12_000 }));
    const habitOf = new Map(page.customers.map((c) => [c.customerId, c.habit]));
    const share = (habit: PaymentHabit) =>
      page.customers.filter((c) => c.habit === habit).length / page.customers.length;
    expect(share('prompt')).toBeCloseTo(0.45, 1);
    expect(share('slow')).toBeCloseTo(0.25, 1);
    expect(share('erratic')).toBeCloseTo(0.15, 1);
    expect(share('seasonal')).toBeCloseTo(0.15, 1);

    // Days from the invoice to its first payment, per habit: prompt payers pay within terms, slow ones late.
    const invoices = byProviderId(page.invoices);
    const delays = new Map<PaymentHabit, number[]>();
    const firstPaid = new Map<string, number>();
    for (const payment of page.payments)
      for (const application of payment.applications) {
        const day = payment.date.getTime() / DAY_MS;
        const known = firstPaid.get(application.invoiceProviderId);
        if (known === undefined || day < known) firstPaid.set(application.invoiceProviderId, day);
      }
    for (const [invoiceId, day] of firstPaid) {
      const invoice = invoices.get(invoiceId);
      const habit = invoice && habitOf.get(invoice.customerId);
      if (!invoice || !habit) continue;
      const list = delays.get(habit) ?? [];
      list.push(day - invoice.transactionDate.getTime() / DAY_MS);
      delays.set(habit, list);
    }
    expect(median(delays.get('prompt') ?? [])).toBeLessThanOrEqual(30);
    expect(median(delays.get('slow') ?? [])).toBeGreaterThan(30);
    expect(median(delays.get('slow') ?? [])).toBeGreaterThan(median(delays.get('prompt') ?? []) * 2);

    // Seasonal customers buy mostly in the last and first quarter.
    const seasonalMonths = page.invoices
      .filter((i) => habitOf.get(i.customerId) === 'seasonal')
      .map((i) => i.transactionDate.getUTCMonth());
    const winter = seasonalMonths.filter((m) => m <= 1 || m >= 9).length / seasonalMonths.length;
    expect(winter).toBeGreaterThan(5 / 12 + 0.1);
  });

  it('has partial payments, credit memos and an overdue tail, and balances that add up', () => {
    const page = company(profile());
    const invoices = byProviderId(page.invoices);
    const settledBy = new Map<string, { payments: number; credits: number; amount: number }>();
    for (const [kind, records] of [
      ['payments', page.payments],
      ['credits', page.creditMemos],
    ] as const)
      for (const record of records)
        for (const application of record.applications) {
          expect(invoices.has(application.invoiceProviderId)).toBe(true);
          const entry = settledBy.get(application.invoiceProviderId) ?? {
            payments: 0,
            credits: 0,
            amount: 0,
          };
          entry[kind] += 1;
          entry.amount += application.amount;
          settledBy.set(application.invoiceProviderId, entry);
        }
    // Every invoice's balance is its amount less what was applied to it, never negative.
    for (const invoice of page.invoices) {
      expect(invoice.balance).toBe(invoice.amount - (settledBy.get(invoice.providerId)?.amount ?? 0));
      expect(invoice.balance).toBeGreaterThanOrEqual(0);
      expect(invoice.amount).toBe(invoice.lines.reduce((sum, line) => sum + line.amount, 0));
    }
    const settlements = [...settledBy.values()];
    expect(settlements.filter((s) => s.payments > 1).length).toBeGreaterThan(page.invoices.length * 0.03);
    expect(page.creditMemos.length).toBeGreaterThan(page.invoices.length * 0.01);
    expect(page.creditMemos.length).toBeLessThan(page.invoices.length * 0.06);
    // Partly paid and then abandoned: a payment applied, a balance left, long past due.
    const overdue = page.invoices.filter(
      (i) => i.balance > 0 && i.dueDate.getTime() < until.getTime() - 180 * DAY_MS,
    );
    expect(overdue.length).toBeGreaterThan(0);
    expect(overdue.some((i) => (settledBy.get(i.providerId)?.payments ?? 0) > 0)).toBe(true);
  });

  it('splits into windows consistently: the changes since a date bring the earlier company up to date', () => {
    const midway = new Date('2023-09-30T12:00:00.000Z');
    const before = company(profile(), { until: midway });
    const changes = company(profile(), { since: midway });
    const full = company(profile());
    for (const entity of ledgerEntities) {
      const merged = byProviderId(before[entity] as { providerId: string }[]);
      for (const record of changes[entity] as { providerId: string }[]) merged.set(record.providerId, record);
      expect(merged).toEqual(byProviderId(full[entity] as { providerId: string }[]));
    }
    // An invoice open at midway and paid afterwards comes again, with its new balance.
    const reopened = changes.invoices.filter((i) => i.transactionDate <= midway);
    expect(reopened.length).toBeGreaterThan(0);
  });
});
