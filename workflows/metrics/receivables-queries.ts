import type { Db } from 'mongodb';
import type { AgingBucket, AssetInvoice, SellerAgingResponse } from '../../contracts/api/receivables';
import type {
  LedgerCreditMemo,
  LedgerCustomer,
  LedgerInvoice,
  LedgerPayment,
  MetricFrequency,
  MetricRow,
  MetricType,
} from '../../contracts/ledger';
import { ledgerCollections, ledgerDocId } from '../ledger/ledger-collections';
import { createMetricsAccumulator, toDay, type Exclusions } from './compute-metrics';
import { agingBucketOf, agingBuckets, createReceivablesAccumulator } from './receivables-metrics';

/**
 * The receivables answers computed on request from the ledger (ADR 30): aging as of any date, one
 * customer's invoices, and one customer's metric rows. Each reads by index only what it needs.
 */

const invoiceFields = {
  _id: 0,
  providerId: 1,
  customerId: 1,
  docNumber: 1,
  transactionDate: 1,
  dueDate: 1,
  amount: 1,
  balance: 1,
  lines: 1,
} as const;
const settlementFields = { _id: 0, customerId: 1, date: 1, amount: 1, applications: 1 } as const;

type Invoice = Pick<
  LedgerInvoice,
  'providerId' | 'customerId' | 'docNumber' | 'transactionDate' | 'dueDate' | 'amount' | 'balance' | 'lines'
>;
type Settlement = Pick<LedgerPayment, 'customerId' | 'date' | 'amount' | 'applications'>;

const settlementsAfter = async (db: Db, query: { sellerId: number; after: Date; customerId?: number }) => {
  const filter = {
    sellerId: query.sellerId,
    ...(query.customerId === undefined ? {} : { customerId: query.customerId }),
    date: { $gt: query.after },
  };
  const [payments, credits] = await Promise.all([
    db
      .collection<LedgerPayment>(ledgerCollections.payments)
      .find(filter, { projection: settlementFields })
      .toArray(),
    db
      .collection<LedgerCreditMemo>(ledgerCollections.creditMemos)
      .find(filter, { projection: settlementFields })
      .toArray(),
  ]);
  return [...payments, ...credits] as Settlement[];
};

const counted = (invoice: Invoice, exclusions: Exclusions) =>
  !exclusions.customerIds.includes(invoice.customerId) &&
  invoice.lines.some((line) => !exclusions.productIds.includes(line.productId));

/**
 * Aging as of the end of `asOf`'s UTC day: each invoice dated by then is open for its collected
 * balance plus what payments and credit memos dated after that day applied to it. Only invoices
 * still open now or settled after the day can be open then, so those are all that is read (an
 * overpaid invoice, with a negative balance, is not a receivable here).
 */
export const queryAgingAsOf = async (
  db: Db,
  query: { sellerId: number; asOf: Date; customerId?: number | undefined; exclusions: Exclusions },
): Promise<Omit<SellerAgingResponse, 'sellerId'>> => {
  const lastDay = toDay(query.asOf);
  const endOfDay = new Date((lastDay + 1) * 86_400_000 - 1);
  const scope = query.customerId === undefined ? {} : { customerId: query.customerId };
  const later = await settlementsAfter(db, { sellerId: query.sellerId, after: endOfDay, ...scope });
  const appliedLater = new Map<string, number>();
  for (const settlement of later)
    for (const application of settlement.applications)
      appliedLater.set(
        application.invoiceProviderId,
        (appliedLater.get(application.invoiceProviderId) ?? 0) + application.amount,
      );
  const invoices = db.collection<LedgerInvoice & { _id: string }>(ledgerCollections.invoices);
  const openNow = await invoices
    .find(
      query.customerId === undefined
        ? { sellerId: query.sellerId, balance: { $gt: 0 }, transactionDate: { $lte: endOfDay } }
        : { sellerId: query.sellerId, customerId: query.customerId, transactionDate: { $lte: endOfDay } },
      { projection: invoiceFields },
    )
    .toArray();
  const seen = new Set(openNow.map((invoice) => invoice.providerId));
  const settledSince = [...appliedLater.keys()].filter((providerId) => !seen.has(providerId));
  const reopened =
    settledSince.length === 0
      ? []
      : await invoices
          .find(
            { _id: { $in: settledSince.map((id) => ledgerDocId(query.sellerId, id)) } },
            { projection: invoiceFields },
          )
          .toArray();
  const sums = [0, 0, 0, 0, 0];
  const counts = [0, 0, 0, 0, 0];
  for (const invoice of [...openNow, ...reopened] as Invoice[]) {
    if (!counted(invoice, query.exclusions)) continue;
    if (toDay(invoice.transactionDate) > lastDay) continue;
    if (query.customerId !== undefined && invoice.customerId !== query.customerId) continue;
    const open = invoice.balance + (appliedLater.get(invoice.providerId) ?? 0);
    if (open === 0) continue;
    const bucket = agingBucketOf(lastDay - toDay(invoice.dueDate));
    sums[bucket] = (sums[bucket] ?? 0) + open;
    counts[bucket] = (counts[bucket] ?? 0) + 1;
  }
  const amount = sums.reduce((a, b) => a + b, 0);
  return {
    customerId: query.customerId ?? null,
    asOf: endOfDay.toISOString(),
    buckets: agingBuckets.map((bucket: AgingBucket, i) => ({
      bucket,
      amount: sums[i] ?? 0,
      invoices: counts[i] ?? 0,
    })),
    total: {
      amount,
      invoices: counts.reduce((a, b) => a + b, 0),
      overdue: amount - (sums[0] ?? 0),
    },
  };
};

