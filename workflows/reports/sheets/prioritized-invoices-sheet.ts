import type { Db } from 'mongodb';
import { toDay } from '../../metrics/compute-metrics';
import type { SheetContext } from './sheet-context';
import { customerNames, DAY_MS, exclusionSets, openInvoicesAsOf } from './sheet-ledger';
import type { CellValue, SheetColumn } from './sheet-writer';

/**
 * PRIORITIZED_INVOICES_SHEET: the open overdue invoices at the end of the as-of day, ranked by the
 * priority score "open amount x days overdue" (in currency units x days): a large invoice a little
 * late and a small one very late both come up, a small recent one goes to the bottom. Ties: older
 * due date first, then invoice number. Excluded customers and products are left out (as the aging).
 */
export type PrioritizedInvoiceRow = {
  rank: number;
  docNumber: string;
  customerId: number;
  customerName: string;
  invoiceDate: Date;
  dueDate: Date;
  daysOverdue: number;
  openAmount: number;
  priorityScore: number;
};

/** Open amount in currency units times days overdue, rounded to a whole number. */
export const priorityScoreOf = (openCents: number, daysOverdue: number): number =>
  Math.round((openCents / 100) * daysOverdue);

export const loadPrioritizedInvoiceRows = async (
  db: Db,
  context: SheetContext,
  asOf: Date,
): Promise<PrioritizedInvoiceRow[]> => {
  const lastDay = toDay(asOf);
  const [open, names] = await Promise.all([
    openInvoicesAsOf(db, { sellerId: context.sellerId, asOf, excluded: exclusionSets(context.exclusions) }),
    customerNames(db, context.sellerId),
  ]);
  const rows = open
    .filter((invoice) => lastDay - invoice.dueDay > 0)
    .map((invoice) => {
      const daysOverdue = lastDay - invoice.dueDay;
      return {
        rank: 0,
        docNumber: invoice.docNumber,
        customerId: invoice.customerId,
        customerName: names.get(invoice.customerId) ?? `Customer ${invoice.customerId}`,
        invoiceDate: new Date(invoice.day * DAY_MS),
        dueDate: new Date(invoice.dueDay * DAY_MS),
        daysOverdue,
        openAmount: invoice.open,
        priorityScore: priorityScoreOf(invoice.open, daysOverdue),
        exact: invoice.open * daysOverdue,
      };
    })
    .sort(
      (a, b) =>
        b.exact - a.exact ||
        a.dueDate.getTime() - b.dueDate.getTime() ||
        (a.docNumber < b.docNumber ? -1 : a.docNumber > b.docNumber ? 1 : 0),
    );
  return rows.map(({ exact: _exact, ...row }, i) => ({ ...row, rank: i + 1 }));
};

export const prioritizedInvoicesLayout = () => {
  const columns: SheetColumn[] = [
    { header: 'Rank', kind: 'integer', width: 8 },
    { header: 'Invoice No.', kind: 'text', width: 16 },
    { header: 'Customer ID', kind: 'id', width: 12 },
    { header: 'Customer', kind: 'text', width: 32 },
    { header: 'Invoice Date', kind: 'date', width: 13 },
    { header: 'Due Date', kind: 'date', width: 13 },
    { header: 'Days Overdue', kind: 'integer', width: 12 },
    { header: 'Open Amount', kind: 'money', width: 15 },
    { header: 'Priority Score', kind: 'score', width: 14 },
  ];
  return {
    columns,
    cells: (row: PrioritizedInvoiceRow): CellValue[] => [
      row.rank,
      row.docNumber,
      row.customerId,
      row.customerName,
      row.invoiceDate,
      row.dueDate,
      row.daysOverdue,
      row.openAmount,
      row.priorityScore,
    ],
  };
};
