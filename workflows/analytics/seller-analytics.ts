import {
  LOST_CUSTOMER_DAYS,
  type AnalyticsFrequency,
  type SellerAnalyticsRow,
  type SellerMonthTotals,
} from '../../contracts/kafka/analytics';
import {
  providerIdOf,
  type FactDoc,
  type SellerTotalsDoc,
} from '../../projections/analytics/analytics-store';
import { dayToDate, nextPeriodDay, periodStartDay } from '../metrics/compute-metrics';

/**
 * A seller's weekly and monthly analytics from its ledger facts (docs/analytics.md gives every
 * definition). Pure: the same facts give the same figures, which is what makes redelivery harmless.
 * Only the facts of the seller's newest epoch count (a repopulate replaces the older ones).
 */
export type ComputedSellerAnalytics = {
  epoch: number;
  /** The latest day of any invoice, payment or credit memo: the figures are "as of" it. */
  asOf: string | null;
  rows: Record<AnalyticsFrequency, SellerAnalyticsRow[]>;
  totals: Omit<SellerTotalsDoc, '_id' | 'epoch' | 'asOf' | 'computedAt'>;
};

export const isoDayOf = (day: number) => dayToDate(day).toISOString().slice(0, 10);
const monthKey = (day: number) => isoDayOf(day).slice(0, 7);

type Invoice = Extract<FactDoc, { entity: 'invoices' }>;
type Settlement = Extract<FactDoc, { entity: 'payments' | 'creditMemos' }>;

export const newestEpochOf = (facts: readonly FactDoc[]) =>
  facts.reduce((max, fact) => Math.max(max, fact.epoch), 0);

export const computeSellerAnalytics = (
  sellerId: number,
  all: readonly FactDoc[],
): ComputedSellerAnalytics => {
  const epoch = newestEpochOf(all);
  const facts = all.filter((fact) => fact.epoch === epoch);
  const invoices = facts.filter((f): f is Invoice => f.entity === 'invoices');
  const settlements = facts.filter(
    (f): f is Settlement => f.entity === 'payments' || f.entity === 'creditMemos',
  );
  const payments = settlements.filter((f) => f.entity === 'payments');
  const empty = { WEEKLY: [], MONTHLY: [] };
  const days = [...invoices.map((i) => i.day), ...settlements.map((s) => s.day)];
  if (invoices.length === 0 || days.length === 0)
    return {
      epoch,
      asOf: days.length ? isoDayOf(Math.max(...days)) : null,
      rows: empty,
      totals: { customers: 0, invoices: 0, sales: 0, months: [] },
    };
  const asOf = days.reduce((a, b) => Math.max(a, b));
  const firstDay = invoices.reduce((a, i) => Math.min(a, i.day), Infinity);

  // Receivables open at the end of day L (ADR 0030): each invoice's balance from its day on, plus
  // every application to it for the days before the application's date. A difference array by day.
  const span = asOf - firstDay + 2;
  const openDelta = new Float64Array(span);
  const addAt = (index: number, amount: number) => {
    openDelta[index] = (openDelta[index] ?? 0) + amount;
  };
  const invoiceDay = new Map<string, number>();
  for (const invoice of invoices) {
    invoiceDay.set(providerIdOf(invoice), invoice.day);
    addAt(invoice.day - firstDay, invoice.balance);
  }
  for (const settlement of settlements)
    for (const [invoiceProviderId, amount] of settlement.apps) {
      const from = invoiceDay.get(invoiceProviderId);
      if (from === undefined || settlement.day <= from) continue;
      addAt(from - firstDay, amount);
      addAt(Math.min(settlement.day, asOf + 1) - firstDay, -amount);
    }
  const openAt = new Float64Array(span);
  let running = 0;
  for (let i = 0; i < span; i += 1) {
    running += openDelta[i]!;
    openAt[i] = running;
  }

  // Per customer: first and last invoice day.
  const firstOf = new Map<number, number>();
  const lastOf = new Map<number, number>();
  for (const invoice of invoices) {
    firstOf.set(invoice.customerId, Math.min(firstOf.get(invoice.customerId) ?? Infinity, invoice.day));
    lastOf.set(invoice.customerId, Math.max(lastOf.get(invoice.customerId) ?? -Infinity, invoice.day));
  }

  const rowsOf = (frequency: AnalyticsFrequency): SellerAnalyticsRow[] => {
    const rows: SellerAnalyticsRow[] = [];
    const index = new Map<number, { row: SellerAnalyticsRow; customers: Set<number>; start: number }>();
    const first = periodStartDay(frequency, firstDay);
    for (let start = first; start <= asOf; start = nextPeriodDay(frequency, start)) {
      const last = Math.min(nextPeriodDay(frequency, start) - 1, asOf);
      const row: SellerAnalyticsRow = {
        sellerId,
        frequency,
        startDate: isoDayOf(start),
        endDate: isoDayOf(last),
        revenue: 0,
        collections: 0,
        invoices: 0,
        customers: 0,
        newCustomers: 0,
        lostCustomers: 0,
        openReceivables: Math.round(openAt[last - firstDay]!),
        dso: null,
      };
      rows.push(row);
      index.set(start, { row, customers: new Set(), start });
    }
    const periodOf = (day: number) => index.get(periodStartDay(frequency, day));
    for (const invoice of invoices) {
      const period = periodOf(invoice.day);
      if (!period) continue;
      period.row.revenue += invoice.amount;
      period.row.invoices += 1;
      period.customers.add(invoice.customerId);
    }
    for (const payment of payments) {
      const period = periodOf(payment.day);
      if (period) period.row.collections += payment.amount;
    }
    for (const day of firstOf.values()) {
      const period = periodOf(day);
      if (period) period.row.newCustomers += 1;
    }
    for (const day of lastOf.values()) {
      const lostOn = day + LOST_CUSTOMER_DAYS;
      if (lostOn > asOf) continue;
      const period = periodOf(lostOn);
      if (period) period.row.lostCustomers += 1;
    }
    for (const { row, customers, start } of index.values()) {
      row.customers = customers.size;
      const days = Math.min(nextPeriodDay(frequency, start) - 1, asOf) - start + 1;
      row.dso = row.revenue > 0 ? Math.round((row.openReceivables / row.revenue) * days * 100) : null;
    }
    return rows;
  };

  const months = new Map<string, SellerMonthTotals>();
  const monthOf = (day: number) => {
    const key = monthKey(day);
    let month = months.get(key);
    if (!month) {
      month = { month: key, invoices: 0, sales: 0, lastInvoicedCustomers: 0 };
      months.set(key, month);
    }
    return month;
  };
  let sales = 0;
  for (const invoice of invoices) {
    const month = monthOf(invoice.day);
    month.invoices += 1;
    month.sales += invoice.amount;
    sales += invoice.amount;
  }
  for (const day of lastOf.values()) monthOf(day).lastInvoicedCustomers += 1;

  return {
    epoch,
    asOf: isoDayOf(asOf),
    rows: { WEEKLY: rowsOf('WEEKLY'), MONTHLY: rowsOf('MONTHLY') },
    totals: {
      customers: lastOf.size,
      invoices: invoices.length,
      sales,
      months: [...months.values()].sort((a, b) => a.month.localeCompare(b.month)),
    },
  };
};
