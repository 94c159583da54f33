import type { LedgerInvoice, LedgerPage } from '../../contracts/ledger';

/**
 * A report's figures recomputed from a seeded ledger, straight from the words of
 * docs/adr/0036-report-content.md and ADR 30, with Date arithmetic and plain loops: what the report
 * tests compare the gathered data and the printed PDF with. Nothing here comes from workflows/.
 */
const DAY = 86_400_000;
const midnight = (date: Date) => Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const twoDecimals = (value: number) => Math.round(value * 100) / 100;

export type Exclusions = { customerIds: number[]; productIds: number[] };
export type Range = { startMs: number; endMs: number };

export const expectedPeriods = (frequency: 'weekly' | 'monthly', asOf: Date) => {
  const today = midnight(asOf);
  if (frequency === 'weekly') {
    const mondayOfThisWeek = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY;
    const week = (startMs: number): Range => ({ startMs, endMs: startMs + 6 * DAY });
    const current = week(mondayOfThisWeek - 7 * DAY);
    return {
      current,
      previous: week(current.startMs - 7 * DAY),
      lastYear: week(current.startMs - 364 * DAY),
      habitsAfter: { startMs: current.endMs - 27 * DAY, endMs: current.endMs },
      habitsBefore: { startMs: current.endMs - 55 * DAY, endMs: current.endMs - 28 * DAY },
    };
  }
  const month = (year: number, monthIndex: number): Range => ({
    startMs: Date.UTC(year, monthIndex, 1),
    endMs: Date.UTC(year, monthIndex + 1, 1) - DAY,
  });
  const y = asOf.getUTCFullYear();
  const m = asOf.getUTCMonth();
  return {
    current: month(y, m - 1),
    previous: month(y, m - 2),
    lastYear: month(y - 1, m - 1),
    habitsAfter: month(y, m - 1),
    habitsBefore: month(y, m - 2),
  };
};

const inRange = (date: Date, range: Range) =>
  midnight(date) >= range.startMs && midnight(date) <= range.endMs;

/** Facts of a ledger with exclusions applied, each computed from scratch (ADR 30's words). */
export const ledgerFacts = (ledger: LedgerPage, exclusions: Exclusions) => {
  const keptCustomer = (customerId: number) => !exclusions.customerIds.includes(customerId);
  const keptLines = (invoice: LedgerInvoice) =>
    invoice.lines.filter((line) => !exclusions.productIds.includes(line.productId));
  const counted = ledger.invoices.filter((i) => keptCustomer(i.customerId) && keptLines(i).length > 0);
  const revenueIn = (range: Range) =>
    counted
      .filter((i) => inRange(i.transactionDate, range))
      .reduce((sum, i) => sum + keptLines(i).reduce((s, l) => s + l.amount, 0), 0);
  const collectionsIn = (range: Range) =>
    ledger.payments
      .filter((p) => keptCustomer(p.customerId) && inRange(p.date, range))
      .reduce((sum, p) => sum + p.amount, 0);

  const appliedTo = new Map<string, { dayMs: number; amount: number }[]>();
  for (const s of [...ledger.payments, ...ledger.creditMemos])
    for (const a of s.applications)
      appliedTo.set(a.invoiceProviderId, [
        ...(appliedTo.get(a.invoiceProviderId) ?? []),
        { dayMs: midnight(s.date), amount: a.amount },
      ]);
  /** Open at the end of a day: the balance plus what settlements dated later applied to it. */
  const openAt = (invoice: LedgerInvoice, dayMs: number) =>
    (appliedTo.get(invoice.providerId) ?? [])
      .filter((a) => a.dayMs > dayMs)
      .reduce((open, a) => open + a.amount, invoice.balance);
  const agingAt = (dayMs: number) => {
    const buckets = [0, 0, 0, 0, 0];
    const invoices = [0, 0, 0, 0, 0];
    for (const invoice of counted) {
      if (midnight(invoice.transactionDate) > dayMs) continue;
      const open = openAt(invoice, dayMs);
      if (open === 0) continue;
      const pastDue = Math.round((dayMs - midnight(invoice.dueDate)) / DAY);
      const index = pastDue <= 0 ? 0 : pastDue <= 30 ? 1 : pastDue <= 60 ? 2 : pastDue <= 90 ? 3 : 4;
      buckets[index] = (buckets[index] ?? 0) + open;
      invoices[index] = (invoices[index] ?? 0) + 1;
    }
    const open = buckets.reduce((a, b) => a + b, 0);
    return { buckets, invoices, open, overdue: open - (buckets[0] ?? 0) };
  };
  const dsoOf = (range: Range) => {
    const sales = counted
      .filter((i) => inRange(i.transactionDate, range))
      .reduce((sum, i) => sum + i.amount, 0);
    if (sales === 0) return null;
    const days = Math.round((range.endMs - range.startMs) / DAY) + 1;
    return twoDecimals((agingAt(range.endMs).open / sales) * days);
  };

  /** Each customer's open balance at the end of a day. */
  const openByCustomerAt = (dayMs: number) => {
    const open = new Map<number, number>();
    for (const invoice of counted)
      if (midnight(invoice.transactionDate) <= dayMs)
        open.set(invoice.customerId, (open.get(invoice.customerId) ?? 0) + openAt(invoice, dayMs));
    return open;
  };
  return { keptCustomer, keptLines, counted, revenueIn, collectionsIn, agingAt, dsoOf, openByCustomerAt };
};

