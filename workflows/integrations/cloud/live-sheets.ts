import type { Db } from 'mongodb';
import type { ManagedReportType } from '../../../contracts/events/job';
import {
  customerForecastLayout,
  loadArForecastData,
  monthlyForecastLayout,
  weeklyForecastLayout,
} from '../../reports/sheets/ar-forecast-sheet';
import { customerSheetLayout, loadCustomerSheetRows } from '../../reports/sheets/customer-sheet';
import type { SheetContext } from '../../reports/sheets/sheet-context';
import {
  createSheetWriter,
  isoDay,
  safeFileName,
  type CellValue,
  type SheetColumn,
} from '../../reports/sheets/sheet-writer';

/**
 * The two Live Reports (docs/adr/0049-live-reports.md) as worksheets of rows, built by the same code
 * as the downloadable CUSTOMER_SHEET and AR_FORECAST_SHEET (workflows/reports/sheets), so a live file
 * and a download of the same day hold the same figures. Google Sheets gets the rows as values; the
 * OneDrive workbook is written from them by the report sheets' writer (exceljs).
 */
export type LiveSheet = {
  name: string;
  columns: readonly SheetColumn[];
  frozenColumns: number;
  rows: (readonly CellValue[])[];
};

export type LiveWorkbook = {
  type: ManagedReportType;
  /** `Acme Ltd - Customer Sheet`: no date, the file is rewritten in place on every refresh. */
  displayName: string;
  description: string;
  sheets: LiveSheet[];
};

const titles: Record<ManagedReportType, string> = {
  CUSTOMER_SHEET: 'Customer Sheet',
  AR_FORECAST_SHEET: 'AR Forecast',
};

export const liveDisplayName = (context: Pick<SheetContext, 'sellerName'>, type: ManagedReportType) =>
  safeFileName(`${context.sellerName} - ${titles[type]}`);

/** The customers of the seller, one row each, as the downloadable customer sheet's Customers worksheet. */
export const loadLiveCustomerSheet = async (
  db: Db,
  context: SheetContext,
  asOf: Date,
): Promise<LiveWorkbook> => {
  const { rows, metricsAsOf } = await loadCustomerSheetRows(db, context, asOf);
  const layout = customerSheetLayout(context);
  const metrics =
    metricsAsOf === null
      ? ' No metrics run yet: balances, aging, DSO and risk are empty.'
      : ` Figures of the metrics run as of ${isoDay(metricsAsOf)}.`;
  return {
    type: 'CUSTOMER_SHEET',
    displayName: liveDisplayName(context, 'CUSTOMER_SHEET'),
    description: `Customers of ${context.sellerName}, refreshed ${isoDay(asOf)}, amounts in ${context.currency}.${metrics}`,
    sheets: [{ name: 'Customers', columns: layout.columns, frozenColumns: 2, rows: rows.map(layout.cells) }],
  };
};

/** The seller's latest collections forecast (weekly, monthly, by customer), or null before the first. */
export const loadLiveArForecastSheet = async (
  db: Db,
  context: SheetContext,
  asOf: Date,
): Promise<LiveWorkbook | null> => {
  const data = await loadArForecastData(db, context);
  if (!data) return null;
  const { forecast } = data;
  const weekly = weeklyForecastLayout();
  const monthly = monthlyForecastLayout();
  const sheets: LiveSheet[] = [
    { name: 'Weekly', columns: weekly.columns, frozenColumns: 1, rows: weekly.rows(forecast) },
    { name: 'Monthly', columns: monthly.columns, frozenColumns: 1, rows: monthly.rows(forecast) },
  ];
  if (data.customers.length > 0) {
    const customers = customerForecastLayout(forecast);
    sheets.push({
      name: 'Customers',
      columns: customers.columns,
      frozenColumns: 2,
      rows: data.customers.map(customers.cells),
    });
  }
  return {
    type: 'AR_FORECAST_SHEET',
    displayName: liveDisplayName(context, 'AR_FORECAST_SHEET'),
    description:
      `Collections forecast of ${context.sellerName} issued ${forecast.issuedAt.slice(0, 10)} on data as of ` +
      `${forecast.asOf.slice(0, 10)}, refreshed ${isoDay(asOf)}, amounts in ${context.currency}.`,
    sheets,
  };
};

/** The workbook as an xlsx file (OneDrive), dressed as the downloadable sheets. */
export const xlsxOf = async (
  workbook: LiveWorkbook,
  context: Pick<SheetContext, 'currency'>,
  asOf: Date,
): Promise<Uint8Array> => {
  const writer = createSheetWriter(
    {
      title: workbook.displayName,
      subject: `As of ${isoDay(asOf)}`,
      description: workbook.description,
      asOf,
    },
    context.currency,
  );
  for (const sheet of workbook.sheets)
    await writer.addSheet(
      { name: sheet.name, columns: sheet.columns, frozenColumns: sheet.frozenColumns },
      sheet.rows,
    );
  return writer.finish();
};

/** A Google Sheets cell: money in currency units, dates as serial numbers (formatted as dates), empty for null. */
export type GoogleCell = string | number;

/** Day 0 of spreadsheet serial dates (Sheets and Excel): 1899-12-30. */
const SERIAL_EPOCH_MS = Date.UTC(1899, 11, 30);

/** A date as a spreadsheet serial number: whole days since 1899-12-30, the time as a fraction. */
export const serialDateOf = (date: Date): number => (date.getTime() - SERIAL_EPOCH_MS) / 86_400_000;

export const googleCellOf = (column: SheetColumn | undefined, value: CellValue): GoogleCell => {
  if (value === null) return '';
  if (value instanceof Date) return serialDateOf(value);
  if (typeof value === 'number' && column?.kind === 'money') return value / 100;
  return value;
};

/** A worksheet as Sheets API values: the header row, then the rows. */
export const googleValuesOf = (sheet: LiveSheet): GoogleCell[][] => [
  sheet.columns.map((column) => column.header),
  ...sheet.rows.map((row) => row.map((value, i) => googleCellOf(sheet.columns[i], value))),
];
