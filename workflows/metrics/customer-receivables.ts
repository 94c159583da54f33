import type { Db } from 'mongodb';
import type { CustomerSortColumn, SellerCustomerRow } from '../../contracts/api/receivables';
import { containsText, hasSearch } from '../../projections/search-pattern';
import type { CustomerMetrics } from './compute-metrics';
import type { CustomerLedgerFigureAccumulator, CustomerLedgerFigures } from './customer-ledger-figures';
import { riskOf, type CustomerReceivables } from './receivables-metrics';

/**
 * The seller customers table (issue 15): per customer, its figures as of the seller's last metrics
 * run, stored by that run beside the metric rows (a generation of its own, see metric-store.ts), so
 * a page is one indexed read sorted on any column instead of a scan of the ledger.
 */
export type CustomerReceivablesDoc = Omit<SellerCustomerRow, 'lastPurchase'> & {
  /** The name lower-cased: the name column sorts without regard to case. */
  nameKey: string;
  lastPurchase: Date | null;
  /** low 0, medium 1, high 2: the risk column sorts by severity, not alphabetically. */
  riskRank: number;
} & Partial<CustomerLedgerFigures>;

export const customerReceivablesIndexes: { key: Record<string, 1>; name: string }[] = [
  { key: { sellerId: 1, generation: 1, customerId: 1 }, name: 'seller_generation_customer' },
];

const riskRanks = { low: 0, medium: 1, high: 2 } as const;

/**
 * Joins the run's customer metrics and receivables with the customers' names and the customer
 * sheet's ledger figures. Those three are optional in the type only because runs stored before they
 * existed lack them (the sheet then reads them from the ledger).
 */
export const customerReceivablesDocs = (run: {
  metrics: readonly CustomerMetrics[];
  receivables: readonly CustomerReceivables[];
  names: ReadonlyMap<number, { name: string; email: string | null }>;
  sheetFigures: Pick<CustomerLedgerFigureAccumulator, 'figuresOf' | 'customerIds'>;
}): CustomerReceivablesDoc[] => {
  const { metrics, receivables, names, sheetFigures } = run;
  const metricsOf = new Map(metrics.map((m) => [m.customerId, m]));
  const receivablesOf = new Map(receivables.map((r) => [r.customerId, r]));
  // A customer that only paid (a deposit held unapplied) is one too: the sheet lists its credit.
  const ids = [
    ...new Set([...metricsOf.keys(), ...receivablesOf.keys(), ...sheetFigures.customerIds()]),
  ].sort((a, b) => a - b);
  return ids.map((customerId) => {
    const m = metricsOf.get(customerId);
    const r = receivablesOf.get(customerId);
    const name = names.get(customerId)?.name ?? `Customer ${customerId}`;
    const figures = {
      openBalance: r?.openBalance ?? 0,
      overdue: r?.overdue ?? 0,
      averageDaysLate: r?.averageDaysLate ?? null,
    };
    const risk = riskOf(figures);
    const [current, days1To30, days31To60, days61To90, over90] = r?.aging ?? [0, 0, 0, 0, 0];
    return {
      customerId,
      name,
      nameKey: name.toLowerCase(),
      email: names.get(customerId)?.email ?? null,
      salesT36M: m?.salesT36M ?? 0,
      invoicesT36M: m?.invoicesT36M ?? 0,
      ...figures,
      aging: { current, days1To30, days31To60, days61To90, over90 },
      dsoDays: r?.dsoDays ?? null,
      movingAvgDbtDays:
        m?.movingAvgDaysBetweenPurchases === null || m === undefined
          ? null
          : m.movingAvgDaysBetweenPurchases / 100,
      lastPurchase: m?.lastPurchase ?? null,
      risk,
      riskRank: riskRanks[risk],
      ...sheetFigures.figuresOf(customerId),
    };
  });
};

const sortFields: Record<CustomerSortColumn, string> = {
  customerId: 'customerId',
  name: 'nameKey',
  salesT36M: 'salesT36M',
  openBalance: 'openBalance',
  overdue: 'overdue',
  dsoDays: 'dsoDays',
  movingAvgDbtDays: 'movingAvgDbtDays',
  lastPurchase: 'lastPurchase',
  averageDaysLate: 'averageDaysLate',
  risk: 'riskRank',
};

/** One page of the table: the live generation, sorted on the column then by customer id. */
export const queryCustomerReceivables = async (
  db: Db,
  query: {
    sellerId: number;
    generation: string | undefined;
    page: number;
    pageSize: number;
    sort: CustomerSortColumn;
    order: 'asc' | 'desc';
    search?: string | undefined;
  },
  collection: string,
): Promise<{ total: number; rows: SellerCustomerRow[] }> => {
  if (query.generation === undefined) return { total: 0, rows: [] };
  const filter = {
    sellerId: query.sellerId,
    generation: query.generation,
    ...(hasSearch(query.search) ? { name: containsText(query.search) } : {}),
  };
  const direction = query.order === 'asc' ? 1 : -1;
  const docs = db.collection<CustomerReceivablesDoc & { _id: string; generation: string }>(collection);
  const [total, page] = await Promise.all([
    docs.countDocuments(filter),
    docs
      .find(filter, { projection: { _id: 0, sellerId: 0, generation: 0, nameKey: 0, riskRank: 0 } })
      .sort({ [sortFields[query.sort]]: direction, customerId: direction })
      .skip((query.page - 1) * query.pageSize)
      .limit(query.pageSize)
      .toArray(),
  ]);
  return {
    total,
    rows: page.map((doc) => ({
      customerId: doc.customerId,
      name: doc.name,
      email: doc.email,
      salesT36M: doc.salesT36M,
      invoicesT36M: doc.invoicesT36M,
      openBalance: doc.openBalance,
      overdue: doc.overdue,
      aging: doc.aging,
      dsoDays: doc.dsoDays,
      movingAvgDbtDays: doc.movingAvgDbtDays,
      lastPurchase: doc.lastPurchase?.toISOString() ?? null,
      averageDaysLate: doc.averageDaysLate,
      risk: doc.risk,
    })),
  };
};
