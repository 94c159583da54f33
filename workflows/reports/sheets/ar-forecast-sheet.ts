import type { Db } from 'mongodb';
import type { CollectionsForecast } from '../../../contracts/api/forecasts';
import { monthIndexOf, toDay } from '../../metrics/compute-metrics';
import {
  CUSTOMER_FORECASTS,
  queryCollectionsForecast,
  type CustomerForecastDoc,
} from '../../forecast/forecast-store';
import type { SheetContext } from './sheet-context';
import { customerNames, exclusionSets } from './sheet-ledger';
import type { CellValue, SheetColumn } from './sheet-writer';

/**
 * AR_FORECAST_SHEET: the seller's latest collections forecast (docs/adr/0034): expected cash-in per
 * week for 13 weeks with its 80% and 95% intervals, the same by calendar month of the week's start
 * (means add up; intervals do not, so the month shows the expectation only), and per customer when
 * that issue has customer forecasts (excluded customers left out, largest expected first). Money is
 * the forecast's fractional cents rounded to cents. No forecast yet: no sheet.
 */
export type ArForecastData = {
  forecast: CollectionsForecast;
  customers: {
    customerId: number;
    name: string;
    openBalance: number;
    weeks: number[];
    total: number;
  }[];
};

export const loadArForecastData = async (db: Db, context: SheetContext): Promise<ArForecastData | null> => {
  const forecast = await queryCollectionsForecast(db, context.sellerId);
  if (!forecast) return null;
  const excluded = exclusionSets(context.exclusions);
  const docs = await db
    .collection<CustomerForecastDoc>(CUSTOMER_FORECASTS)
    .find(
      { sellerId: context.sellerId, asOf: new Date(forecast.asOf) },
      { projection: { _id: 0, customerId: 1, weeks: 1, invoices: 1 } },
    )
    .toArray();
  const names = docs.length === 0 ? new Map<number, string>() : await customerNames(db, context.sellerId);
  const customers = docs
    .filter((doc) => !excluded.customers.has(doc.customerId))
    .map((doc) => {
      const weeks = forecast.weeks.map((_, i) => Math.round(doc.weeks[i]?.mean ?? 0));
      return {
        customerId: doc.customerId,
        name: names.get(doc.customerId) ?? `Customer ${doc.customerId}`,
        openBalance: doc.invoices.reduce((sum, invoice) => sum + invoice.balance, 0),
        weeks,
        total: weeks.reduce((a, b) => a + b, 0),
      };
    })
    .sort((a, b) => b.total - a.total || a.customerId - b.customerId);
  return { forecast, customers };
};

const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export const weeklyForecastLayout = () => {
  const columns: SheetColumn[] = [
    { header: 'Week Starting', kind: 'date', width: 14 },
    { header: 'Expected', kind: 'money', width: 15 },
    { header: 'Low (80%)', kind: 'money', width: 15 },
    { header: 'High (80%)', kind: 'money', width: 15 },
    { header: 'Low (95%)', kind: 'money', width: 15 },
    { header: 'High (95%)', kind: 'money', width: 15 },
    { header: 'Cumulative Expected', kind: 'money', width: 17 },
  ];
  return {
    columns,
    rows: (forecast: CollectionsForecast): CellValue[][] => {
      let cumulative = 0;
      return forecast.weeks.map((week) => {
        cumulative += Math.round(week.mean);
        return [
          new Date(week.StartDate),
          Math.round(week.mean),
          Math.round(week.lower80),
          Math.round(week.upper80),
          Math.round(week.lower95),
          Math.round(week.upper95),
          cumulative,
        ];
      });
    },
  };
};

export const monthlyForecastLayout = () => {
  const columns: SheetColumn[] = [
    { header: 'Month', kind: 'text', width: 12 },
    { header: 'Expected', kind: 'money', width: 15 },
    { header: 'Weeks', kind: 'integer', width: 8 },
  ];
  return {
    columns,
    rows: (forecast: CollectionsForecast): CellValue[][] => {
      const months = new Map<number, { expected: number; weeks: number }>();
      for (const week of forecast.weeks) {
        const month = monthIndexOf(toDay(new Date(week.StartDate)));
        const sum = months.get(month) ?? { expected: 0, weeks: 0 };
        sum.expected += Math.round(week.mean);
        sum.weeks += 1;
        months.set(month, sum);
      }
      return [...months.entries()]
        .sort(([a], [b]) => a - b)
        .map(([month, sum]) => [
          `${monthNames[month % 12]} ${Math.floor(month / 12)}`,
          sum.expected,
          sum.weeks,
        ]);
    },
  };
};

export const customerForecastLayout = (forecast: CollectionsForecast) => {
  const columns: SheetColumn[] = [
    { header: 'Customer ID', kind: 'id', width: 12 },
    { header: 'Customer', kind: 'text', width: 32 },
    { header: 'Open Balance', kind: 'money', width: 15 },
    ...forecast.weeks.map((week): SheetColumn => ({
      header: `Week of ${week.StartDate.slice(0, 10)}`,
      kind: 'money',
      width: 14,
    })),
    { header: `Total ${forecast.weeks.length} Weeks`, kind: 'money', width: 15 },
    { header: 'Beyond Forecast', kind: 'money', width: 15 },
  ];
  return {
    columns,
    cells: (row: ArForecastData['customers'][number]): CellValue[] => [
      row.customerId,
      row.name,
      row.openBalance,
      ...row.weeks,
      row.total,
      Math.max(0, row.openBalance - row.total),
    ],
  };
};
