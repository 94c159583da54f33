import type { Db } from 'mongodb';
import { toDay } from '../../metrics/compute-metrics';
import type { CustomerSheetRow } from './customer-sheet';
import type { SheetContext } from './sheet-context';
import {
  countedAmount,
  DAY_MS,
  eachDoc,
  endOfDay,
  exclusionSets,
  invoicesDated,
  settlementsDated,
} from './sheet-ledger';
import type { CellValue, SheetColumn } from './sheet-writer';

/**
 * The customer review sheet (includeCustomerReviewSheet): the customers whose habits changed, with
 * the figures before and after. Two windows end on the as-of day: the last 90 days ("after") and the
 * 365 days before them ("before").
 * - Paying later / Paying sooner: the mean days late of the invoices paid in each window (paid on the
 *   day its payments and credit memos first covered the amount; days late = that day minus the due
 *   day, negative when early) moved by 10 days or more. Each window needs at least one paid invoice.
 * - Buying less / Buying more: the last 90 days' sales against the before window's sales per 90 days
 *   (x 90 / 365): half or less, or one and a half times or more. Customers without sales before are
 *   new, not changed, and are left out of this rule.
 * Invoices issued more than a year before the before window are not read (their payment would be an
 * outlier of its own). docs/adr/0037-report-sheets-and-email.md.
 */
export const REVIEW_RECENT_DAYS = 90;
export const REVIEW_BEFORE_DAYS = 365;
export const DAYS_LATE_CHANGE = 10;
export const SALES_CHANGE = 0.5;

export type CustomerReviewRow = {
  customerId: number;
  name: string;
  segment: CustomerSheetRow['segment'];
  changes: string[];
  daysLateBefore: number | null;
  daysLateAfter: number | null;
  paidBefore: number;
  paidAfter: number;
  /** Sales per 90 days in the before window, cents (fractional: a rate). */
  salesBeforePer90Days: number;
  salesLast90Days: number;
  openBalance: number;
  overdue: number;
};

const mean = (values: readonly number[]) =>
  values.length === 0 ? null : Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10;

export const loadCustomerReviewRows = async (
  db: Db,
  context: SheetContext,
  /** The customer sheet's rows: names, segments and balances of every customer that counts. */
  request: { asOf: Date; customers: readonly CustomerSheetRow[] },
): Promise<CustomerReviewRow[]> => {
  const { asOf, customers } = request;
  const excluded = exclusionSets(context.exclusions);
  const lastDay = toDay(asOf);
  const afterStart = lastDay - REVIEW_RECENT_DAYS + 1;
  const beforeStart = afterStart - REVIEW_BEFORE_DAYS;
  const readFrom = new Date((beforeStart - 365) * DAY_MS);
  const end = endOfDay(asOf);

  type Kept = { customerId: number; day: number; dueDay: number; amount: number };
  const invoices = new Map<string, Kept>();
  const sales = new Map<number, { before: number; after: number }>();
  const read = invoicesDated(db, {
    sellerId: context.sellerId,
    from: readFrom,
    to: end,
    fields: ['providerId', 'customerId', 'transactionDate', 'dueDate', 'amount', 'lines'],
  });
  await eachDoc(read, (invoice) => {
    if (excluded.customers.has(invoice.customerId)) return;
    const counted = countedAmount(invoice, excluded);
    if (counted === null) return;
    const day = toDay(invoice.transactionDate);
    invoices.set(invoice.providerId, {
      customerId: invoice.customerId,
      day,
      dueDay: toDay(invoice.dueDate),
      amount: invoice.amount,
    });
    const sum = sales.get(invoice.customerId) ?? { before: 0, after: 0 };
    if (day >= afterStart) sum.after += counted;
    else if (day >= beforeStart) sum.before += counted;
    sales.set(invoice.customerId, sum);
  });
  const applications = new Map<string, { day: number; amount: number }[]>();
  for (const kind of ['payments', 'creditMemos'] as const)
    await eachDoc(
      settlementsDated(db, { sellerId: context.sellerId, kind, from: readFrom, to: end }),
      (settlement) => {
        const day = toDay(settlement.date);
        for (const application of settlement.applications) {
          if (!invoices.has(application.invoiceProviderId)) continue;
          const list = applications.get(application.invoiceProviderId) ?? [];
          list.push({ day, amount: application.amount });
          applications.set(application.invoiceProviderId, list);
        }
      },
    );
  const late = new Map<number, { before: number[]; after: number[] }>();
  for (const [providerId, list] of applications) {
    const invoice = invoices.get(providerId);
    if (!invoice || invoice.amount <= 0) continue;
    list.sort((a, b) => a.day - b.day);
    let covered = 0;
    let paidDay: number | null = null;
    for (const application of list) {
      covered += application.amount;
      if (covered >= invoice.amount) {
        paidDay = application.day;
        break;
      }
    }
    if (paidDay === null || paidDay < beforeStart) continue;
    const days = late.get(invoice.customerId) ?? { before: [], after: [] };
    (paidDay >= afterStart ? days.after : days.before).push(paidDay - invoice.dueDay);
    late.set(invoice.customerId, days);
  }

  const rows: (CustomerReviewRow & { weight: number })[] = [];
  for (const customer of customers) {
    const days = late.get(customer.customerId) ?? { before: [], after: [] };
    const sold = sales.get(customer.customerId) ?? { before: 0, after: 0 };
    const before = mean(days.before);
    const after = mean(days.after);
    const perNinety = (sold.before * REVIEW_RECENT_DAYS) / REVIEW_BEFORE_DAYS;
    const changes: string[] = [];
    let weight = 0;
    if (before !== null && after !== null && Math.abs(after - before) >= DAYS_LATE_CHANGE) {
      changes.push(after > before ? 'Paying later' : 'Paying sooner');
      weight = Math.max(weight, Math.abs(after - before) / DAYS_LATE_CHANGE);
    }
    if (perNinety > 0) {
      const ratio = sold.after / perNinety;
      if (ratio <= 1 - SALES_CHANGE || ratio >= 1 + SALES_CHANGE) {
        changes.push(ratio < 1 ? 'Buying less' : 'Buying more');
        weight = Math.max(weight, Math.abs(ratio - 1) / SALES_CHANGE);
      }
    }
    if (changes.length === 0) continue;
    rows.push({
      customerId: customer.customerId,
      name: customer.name,
      segment: customer.segment,
      changes,
      daysLateBefore: before,
      daysLateAfter: after,
      paidBefore: days.before.length,
      paidAfter: days.after.length,
      salesBeforePer90Days: perNinety,
      salesLast90Days: sold.after,
      openBalance: customer.openBalance,
      overdue: customer.overdue,
      weight,
    });
  }
  rows.sort((a, b) => b.weight - a.weight || a.customerId - b.customerId);
  return rows.map(({ weight: _weight, ...row }) => row);
};

