import type { Db } from 'mongodb';
import { dayOfMonthIndex, monthIndexOf, toDay } from '../../metrics/compute-metrics';
import type { SheetContext } from './sheet-context';
import { DAY_MS, eachDoc, endOfDay, exclusionSets, invoicesDated, productNames } from './sheet-ledger';
import type { CellValue, SheetColumn } from './sheet-writer';

/**
 * PRODUCT_SHEET: revenue by product per calendar month, from the ledger's invoice lines: the 12
 * months ending with the as-of month (that one up to the as-of day), their total beside the 12
 * months before, the change, units and invoices. Products sold in neither year are left out, as are
 * excluded products and the invoices of excluded customers. Largest total first.
 */
export type ProductSheetRow = {
  productId: number;
  name: string;
  /** Cents per month, oldest first, 12 entries. */
  months: number[];
  total: number;
  previousTotal: number;
  units: number;
  invoices: number;
};

const MONTHS = 12;
const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Nov 2025` for each of the 12 months, oldest first. */
export const productMonthLabels = (asOf: Date): string[] => {
  const last = monthIndexOf(toDay(asOf));
  return Array.from({ length: MONTHS }, (_, i) => {
    const month = last - MONTHS + 1 + i;
    return `${monthNames[month % 12]} ${Math.floor(month / 12)}`;
  });
};

export const loadProductSheetRows = async (
  db: Db,
  context: SheetContext,
  asOf: Date,
): Promise<ProductSheetRow[]> => {
  const excluded = exclusionSets(context.exclusions);
  const lastMonth = monthIndexOf(toDay(asOf));
  const firstMonth = lastMonth - MONTHS + 1;
  const previousFirst = firstMonth - MONTHS;
  const names = await productNames(db, context.sellerId);
  const products = new Map<number, ProductSheetRow & { lastInvoice: string | null }>();
  const rowOf = (productId: number) => {
    const known = products.get(productId);
    if (known) return known;
    const row = {
      productId,
      name: names.get(productId) ?? `Product ${productId}`,
      months: Array.from({ length: MONTHS }, () => 0),
      total: 0,
      previousTotal: 0,
      units: 0,
      invoices: 0,
      lastInvoice: null,
    };
    products.set(productId, row);
    return row;
  };
  const read = invoicesDated(db, {
    sellerId: context.sellerId,
    from: new Date(dayOfMonthIndex(previousFirst) * DAY_MS),
    to: endOfDay(asOf),
    fields: ['providerId', 'customerId', 'transactionDate', 'lines'],
  });
  await eachDoc(read, (invoice) => {
    if (excluded.customers.has(invoice.customerId)) return;
    const month = monthIndexOf(toDay(invoice.transactionDate));
    for (const line of invoice.lines) {
      if (excluded.products.has(line.productId)) continue;
      const row = rowOf(line.productId);
      if (month < firstMonth) {
        row.previousTotal += line.amount;
        continue;
      }
      row.months[month - firstMonth] = (row.months[month - firstMonth] ?? 0) + line.amount;
      row.total += line.amount;
      row.units += line.quantity;
      // An invoice with two lines of one product is one invoice of it.
      if (row.lastInvoice !== invoice.providerId) {
        row.invoices += 1;
        row.lastInvoice = invoice.providerId;
      }
    }
  });
  return [...products.values()]
    .map(({ lastInvoice: _lastInvoice, ...row }) => row)
    .sort((a, b) => b.total - a.total || b.previousTotal - a.previousTotal || a.productId - b.productId);
};

export const productSheetLayout = (asOf: Date) => {
  const labels = productMonthLabels(asOf);
  const columns: SheetColumn[] = [
    { header: 'Product ID', kind: 'id', width: 11 },
    { header: 'Product', kind: 'text', width: 32 },
    ...labels.map((label): SheetColumn => ({ header: label, kind: 'money', width: 13 })),
    { header: 'Total 12 Months', kind: 'money', width: 16 },
    { header: 'Previous 12 Months', kind: 'money', width: 16 },
    { header: 'Change', kind: 'percent', width: 10 },
    { header: 'Units 12 Months', kind: 'integer', width: 12 },
    { header: 'Invoices 12 Months', kind: 'integer', width: 12 },
  ];
  return {
    columns,
    cells: (row: ProductSheetRow): CellValue[] => [
      row.productId,
      row.name,
      ...row.months,
      row.total,
      row.previousTotal,
      row.previousTotal > 0 ? row.total / row.previousTotal - 1 : null,
      row.units,
      row.invoices,
    ],
  };
};
