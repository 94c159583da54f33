import type { Db } from 'mongodb';
import type { LedgerCustomer } from '../../../contracts/ledger';
import { ledgerCollections } from '../../ledger/ledger-collections';
import { createCustomerLedgerFigures } from '../../metrics/customer-ledger-figures';
import type { CustomerReceivablesDoc } from '../../metrics/customer-receivables';
import { CUSTOMER_RECEIVABLES, liveGenerationOf, querySellerMetricSummary } from '../../metrics/metric-store';
import { segmentsOf, type CustomerSegment } from './customer-segments';
import type { SheetContext } from './sheet-context';
import {
  customerNames,
  DAY_MS,
  eachDoc,
  endOfDay,
  exclusionSets,
  invoicesDated,
  monthsBeforeDay,
  settlementsDated,
} from './sheet-ledger';
import type { CellValue, SheetColumn } from './sheet-writer';

/**
 * CUSTOMER_SHEET: one row per customer of the seller, as of the seller's last metrics run
 * (customer_receivables, ADR 30): the figures the customers table shows, plus the trailing-12-month
 * sales, the last payment and the other credits (what payments and credit memos hold unapplied),
 * which the run keeps for the sheet (customer-ledger-figures.ts). Before the first run, and for a run
 * stored before it kept those three, they come from the ledger as of the sheet's day.
 */
export type CustomerSheetRow = {
  customerId: number;
  name: string;
  segment: CustomerSegment;
  openBalance: number;
  current: number;
  overdue: number;
  days1To30: number;
  days31To60: number;
  days61To90: number;
  over90: number;
  otherCredits: number;
  dsoDays: number | null;
  averageDaysLate: number | null;
  lastPayment: Date | null;
  lastPurchase: Date | null;
  salesT12M: number;
  salesT36M: number;
  risk: 'Low' | 'Medium' | 'High';
};

const riskLabels = { low: 'Low', medium: 'Medium', high: 'High' } as const;

type ReceivablesFields = Pick<
  CustomerReceivablesDoc,
  | 'customerId'
  | 'name'
  | 'salesT36M'
  | 'openBalance'
  | 'overdue'
  | 'aging'
  | 'dsoDays'
  | 'averageDaysLate'
  | 'lastPurchase'
  | 'risk'
  | 'salesT12M'
  | 'lastPayment'
  | 'otherCredits'
>;

/**
 * Per customer: trailing-12-month sales, last payment and unapplied credits, read from the ledger as
 * of the sheet's day with the metrics run's own rules (customer-ledger-figures.ts).
 */
const ledgerFiguresOf = async (db: Db, context: SheetContext, asOf: Date) => {
  const figures = createCustomerLedgerFigures(context.exclusions, asOf);
  const end = endOfDay(asOf);
  const invoices = invoicesDated(db, {
    sellerId: context.sellerId,
    from: new Date((monthsBeforeDay(asOf, 12) + 1) * DAY_MS),
    to: end,
    fields: ['customerId', 'transactionDate', 'lines'],
  });
  await eachDoc(invoices, figures.addInvoice);
  await eachDoc(
    settlementsDated(db, { sellerId: context.sellerId, kind: 'payments', to: end }),
    figures.addPayment,
  );
  await eachDoc(
    settlementsDated(db, { sellerId: context.sellerId, kind: 'creditMemos', to: end }),
    figures.addCreditMemo,
  );
  return figures;
};

/** The live metrics run's customer docs, whole: they are small, and reading them whole is the fast way. */
const receivablesOf = async (db: Db, sellerId: number): Promise<Map<number, ReceivablesFields> | null> => {
  const generation = await liveGenerationOf(db, sellerId, 'receivables');
  if (generation === undefined) return null;
  const docs = new Map<number, ReceivablesFields>();
  const cursor = db.collection<CustomerReceivablesDoc>(CUSTOMER_RECEIVABLES).find({ sellerId, generation });
  await eachDoc(cursor, (doc) => docs.set(doc.customerId, doc));
  return docs;
};

/** Names of the customers the ledger figures found that the metrics run did not (new since, or payers only). */
const namesOfOthers = async (db: Db, sellerId: number, customerIds: number[]) => {
  const names = new Map<number, string>();
  for (let i = 0; i < customerIds.length; i += 1000) {
    const cursor = db
      .collection<LedgerCustomer>(ledgerCollections.customers)
      .find(
        { sellerId, customerId: { $in: customerIds.slice(i, i + 1000) } },
        { projection: { _id: 0, customerId: 1, name: 1 } },
      );
    await eachDoc(cursor, (customer) => names.set(customer.customerId, customer.name));
  }
  return names;
};

/**
 * The sheet's rows, by name. After a metrics run: the customers of that run (every customer with an
 * invoice), with their names as of the run, plus any the ledger figures find since (a new customer's
 * first invoice, a payment from a customer without invoices). Before the first run: every customer
 * of the ledger, with empty balances. Excluded customers never.
 */
