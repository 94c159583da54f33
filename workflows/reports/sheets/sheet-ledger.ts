import type { Db, FindCursor } from 'mongodb';
import type {
  LedgerCreditMemo,
  LedgerCustomer,
  LedgerInvoice,
  LedgerPayment,
  LedgerProduct,
} from '../../../contracts/ledger';
import { ledgerCollections, ledgerDocId } from '../../ledger/ledger-collections';
import { toDay, type Exclusions } from '../../metrics/compute-metrics';

/**
 * The ledger reads the sheets share. Each goes through an index of workflows/ledger/ledger-collections.ts
 * (seller and date, seller and balance) and projects only the fields it uses; days are UTC day
 * numbers as in the metrics (compute-metrics.ts), so a sheet's "as of" day is the metrics' day.
 */

export const DAY_MS = 86_400_000;

/** The end of the as-of day: what was dated on that day counts. */
export const endOfDay = (asOf: Date): Date => new Date((toDay(asOf) + 1) * DAY_MS - 1);

export { monthsBeforeDay } from '../../metrics/customer-ledger-figures';

export type InvoiceFields = Pick<
  LedgerInvoice,
  'providerId' | 'customerId' | 'docNumber' | 'transactionDate' | 'dueDate' | 'amount' | 'balance' | 'lines'
>;
export type SettlementFields = Pick<LedgerPayment, 'customerId' | 'date' | 'amount' | 'applications'>;

const invoiceProjection = {
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
const settlementProjection = { _id: 0, customerId: 1, date: 1, amount: 1, applications: 1 } as const;

export const exclusionSets = (exclusions: Exclusions) => ({
  customers: new Set(exclusions.customerIds),
  products: new Set(exclusions.productIds),
});
export type ExclusionSets = ReturnType<typeof exclusionSets>;

/** The invoice's amount on products not excluded; an invoice with none counts nowhere (as the metrics). */
export const countedAmount = (
  invoice: Pick<LedgerInvoice, 'lines'>,
  excluded: ExclusionSets,
): number | null => {
  let amount = 0;
  let counted = false;
  for (const line of invoice.lines) {
    if (excluded.products.has(line.productId)) continue;
    counted = true;
    amount += line.amount;
  }
  return counted ? amount : null;
};

/**
 * Visits every document of a cursor in one synchronous pass per batch: the visitor runs as the
 * cursor's map and the mapped values (one small number each) are dropped. `for await` costs two
 * promise turns per document, which on the embedded store was a third of reading 100,000 of them.
 */
export const eachDoc = async <T>(cursor: FindCursor<T>, visit: (doc: T) => void): Promise<void> => {
  await cursor
    .map((doc) => {
      visit(doc);
      return 0;
    })
    .toArray();
};

/** A seller's customers' names, by customer id. */
export const customerNames = async (db: Db, sellerId: number): Promise<Map<number, string>> => {
  const names = new Map<number, string>();
  const cursor = db
    .collection<LedgerCustomer>(ledgerCollections.customers)
    .find({ sellerId }, { projection: { _id: 0, customerId: 1, name: 1 } });
  await eachDoc(cursor, (customer) => names.set(customer.customerId, customer.name));
  return names;
};

export const productNames = async (db: Db, sellerId: number): Promise<Map<number, string>> => {
  const names = new Map<number, string>();
  const cursor = db
    .collection<LedgerProduct>(ledgerCollections.products)
    .find({ sellerId }, { projection: { _id: 0, productId: 1, name: 1 } });
  await eachDoc(cursor, (product) => names.set(product.productId, product.name));
  return names;
};

/**
 * Invoices dated in [from, to] (inclusive instants), through the seller-and-date index. `fields`
 * narrows what is read to those fields (the embedded store copies each projected field, so fewer is
 * faster there, and less travels from MongoDB).
 */
export const invoicesDated = <F extends keyof InvoiceFields = keyof InvoiceFields>(
  db: Db,
  query: { sellerId: number; from: Date; to: Date; fields?: readonly F[] },
): FindCursor<Pick<InvoiceFields, F>> =>
  db.collection<LedgerInvoice>(ledgerCollections.invoices).find(
    { sellerId: query.sellerId, transactionDate: { $gte: query.from, $lte: query.to } },
    {
      projection: query.fields
        ? { _id: 0, ...Object.fromEntries(query.fields.map((field) => [field, 1])) }
        : invoiceProjection,
    },
  );

/** Payments (or credit memos) dated up to `to`, or in a range, through the seller-and-date index. */
export const settlementsDated = (
  db: Db,
  query: { sellerId: number; kind: 'payments' | 'creditMemos'; from?: Date; to?: Date },
): FindCursor<SettlementFields> => {
  const date: Record<string, Date> = {};
  if (query.from) date.$gte = query.from;
  if (query.to) date.$lte = query.to;
  return db
    .collection<LedgerPayment | LedgerCreditMemo>(ledgerCollections[query.kind])
    .find(
      { sellerId: query.sellerId, ...(query.from || query.to ? { date } : {}) },
      { projection: settlementProjection },
    );
};

export type OpenInvoice = InvoiceFields & { open: number; day: number; dueDay: number };

/**
 * The invoices open at the end of the as-of day (the rule of receivables-queries.ts queryAgingAsOf):
 * what is open now, plus what payments and credit memos dated after that day settled since. Excluded
 * customers and invoices on excluded products only are left out.
 */
export const openInvoicesAsOf = async (
  db: Db,
  query: { sellerId: number; asOf: Date; excluded: ExclusionSets },
): Promise<OpenInvoice[]> => {
  const lastDay = toDay(query.asOf);
  const end = endOfDay(query.asOf);
  const appliedLater = new Map<string, number>();
  for (const kind of ['payments', 'creditMemos'] as const) {
    const later = db
      .collection<LedgerPayment>(ledgerCollections[kind])
      .find({ sellerId: query.sellerId, date: { $gt: end } }, { projection: settlementProjection });
    await eachDoc(later, (settlement) => {
      for (const application of settlement.applications)
        appliedLater.set(
          application.invoiceProviderId,
          (appliedLater.get(application.invoiceProviderId) ?? 0) + application.amount,
        );
    });
  }
  const invoices = db.collection<LedgerInvoice & { _id: string }>(ledgerCollections.invoices);
  const openNow = (await invoices
    .find(
      { sellerId: query.sellerId, balance: { $gt: 0 }, transactionDate: { $lte: end } },
      { projection: invoiceProjection },
    )
    .toArray()) as InvoiceFields[];
  const seen = new Set(openNow.map((invoice) => invoice.providerId));
  const settledSince = [...appliedLater.keys()].filter((providerId) => !seen.has(providerId));
  const reopened = (
    settledSince.length === 0
      ? []
      : await invoices
          .find(
            { _id: { $in: settledSince.map((id) => ledgerDocId(query.sellerId, id)) } },
            { projection: invoiceProjection },
          )
          .toArray()
  ) as InvoiceFields[];
  const open: OpenInvoice[] = [];
  for (const invoice of [...openNow, ...reopened]) {
    if (query.excluded.customers.has(invoice.customerId)) continue;
    if (countedAmount(invoice, query.excluded) === null) continue;
    const day = toDay(invoice.transactionDate);
    if (day > lastDay) continue;
    const amount = invoice.balance + (appliedLater.get(invoice.providerId) ?? 0);
    if (amount <= 0) continue;
    open.push({ ...invoice, open: amount, day, dueDay: toDay(invoice.dueDate) });
  }
  return open;
};