export const expectedReportFigures = (
  ledger: LedgerPage,
  exclusions: Exclusions,
  frequency: 'weekly' | 'monthly',
  asOf: Date,
) => {
  const periods = expectedPeriods(frequency, asOf);
  const { keptCustomer, keptLines, revenueIn, collectionsIn, agingAt, dsoOf } = ledgerFacts(
    ledger,
    exclusions,
  );
  const lastDay = periods.current.endMs;
  const chase = ledger.invoices
    .filter(
      (i) =>
        i.balance > 0 &&
        keptCustomer(i.customerId) &&
        keptLines(i).length > 0 &&
        midnight(i.transactionDate) <= lastDay &&
        midnight(i.dueDate) < lastDay,
    )
    .map((i) => {
      const daysOverdue = Math.round((lastDay - midnight(i.dueDate)) / DAY);
      return { invoice: i, daysOverdue, score: i.balance * daysOverdue };
    })
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.invoice.dueDate.getTime() - b.invoice.dueDate.getTime() ||
        a.invoice.docNumber.localeCompare(b.invoice.docNumber),
    );

  const invoiceById = new Map(ledger.invoices.map((i) => [i.providerId, i]));
  const lateness = (range: Range) => {
    const byCustomer = new Map<number, { weighted: number; amount: number }>();
    for (const p of ledger.payments) {
      if (!keptCustomer(p.customerId) || !inRange(p.date, range)) continue;
      for (const a of p.applications) {
        const invoice = invoiceById.get(a.invoiceProviderId);
        if (!invoice || a.amount <= 0) continue;
        const late = Math.max(0, Math.round((midnight(p.date) - midnight(invoice.dueDate)) / DAY));
        const entry = byCustomer.get(p.customerId) ?? { weighted: 0, amount: 0 };
        entry.weighted += a.amount * late;
        entry.amount += a.amount;
        byCustomer.set(p.customerId, entry);
      }
    }
    return byCustomer;
  };
  const before = lateness(periods.habitsBefore);
  const after = lateness(periods.habitsAfter);
  const habitChanges = [...before.entries()]
    .flatMap(([customerId, was]) => {
      const now = after.get(customerId);
      if (!now) return [];
      const daysLateBefore = twoDecimals(was.weighted / was.amount);
      const daysLateAfter = twoDecimals(now.weighted / now.amount);
      const change = twoDecimals(daysLateAfter - daysLateBefore);
      return Math.abs(change) >= 10 ? [{ customerId, daysLateBefore, daysLateAfter, change }] : [];
    })
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.customerId - b.customerId);

  const nameOf = new Map(ledger.customers.map((c) => [c.customerId, c.name]));
  const aging = agingAt(lastDay);
  return {
    period: { start: iso(periods.current.startMs), end: iso(periods.current.endMs) },
    revenue: {
      current: revenueIn(periods.current),
      previous: revenueIn(periods.previous),
      lastYear: revenueIn(periods.lastYear),
    },
    collections: {
      current: collectionsIn(periods.current),
      previous: collectionsIn(periods.previous),
      lastYear: collectionsIn(periods.lastYear),
    },
    aging,
    previousAging: agingAt(periods.previous.endMs),
    dso: { current: dsoOf(periods.current), previous: dsoOf(periods.previous) },
    chase: chase.slice(0, 10).map((c) => ({
      customerName: nameOf.get(c.invoice.customerId) ?? '',
      docNumber: c.invoice.docNumber,
      dueDate: iso(midnight(c.invoice.dueDate)),
      daysOverdue: c.daysOverdue,
      balance: c.invoice.balance,
    })),
    overdueInvoices: chase.length,
    habitChanges: habitChanges.map((h) => ({ ...h, name: nameOf.get(h.customerId) ?? '' })),
  };
};
