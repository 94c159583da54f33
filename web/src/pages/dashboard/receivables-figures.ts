import type { Currency } from '../../../../contracts/events/tenant';
import type { MetricRow } from '../../../../contracts/ledger';

/** The dashboard's receivables figures, from the seller's metric rows (values are in hundredths). */

export type MonthPoint = { month: string; Revenue: number; Paid: number };

/** The newest period's value in whole units (money in currency units, days in days), or null. */
export const latestValue = (rows: readonly MetricRow[]): number | null => {
  const last = rows.at(-1);
  return last ? last.Value / 100 : null;
};

const monthLabel = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/**
 * The last `months` months of revenue and payments side by side, oldest first. A month with invoices
 * but no payment (or the reverse) shows 0 for the missing one rather than dropping out of the chart.
 */
export const monthlySeries = (
  input: { revenue: readonly MetricRow[]; paid: readonly MetricRow[] },
  months: number,
): MonthPoint[] => {
  const byMonth = new Map<string, { Revenue: number; Paid: number }>();
  const add = (rows: readonly MetricRow[], field: 'Revenue' | 'Paid') => {
    for (const row of rows) {
      const key = row.StartDate.slice(0, 7);
      const point = byMonth.get(key) ?? { Revenue: 0, Paid: 0 };
      point[field] = row.Value / 100;
      byMonth.set(key, point);
    }
  };
  add(input.revenue, 'Revenue');
  add(input.paid, 'Paid');
  return [...byMonth.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .slice(-months)
    .map(([key, point]) => ({ month: monthLabel(`${key}-01T00:00:00Z`), ...point }));
};

export const moneyFormatter =
  (currency: Currency) =>
  (value: number): string =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 0 }).format(value);

export const daysText = (days: number | null): string =>
  days === null ? 'No data yet' : `${days.toFixed(1)} days`;