type Field = { column: SheetColumn; value: (row: CustomerReviewRow) => CellValue };

export const customerReviewLayout = (context: Pick<SheetContext, 'showSegmentation'>) => {
  const fields: Field[] = [
    { column: { header: 'Customer ID', kind: 'id', width: 12 }, value: (r) => r.customerId },
    { column: { header: 'Customer', kind: 'text', width: 34 }, value: (r) => r.name },
    ...(context.showSegmentation
      ? [{ column: { header: 'Segment', kind: 'text', width: 11 }, value: (r) => r.segment } satisfies Field]
      : []),
    { column: { header: 'Change', kind: 'text', width: 26 }, value: (r) => r.changes.join(', ') },
    { column: { header: 'Avg Days Late Before', kind: 'days', width: 14 }, value: (r) => r.daysLateBefore },
    {
      column: { header: 'Avg Days Late Last 90 Days', kind: 'days', width: 14 },
      value: (r) => r.daysLateAfter,
    },
    {
      column: { header: 'Days Late Change', kind: 'days', width: 12 },
      value: (r) =>
        r.daysLateBefore === null || r.daysLateAfter === null
          ? null
          : Math.round((r.daysLateAfter - r.daysLateBefore) * 10) / 10,
    },
    { column: { header: 'Invoices Paid Before', kind: 'integer', width: 12 }, value: (r) => r.paidBefore },
    {
      column: { header: 'Invoices Paid Last 90 Days', kind: 'integer', width: 12 },
      value: (r) => r.paidAfter,
    },
    {
      column: { header: 'Sales per 90 Days Before', kind: 'money', width: 16 },
      value: (r) => Math.round(r.salesBeforePer90Days),
    },
    { column: { header: 'Sales Last 90 Days', kind: 'money', width: 16 }, value: (r) => r.salesLast90Days },
    {
      column: { header: 'Sales Change', kind: 'percent', width: 11 },
      value: (r) => (r.salesBeforePer90Days > 0 ? r.salesLast90Days / r.salesBeforePer90Days - 1 : null),
    },
    { column: { header: 'Open Balance', kind: 'money', width: 15 }, value: (r) => r.openBalance },
    { column: { header: 'Overdue', kind: 'money', width: 14 }, value: (r) => r.overdue },
  ];
  return {
    columns: fields.map((f) => f.column),
    cells: (row: CustomerReviewRow): CellValue[] => fields.map((f) => f.value(row)),
  };
};
