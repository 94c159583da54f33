import type { Db } from 'mongodb';
import type { PlatformLedgerTotals } from '../../contracts/kafka/analytics';
import { allSellerTotals } from './analytics-store';

/** The first month (`YYYY-MM`) of the trailing 36 calendar months that end with now's month. */
export const t36mFirstMonth = (now: Date): string => {
  const index = now.getUTCFullYear() * 12 + now.getUTCMonth() - 35;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
};

/**
 * The ledger's platform totals (GET /api/stats) from the sellers' monthly counts the analytics
 * consumers keep: customers, invoices and invoice sales of the trailing 36 months, sales of all time.
 * Months after now's (invoices dated in the future) count in all time, not in T36M.
 */
export const queryPlatformLedgerTotals = async (db: Db, now: Date): Promise<PlatformLedgerTotals> => {
  const from = t36mFirstMonth(now);
  const to = now.toISOString().slice(0, 7);
  const totals: PlatformLedgerTotals = { customers: 0, invoices: 0, invoiceRevenue: 0, salesAllTime: 0 };
  for (const seller of await allSellerTotals(db)) {
    totals.salesAllTime += seller.sales;
    for (const month of seller.months) {
      if (month.month < from || month.month > to) continue;
      totals.invoices += month.invoices;
      totals.invoiceRevenue += month.sales;
      totals.customers += month.lastInvoicedCustomers;
    }
  }
  return totals;
};
