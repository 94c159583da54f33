import type { Db } from 'mongodb';
import type { LedgerInvoice } from '../../../contracts/ledger';
import { ledgerCollections } from '../../ledger/ledger-collections';
import { toDay, type Exclusions } from '../../metrics/compute-metrics';
import { customerNames } from './payment-habits';
import type { ChaseInvoice } from './report-data';
import { endOfDay, isoDay } from './report-period';

/**
 * The invoices to chase first (ADR 36): those still open at the last sync (balance above zero)
 * that were past due at the period's last day, ranked by balance x days overdue, largest first
 * (ties by due date, then document number). Excluded customers, and invoices made only of
 * excluded products, are left out, as in the metrics. Reads only the open invoices, by the
 * (seller, balance) index.
 */
export const invoicesToChase = async (
  db: Db,
  query: { sellerId: number; lastDay: number; exclusions: Exclusions; limit: number },
): Promise<{ invoices: ChaseInvoice[]; overdueInvoices: number }> => {
  const open = await db
    .collection<LedgerInvoice>(ledgerCollections.invoices)
    .find(
      // The dates are checked below: in the filter they could lead the store to the due-date
      // index, whose range holds nearly every invoice, instead of the balance index.
      { sellerId: query.sellerId, balance: { $gt: 0 } },
      {
        projection: {
          _id: 0,
          customerId: 1,
          docNumber: 1,
          transactionDate: 1,
          dueDate: 1,
          balance: 1,
          lines: 1,
        },
      },
    )
    .toArray();
  const excludedCustomers = new Set(query.exclusions.customerIds);
  const excludedProducts = new Set(query.exclusions.productIds);
  const overdue = open
    .filter(
      (invoice) =>
        invoice.transactionDate <= endOfDay(query.lastDay) &&
        !excludedCustomers.has(invoice.customerId) &&
        invoice.lines.some((line) => !excludedProducts.has(line.productId)),
    )
    .map((invoice) => {
      const daysOverdue = query.lastDay - toDay(invoice.dueDate);
      return { invoice, daysOverdue, score: invoice.balance * daysOverdue };
    })
    .filter((row) => row.daysOverdue > 0);
  overdue.sort(
    (a, b) =>
      b.score - a.score ||
      a.invoice.dueDate.getTime() - b.invoice.dueDate.getTime() ||
      a.invoice.docNumber.localeCompare(b.invoice.docNumber),
  );
  const top = overdue.slice(0, query.limit);
  const names = await customerNames(db, query.sellerId, [...new Set(top.map((r) => r.invoice.customerId))]);
  return {
    overdueInvoices: overdue.length,
    invoices: top.map(({ invoice, daysOverdue }) => ({
      customerId: invoice.customerId,
      customerName: names.get(invoice.customerId) ?? `Customer ${invoice.customerId}`,
      docNumber: invoice.docNumber,
      dueDate: isoDay(toDay(invoice.dueDate)),
      daysOverdue,
      balance: invoice.balance,
    })),
  };
};