export const loadCustomerSheetRows = async (
  db: Db,
  context: SheetContext,
  asOf: Date,
): Promise<{ rows: CustomerSheetRow[]; metricsAsOf: Date | null }> => {
  const excluded = exclusionSets(context.exclusions);
  const [receivables, summary] = await Promise.all([
    receivablesOf(db, context.sellerId),
    querySellerMetricSummary(db, context.sellerId),
  ]);
  const stored =
    receivables !== null && [...receivables.values()].every((doc) => doc.salesT12M !== undefined);
  const ledger = stored ? null : await ledgerFiguresOf(db, context, asOf);
  let names: Map<number, string>;
  if (receivables === null) names = await customerNames(db, context.sellerId);
  else {
    const others = (ledger?.customerIds() ?? []).filter((id) => !receivables.has(id));
    names =
      others.length === 0 ? new Map<number, string>() : await namesOfOthers(db, context.sellerId, others);
    for (const [id, doc] of receivables) names.set(id, doc.name);
  }
  // Stored by the run, or read from the ledger when the run did not keep them.
  const figuresOf = (customerId: number) => {
    if (ledger) return ledger.figuresOf(customerId);
    const doc = receivables?.get(customerId);
    return {
      salesT12M: doc?.salesT12M ?? 0,
      lastPayment: doc?.lastPayment ?? null,
      otherCredits: doc?.otherCredits ?? 0,
    };
  };
  const ids = [...names.keys()].filter((id) => !excluded.customers.has(id));
  const segments = segmentsOf(
    ids.map((customerId) => ({ customerId, salesT12M: figuresOf(customerId).salesT12M })),
  );
  const rows = ids.map((customerId): CustomerSheetRow => {
    const r = receivables?.get(customerId);
    const { salesT12M, lastPayment, otherCredits } = figuresOf(customerId);
    return {
      customerId,
      name: names.get(customerId) ?? `Customer ${customerId}`,
      segment: segments.get(customerId) ?? 'Inactive',
      openBalance: r?.openBalance ?? 0,
      current: r?.aging.current ?? 0,
      overdue: r?.overdue ?? 0,
      days1To30: r?.aging.days1To30 ?? 0,
      days31To60: r?.aging.days31To60 ?? 0,
      days61To90: r?.aging.days61To90 ?? 0,
      over90: r?.aging.over90 ?? 0,
      otherCredits,
      dsoDays: r?.dsoDays ?? null,
      averageDaysLate: r?.averageDaysLate ?? null,
      lastPayment,
      lastPurchase: r?.lastPurchase ?? null,
      salesT12M,
      salesT36M: r?.salesT36M ?? 0,
      risk: riskLabels[r?.risk ?? 'low'],
    };
  });
  const keyed = rows.map((row) => ({ row, key: row.name.toLowerCase() }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.row.customerId - b.row.customerId));
  return { rows: keyed.map((k) => k.row), metricsAsOf: summary ? new Date(summary.asOf) : null };
};

type Field = { column: SheetColumn; value: (row: CustomerSheetRow) => CellValue };

/** The columns of the sheet, as the seller's flags want them, and how each row fills them. */
export const customerSheetLayout = (context: Pick<SheetContext, 'showOtherCredits' | 'showSegmentation'>) => {
  const fields: Field[] = [
    { column: { header: 'Customer ID', kind: 'id', width: 12 }, value: (r) => r.customerId },
    { column: { header: 'Customer', kind: 'text', width: 34 }, value: (r) => r.name },
    ...(context.showSegmentation
      ? [{ column: { header: 'Segment', kind: 'text', width: 11 }, value: (r) => r.segment } satisfies Field]
      : []),
    { column: { header: 'Open Balance', kind: 'money', width: 15 }, value: (r) => r.openBalance },
    { column: { header: 'Current', kind: 'money', width: 14 }, value: (r) => r.current },
    { column: { header: 'Overdue', kind: 'money', width: 14 }, value: (r) => r.overdue },
    { column: { header: '1-30 Days', kind: 'money', width: 14 }, value: (r) => r.days1To30 },
    { column: { header: '31-60 Days', kind: 'money', width: 14 }, value: (r) => r.days31To60 },
    { column: { header: '61-90 Days', kind: 'money', width: 14 }, value: (r) => r.days61To90 },
    { column: { header: 'Over 90 Days', kind: 'money', width: 14 }, value: (r) => r.over90 },
    ...(context.showOtherCredits
      ? [
          {
            column: { header: 'Other Credits', kind: 'money', width: 14 },
            value: (r) => r.otherCredits,
          } satisfies Field,
        ]
      : []),
    { column: { header: 'DSO (days)', kind: 'days', width: 11 }, value: (r) => r.dsoDays },
    { column: { header: 'Avg Days Late', kind: 'days', width: 12 }, value: (r) => r.averageDaysLate },
    { column: { header: 'Last Payment', kind: 'date', width: 13 }, value: (r) => r.lastPayment },
    { column: { header: 'Last Purchase', kind: 'date', width: 13 }, value: (r) => r.lastPurchase },
    { column: { header: 'Sales 12 Months', kind: 'money', width: 16 }, value: (r) => r.salesT12M },
    { column: { header: 'Sales 36 Months', kind: 'money', width: 16 }, value: (r) => r.salesT36M },
    { column: { header: 'Risk', kind: 'text', width: 9 }, value: (r) => r.risk },
  ];
  return {
    columns: fields.map((f) => f.column),
    cells: (row: CustomerSheetRow): CellValue[] => fields.map((f) => f.value(row)),
  };
};
