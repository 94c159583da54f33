import type { Db } from 'mongodb';
import {
  LOST_CUSTOMER_DAYS,
  type AnalyticsFrequency,
  type SellerAnalyticsRow,
} from '../../contracts/kafka/analytics';
import type { LedgerCreditMemo, LedgerInvoice, LedgerPayment } from '../../contracts/ledger';
import { ledgerCollections } from '../../workflows/ledger/ledger-collections';

/**
 * The analytics figures computed the slow, obvious way from the ledger rows the sync stored
 * (docs/analytics.md's definitions, read again independently of workflows/analytics/): every period
 * scans every invoice and settlement. Tests compare the consumers' read models with it.
 */
const DAY = 86_400_000;
const day = (date: Date) => Math.floor(date.getTime() / DAY);
const iso = (d: number) => new Date(d * DAY).toISOString().slice(0, 10);

export type SellerLedger = {
  invoices: LedgerInvoice[];
  payments: LedgerPayment[];
  creditMemos: LedgerCreditMemo[];
};

export const readSellerLedger = async (db: Db, sellerId: number): Promise<SellerLedger> => ({
  invoices: await db.collection<LedgerInvoice>(ledgerCollections.invoices).find({ sellerId }).toArray(),
  payments: await db.collection<LedgerPayment>(ledgerCollections.payments).find({ sellerId }).toArray(),
  creditMemos: await db
    .collection<LedgerCreditMemo>(ledgerCollections.creditMemos)
    .find({ sellerId })
    .toArray(),
});

const periodsOf = (frequency: AnalyticsFrequency, first: number, last: number): [number, number][] => {
  const periods: [number, number][] = [];
  const d0 = new Date(first * DAY);
  let start =
    frequency === 'WEEKLY'
      ? first - ((d0.getUTCDay() + 6) % 7)
      : day(new Date(Date.UTC(d0.getUTCFullYear(), d0.getUTCMonth(), 1)));
  while (start <= last) {
    const s = new Date(start * DAY);
    const next =
      frequency === 'WEEKLY'
        ? start + 7
        : day(new Date(Date.UTC(s.getUTCFullYear(), s.getUTCMonth() + 1, 1)));
    periods.push([start, next - 1]);
    start = next;
  }
  return periods;
};

export const expectedSellerRows = (
  sellerId: number,
  ledger: SellerLedger,
  frequency: AnalyticsFrequency,
): SellerAnalyticsRow[] => {
  const settlements = [...ledger.payments, ...ledger.creditMemos];
  const allDays = [
    ...ledger.invoices.map((i) => day(i.transactionDate)),
    ...settlements.map((s) => day(s.date)),
  ];
  if (ledger.invoices.length === 0) return [];
  const asOf = Math.max(...allDays);
  const first = Math.min(...ledger.invoices.map((i) => day(i.transactionDate)));
  const byCustomer = new Map<number, number[]>();
  for (const invoice of ledger.invoices) {
    const list = byCustomer.get(invoice.customerId) ?? [];
    list.push(day(invoice.transactionDate));
    byCustomer.set(invoice.customerId, list);
  }
  const applied = new Map<string, { day: number; amount: number }[]>();
  for (const settlement of settlements)
    for (const application of settlement.applications) {
      const list = applied.get(application.invoiceProviderId) ?? [];
      list.push({ day: day(settlement.date), amount: application.amount });
      applied.set(application.invoiceProviderId, list);
    }
  const open = (invoice: LedgerInvoice, at: number) =>
    invoice.balance +
    (applied.get(invoice.providerId) ?? []).filter((a) => a.day > at).reduce((sum, a) => sum + a.amount, 0);
  return periodsOf(frequency, first, asOf).map(([start, end]) => {
    const last = Math.min(end, asOf);
    const inPeriod = ledger.invoices.filter(
      (i) => day(i.transactionDate) >= start && day(i.transactionDate) <= last,
    );
    const revenue = inPeriod.reduce((sum, i) => sum + i.amount, 0);
    const openReceivables = ledger.invoices
      .filter((i) => day(i.transactionDate) <= last)
      .reduce((sum, i) => sum + open(i, last), 0);
    const days = [...byCustomer.values()];
    return {
      sellerId,
      frequency,
      startDate: iso(start),
      endDate: iso(last),
      revenue,
      collections: ledger.payments
        .filter((p) => day(p.date) >= start && day(p.date) <= last)
        .reduce((sum, p) => sum + p.amount, 0),
      invoices: inPeriod.length,
      customers: new Set(inPeriod.map((i) => i.customerId)).size,
      newCustomers: days.filter((d) => Math.min(...d) >= start && Math.min(...d) <= last).length,
      lostCustomers: days.filter((d) => {
        const lost = Math.max(...d) + LOST_CUSTOMER_DAYS;
        return lost <= asOf && lost >= start && lost <= last;
      }).length,
      openReceivables,
      dso: revenue > 0 ? Math.round((openReceivables / revenue) * (last - start + 1) * 100) : null,
    };
  });
};

/** Customers, invoices and sales over the trailing 36 calendar months to `now`, and sales ever. */
export const expectedPlatformTotals = (ledgers: SellerLedger[], now: Date) => {
  const fromMonth = now.getUTCFullYear() * 12 + now.getUTCMonth() - 35;
  const toMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const inWindow = (d: Date) => {
    const m = d.getUTCFullYear() * 12 + d.getUTCMonth();
    return m >= fromMonth && m <= toMonth;
  };
  let customers = 0;
  let invoices = 0;
  let invoiceRevenue = 0;
  let salesAllTime = 0;
  for (const ledger of ledgers) {
    const recent = ledger.invoices.filter((i) => inWindow(i.transactionDate));
    customers += new Set(recent.map((i) => i.customerId)).size;
    invoices += recent.length;
    invoiceRevenue += recent.reduce((sum, i) => sum + i.amount, 0);
    salesAllTime += ledger.invoices.reduce((sum, i) => sum + i.amount, 0);
  }
  return { customers, invoices, invoiceRevenue, salesAllTime };
};
