import type { LedgerInvoice } from '../../contracts/ledger';
import type { Exclusions } from './compute-metrics';
import { dayToDate, toDay } from './compute-metrics';

/**
 * Per customer, the figures the customer sheet shows beside its balances (issue 14): sales over the
 * trailing 12 months, the day of the last payment and the credits that payments and credit memos
 * hold unapplied. The metrics run keeps them with the customer's receivables, as of the same day, so
 * a sheet of 100,000 customers reads one document per customer instead of a year of the ledger.
 */
export type CustomerLedgerFigures = { salesT12M: number; lastPayment: Date | null; otherCredits: number };

type Invoice = Pick<LedgerInvoice, 'customerId' | 'transactionDate'> & {
  lines: readonly { productId: number; amount: number }[];
};
type Settlement = {
  customerId: number;
  date: Date;
  amount: number;
  applications: readonly { amount: number }[];
};

/** The same day `months` calendar months earlier, as a day number (compute-metrics.ts's rule). */
export const monthsBeforeDay = (asOf: Date, months: number): number =>
  toDay(new Date(Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth() - months, asOf.getUTCDate())));

/** Accumulates the ledger record by record (in any order), as of the end of the given day. */
export const createCustomerLedgerFigures = (exclusions: Exclusions, asOf: Date) => {
  const excludedCustomers = new Set(exclusions.customerIds);
  const excludedProducts = new Set(exclusions.productIds);
  const lastDay = toDay(asOf);
  const t12Day = monthsBeforeDay(asOf, 12);
  const figures = new Map<number, { salesT12M: number; lastPaymentDay: number; otherCredits: number }>();
  const of = (customerId: number) => {
    let found = figures.get(customerId);
    if (!found) {
      found = { salesT12M: 0, lastPaymentDay: Number.NEGATIVE_INFINITY, otherCredits: 0 };
      figures.set(customerId, found);
    }
    return found;
  };

  /** What was dated up to the end of the as-of day counts. */
  const addSettlement = (settlement: Settlement, payment: boolean) => {
    if (excludedCustomers.has(settlement.customerId)) return;
    const day = toDay(settlement.date);
    if (day > lastDay) return;
    const applied = settlement.applications.reduce((sum, a) => sum + a.amount, 0);
    // A fully applied credit memo tells nothing of its own: it names no customer the sheet lists.
    if (!payment && settlement.amount <= applied) return;
    const customer = of(settlement.customerId);
    if (payment && day > customer.lastPaymentDay) customer.lastPaymentDay = day;
    if (settlement.amount > applied) customer.otherCredits += settlement.amount - applied;
  };

  return {
    /** Sales after the day 12 months before: lines on products not excluded; with none, nowhere. */
    addInvoice: (invoice: Invoice) => {
      if (excludedCustomers.has(invoice.customerId)) return;
      const day = toDay(invoice.transactionDate);
      if (day <= t12Day || day > lastDay) return;
      let amount = 0;
      let counted = false;
      for (const line of invoice.lines) {
        if (excludedProducts.has(line.productId)) continue;
        counted = true;
        amount += line.amount;
      }
      if (counted) of(invoice.customerId).salesT12M += amount;
    },
    addPayment: (payment: Settlement) => addSettlement(payment, true),
    addCreditMemo: (creditMemo: Settlement) => addSettlement(creditMemo, false),

    figuresOf: (customerId: number): CustomerLedgerFigures => {
      const f = figures.get(customerId);
      if (!f) return { salesT12M: 0, lastPayment: null, otherCredits: 0 };
      return {
        salesT12M: f.salesT12M,
        lastPayment: Number.isFinite(f.lastPaymentDay) ? dayToDate(f.lastPaymentDay) : null,
        otherCredits: f.otherCredits,
      };
    },
    customerIds: (): number[] => [...figures.keys()],
  };
};
export type CustomerLedgerFigureAccumulator = ReturnType<typeof createCustomerLedgerFigures>;
