import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Currency } from '../../../contracts/events/tenant';

/**
 * The one way the report sheets are written (docs/adr/0037-report-sheets-and-email.md): exceljs's
 * streaming WorkbookWriter, each row committed as soon as it is added, so a sheet of 100,000 customers
 * never holds its workbook in memory. Every worksheet gets the same dress: a bold header row that is
 * frozen and carries the autofilter, column widths, and number formats by column kind (money in the
 * tenant's currency, real dates, days, percentages). Title and "as of" go into the workbook properties.
 */

/** What a column holds; money is given in cents and written in currency units. */
export type ColumnKind = 'text' | 'id' | 'integer' | 'money' | 'days' | 'date' | 'percent' | 'score';

export type SheetColumn = { header: string; kind: ColumnKind; width: number };

export type CellValue = string | number | Date | null;

/** Excel number formats of the tenant currencies (Settings.Reporting.Currency). */
export const currencyFormats: Record<Currency, string> = {
  USD: '"$"#,##0.00',
  GBP: '"£"#,##0.00',
  EUR: '#,##0.00 "€"',
};

export const numberFormatOf = (kind: ColumnKind, currency: Currency): string | undefined => {
  switch (kind) {
    case 'money':
      return currencyFormats[currency];
    case 'integer':
      return '#,##0';
    case 'days':
      return '#,##0.0';
    case 'date':
      return 'yyyy-mm-dd';
    case 'percent':
      return '0.0%';
    case 'score':
      return '#,##0';
    case 'id':
    case 'text':
      return undefined;
  }
};

/** `A`, `B`, ... `Z`, `AA`: the column letters of the autofilter range. */
export const columnLetter = (index: number): string => {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
};

export type WorkbookProperties = {
  /** `Acme Ltd - Customer Sheet` */
  title: string;
  /** `As of 2025-11-24`: the date the figures describe. */
  subject: string;
  description: string;
  /** The workbook's created date: the report's as-of moment. */
  asOf: Date;
};

export type SheetWriter = {
  /** Writes one worksheet; `rows` may be any iterable, read once, one row committed at a time. */
  addSheet: (
    sheet: { name: string; columns: readonly SheetColumn[]; frozenColumns?: number },
    rows: Iterable<readonly CellValue[]>,
  ) => Promise<void>;
  /** Closes the workbook and answers its bytes. */
  finish: () => Promise<Uint8Array>;
};

const headerFill: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F2937' } };
const headerFont: Partial<ExcelJS.Font> = { bold: true, color: { argb: 'FFFFFFFF' } };

/** Cents to currency units; other kinds as they come. */
const cellOf = (kind: ColumnKind, value: CellValue): CellValue =>
  kind === 'money' && typeof value === 'number' ? value / 100 : value;

export const createSheetWriter = (properties: WorkbookProperties, currency: Currency): SheetWriter => {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
    zip: { zlib: { level: 6 } },
  });
  Object.assign(workbook, {
    creator: 'Ledgerwise',
    lastModifiedBy: 'Ledgerwise',
    created: properties.asOf,
    modified: properties.asOf,
    title: properties.title,
    subject: properties.subject,
    description: properties.description,
    category: 'Receivables report',
  });

  return {
    addSheet: async (sheet, rows) => {
      const frozenColumns = sheet.frozenColumns ?? 0;
      const worksheet = workbook.addWorksheet(sheet.name, {
        views: [
          {
            state: 'frozen',
            xSplit: frozenColumns,
            ySplit: 1,
            topLeftCell: `${columnLetter(frozenColumns)}2`,
            activeCell: `${columnLetter(frozenColumns)}2`,
          },
        ],
      });
      const kinds = sheet.columns.map((column) => column.kind);
      worksheet.columns = sheet.columns.map((column) => {
        const numFmt = numberFormatOf(column.kind, currency);
        return { width: column.width, ...(numFmt ? { style: { numFmt } } : {}) };
      });
      worksheet.autoFilter = `A1:${columnLetter(sheet.columns.length - 1)}1`;
      const header = worksheet.addRow(sheet.columns.map((column) => column.header));
      header.eachCell((cell) => {
        cell.font = headerFont;
        cell.fill = headerFill;
        cell.numFmt = 'General';
        cell.alignment = { vertical: 'middle', wrapText: true };
      });
      header.height = 30;
      header.commit();
      let count = 0;
      for (const row of rows) {
        worksheet.addRow(row.map((value, i) => cellOf(kinds[i] ?? 'text', value))).commit();
        // Let the zip stream drain now and then: a long synchronous loop would buffer the whole sheet.
        count += 1;
        if (count % 2000 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      worksheet.commit();
    },
    finish: async () => {
      await workbook.commit();
      await ended;
      const bytes = Buffer.concat(chunks);
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  };
};

/** `2025-11-24`: the as-of day in file and display names (UTC, as the metrics' days). */
export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** A file name safe for a Content-Disposition header and every file system. */
export const safeFileName = (text: string): string =>
  text
    .split('')
    .map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? ' ' : c))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 150);
