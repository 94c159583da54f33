import type { Db } from 'mongodb';
import type { AnalyticsStats } from '../../../contracts/api/analytics';
import { allSellerTotals } from '../../../projections/analytics/analytics-store';
import { t36mFirstMonth } from '../../../projections/analytics/query-platform-totals';
import {
  createSheetWriter,
  type CellValue,
  type SheetColumn,
} from '../../../workflows/reports/sheets/sheet-writer';

/** The platform's month by month: what the overview's T36M cards add up, per calendar month. */
export type PlatformMonth = {
  month: string;
  invoices: number;
  sales: number;
  lastInvoicedCustomers: number;
  invoicingSellers: number;
};

/** The trailing 36 months ending with now's month, oldest first, every month present (zeros included). */
export const platformMonths = async (db: Db, now: Date): Promise<PlatformMonth[]> => {
  const first = t36mFirstMonth(now);
  const [year, month] = first.split('-').map(Number) as [number, number];
  const months = new Map<string, PlatformMonth>();
  for (let i = 0; i < 36; i += 1) {
    const index = year * 12 + (month - 1) + i;
    const key = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
    months.set(key, { month: key, invoices: 0, sales: 0, lastInvoicedCustomers: 0, invoicingSellers: 0 });
  }
  for (const seller of await allSellerTotals(db)) {
    for (const totals of seller.months) {
      const row = months.get(totals.month);
      if (!row) continue;
      row.invoices += totals.invoices;
      row.sales += totals.sales;
      row.lastInvoicedCustomers += totals.lastInvoicedCustomers;
      if (totals.invoices > 0) row.invoicingSellers += 1;
    }
  }
  return [...months.values()];
};

const summaryColumns: SheetColumn[] = [
  { header: 'Metric', kind: 'text', width: 34 },
  { header: 'Value', kind: 'integer', width: 18 },
];

const monthColumns: SheetColumn[] = [
  { header: 'Month', kind: 'text', width: 10 },
  { header: 'Invoices', kind: 'integer', width: 12 },
  { header: 'Invoice Sales', kind: 'money', width: 18 },
  { header: 'Customers Last Invoiced', kind: 'integer', width: 24 },
  { header: 'Sellers Invoicing', kind: 'integer', width: 18 },
];

/**
 * The overview's Key Metrics spreadsheet (admin.md section 2): the cards' figures as of now, and the
 * trailing 36 months they sum, month by month, so the T36M cards can be checked and charted. Money is
 * in dollars, as the overview shows the platform-wide totals (amounts are not converted between
 * currencies).
 */
export const keyMetricsWorkbook = async (
  db: Db,
  input: { stats: AnalyticsStats; now: Date },
): Promise<{ fileName: string; bytes: Uint8Array }> => {
  const { stats, now } = input;
  const day = now.toISOString().slice(0, 10);
  const writer = createSheetWriter(
    {
      title: 'Ledgerwise - Key Metrics',
      subject: `As of ${day}`,
      description: 'Platform key metrics: the admin overview cards and the trailing 36 months.',
      asOf: now,
    },
    'USD',
  );
  const summary: [string, number][] = [
    ['Partners', stats.partners],
    ['Active Sellers', stats.activeSellers],
    ['Inactive Sellers', stats.inactiveSellers],
    ['Businesses', stats.businesses],
    ['Advisory Firms', stats.firms],
    ['Customers (T36M)', stats.customers],
    ['Invoices (T36M)', stats.invoices],
    ['Direct Subscriptions', stats.directSubscriptions],
    ['Channel Subscriptions', stats.channelSubscriptions],
    ['Trial Subscriptions', stats.trialSubscriptions],
  ];
  await writer.addSheet({ name: 'Key Metrics', columns: summaryColumns }, summary);
  await writer.addSheet(
    { name: 'Sales', columns: [summaryColumns[0]!, { header: 'Value', kind: 'money', width: 20 }] },
    [
      ['Invoice Sales (T36M)', stats.invoiceRevenue],
      ['Sales (All Time)', stats.salesAllTime],
    ],
  );
  const months = await platformMonths(db, now);
  const rows: CellValue[][] = months.map((m) => [
    m.month,
    m.invoices,
    m.sales,
    m.lastInvoicedCustomers,
    m.invoicingSellers,
  ]);
  await writer.addSheet({ name: 'Trailing 36 Months', columns: monthColumns }, rows);
  return { fileName: `ledgerwise-key-metrics-${day}.xlsx`, bytes: await writer.finish() };
};