/** A customer's whole ledger, read through the seller-and-customer indexes. */
const customerLedger = async (db: Db, customer: { sellerId: number; customerId: number }) => {
  const key = { sellerId: customer.sellerId, customerId: customer.customerId };
  const [invoices, payments, creditMemos] = await Promise.all([
    db
      .collection<LedgerInvoice>(ledgerCollections.invoices)
      .find(key, { projection: invoiceFields })
      .sort({ transactionDate: 1 })
      .toArray(),
    db
      .collection<LedgerPayment>(ledgerCollections.payments)
      .find(key, { projection: settlementFields })
      .toArray(),
    db
      .collection<LedgerCreditMemo>(ledgerCollections.creditMemos)
      .find(key, { projection: settlementFields })
      .toArray(),
  ]);
  return {
    invoices: invoices as Invoice[],
    payments: payments as Settlement[],
    creditMemos: creditMemos as Settlement[],
  };
};

/**
 * GET /api/assets/{id}: the customer's invoices dated in [start, end], oldest first, with the days
 * since its previous invoice and the moving average of its last 10 gaps, both over its whole history.
 * Null when the seller has no such customer.
 */
export const queryCustomerAssets = async (
  db: Db,
  query: { sellerId: number; customerId: number; start?: Date | undefined; end?: Date | undefined },
) => {
  const customer = await db
    .collection<LedgerCustomer>(ledgerCollections.customers)
    .findOne(
      { sellerId: query.sellerId, customerId: query.customerId },
      { projection: { _id: 0, name: 1, email: 1 } },
    );
  if (!customer) return null;
  const ledger = await customerLedger(db, query);
  const settledOn = new Map<string, { day: number; amount: number }[]>();
  for (const settlement of [...ledger.payments, ...ledger.creditMemos])
    for (const application of settlement.applications)
      settledOn.set(application.invoiceProviderId, [
        ...(settledOn.get(application.invoiceProviderId) ?? []),
        { day: toDay(settlement.date), amount: application.amount },
      ]);
  /** The day the applications brought the balance to zero, when it is zero now. */
  const paidDay = (invoice: Invoice) => {
    if (invoice.balance !== 0) return null;
    const applications = (settledOn.get(invoice.providerId) ?? []).sort((a, b) => a.day - b.day);
    let open = invoice.amount;
    for (const application of applications) {
      open -= application.amount;
      if (open <= 0) return application.day;
    }
    // Settled by something we never saw (a write-off): no date to show.
    return null;
  };
  const gaps: number[] = [];
  const rows: AssetInvoice[] = [];
  let previousDay: number | null = null;
  for (const invoice of ledger.invoices) {
    const day = toDay(invoice.transactionDate);
    const gap = previousDay === null ? null : day - previousDay;
    if (gap !== null) gaps.push(gap);
    previousDay = day;
    const window = gaps.slice(-10);
    const inRange =
      (query.start === undefined || invoice.transactionDate >= dayStart(query.start)) &&
      (query.end === undefined || invoice.transactionDate <= query.end);
    if (!inRange) continue;
    const paid = paidDay(invoice);
    rows.push({
      providerId: invoice.providerId,
      docNumber: invoice.docNumber,
      transactionDate: invoice.transactionDate.toISOString(),
      dueDate: invoice.dueDate.toISOString(),
      amount: invoice.amount,
      balance: invoice.balance,
      paidDate: paid === null ? null : new Date(paid * 86_400_000).toISOString(),
      daysSincePrevious: gap,
      movingAvgDbtDays:
        gap === null ? null : Math.round((window.reduce((a, b) => a + b, 0) * 100) / window.length) / 100,
    });
  }
  return { name: customer.name, email: customer.email, invoices: rows };
};

const dayStart = (date: Date) => new Date(toDay(date) * 86_400_000);

/**
 * One customer's metric rows, computed on request by the same code as the seller's run over the
 * customer's ledger alone (ADR 30: storing them for every customer would multiply the rows).
 * Null when the seller has no such customer.
 */
export const queryCustomerMetricRows = async (
  db: Db,
  query: {
    sellerId: number;
    customerId: number;
    type: MetricType;
    frequency: MetricFrequency;
    asOf: Date;
    exclusions: Exclusions;
  },
): Promise<MetricRow[] | null> => {
  const known = await db
    .collection<LedgerCustomer>(ledgerCollections.customers)
    .countDocuments({ sellerId: query.sellerId, customerId: query.customerId }, { limit: 1 });
  if (known === 0) return null;
  const ledger = await customerLedger(db, query);
  const totals = createMetricsAccumulator(query.exclusions);
  const receivables = createReceivablesAccumulator(query.exclusions);
  for (const invoice of ledger.invoices) {
    totals.addInvoice(invoice);
    receivables.addInvoice(invoice);
  }
  for (const payment of ledger.payments) {
    totals.addPayment(payment);
    receivables.addPayment(payment);
  }
  ledger.creditMemos.forEach(receivables.addCreditMemo);
  const rows = [
    ...totals.compute({ asOf: query.asOf, retention: 'AUTO' }).rows,
    ...receivables.compute({ asOf: query.asOf }).rows,
  ];
  return rows
    .filter((row) => row.type === query.type && row.frequency === query.frequency)
    .map((row) => ({ StartDate: row.startDate.toISOString(), Value: row.value, Count: row.count }));
};
