import ExcelJS from 'exceljs';
import { columnLetter, currencyFormats } from '../sheets/sheet-writer';
import type { ClientPerformanceData } from '../report-data/client-performance-data';

/**
 * The Client Performance Summary as a sheet, for 30 clients or more (portal.md section 9: the data
 * moves to a customer-style sheet) or when asked for: one row per client company, frozen header
 * with filters, money in each client's own currency (clients may report in different ones, so the
 * format is set per cell rather than per column as the report sheets do).
 */
const columns: { header: string; width: number; money?: true; format?: string }[] = [
  { header: 'Client', width: 30 },
  { header: 'Company', width: 30 },
  { header: 'Platform', width: 10 },
  { header: 'Currency', width: 9 },
  { header: 'Revenue', width: 15, money: true },
  { header: 'Collections', width: 15, money: true },
  { header: 'Open receivables', width: 16, money: true },
  { header: 'Overdue', width: 15, money: true },
  { header: 'Overdue share', width: 13, format: '0.0%' },
  { header: 'DSO (days)', width: 11, format: '#,##0.0' },
  { header: 'Metrics as of', width: 13, format: 'yyyy-mm-dd' },
];

const units = (cents: number | null) => (cents === null ? null : cents / 100);

export const clientPerformanceSheet = async (data: ClientPerformanceData): Promise<Uint8Array> => {
  const workbook = new ExcelJS.Workbook();
  Object.assign(workbook, {
    creator: 'Ledgerwise',
    created: new Date(data.asOf),
    title: `Client Performance Summary - ${data.preparedFor}`,
    subject: `${data.period.start} to ${data.period.end}`,
  });
  const sheet = workbook.addWorksheet('Clients', {
    views: [{ state: 'frozen', xSplit: 2, ySplit: 1, topLeftCell: 'C2', activeCell: 'C2' }],
  });
  sheet.columns = columns.map((column) => ({ width: column.width }));
  const header = sheet.addRow(columns.map((column) => column.header));
  header.eachCell((cell) => {
    cell.font = { bold: true, color: { argb: 'FFFFFFFF' } };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F2937' } };
    cell.alignment = { vertical: 'middle', wrapText: true };
  });
  header.height = 30;
  sheet.autoFilter = `A1:${columnLetter(columns.length - 1)}1`;
  for (const client of data.clients)
    for (const seller of client.sellers) {
      const row = sheet.addRow([
        client.name,
        seller.companyName,
        seller.provider,
        client.currency,
        units(seller.revenue),
        units(seller.collections),
        units(seller.open),
        units(seller.overdue),
        seller.open && seller.overdue !== null ? seller.overdue / seller.open : null,
        seller.dso,
        seller.dataAsOf === null ? null : new Date(seller.dataAsOf),
      ]);
      columns.forEach((column, i) => {
        const format = column.money ? currencyFormats[client.currency] : column.format;
        if (format) row.getCell(i + 1).numFmt = format;
      });
    }
  const buffer = await workbook.xlsx.writeBuffer();
  return new Uint8Array(buffer);
};
