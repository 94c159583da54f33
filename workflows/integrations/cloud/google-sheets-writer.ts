import type { Currency } from '../../../contracts/events/tenant';
import { numberFormatOf, type ColumnKind } from '../../reports/sheets/sheet-writer';
import { callCloud, unexpected, type CloudHttp } from './cloud-http';
import { googleValuesOf, type LiveSheet, type LiveWorkbook } from './live-sheets';

/**
 * A Live Report as a Google Sheets spreadsheet (Sheets API v4, Drive API v3), rewritten in place: the
 * spreadsheet the last refresh wrote (its id from the managed reports row), else the one Drive finds
 * by our app property (a refresh that created it and stopped before recording it), else a new one.
 * Each refresh sizes our worksheets to the rows (spreadsheets.batchUpdate), clears them
 * (values.batchClear) and writes the header and rows as RAW values (values.batchUpdate, a few thousand
 * rows per request), so a customer named `=HYPERLINK(...)` stays text. Columns get the downloadable
 * sheets' number formats (the tenant's currency, dates, days) and the header is bold. Worksheets the
 * user added are left alone. docs/adr/0049-live-reports.md.
 */
export type GoogleSheetsDeps = {
  http: CloudHttp;
  /** GOOGLE_SHEETS_API_URL, e.g. https://sheets.googleapis.com */
  sheetsApiUrl: string;
  /** GOOGLE_DRIVE_API_URL, e.g. https://www.googleapis.com */
  driveApiUrl: string;
  /** Rows per values.batchUpdate request (the API advises payloads of about 2 MB). */
  rowsPerRequest?: number;
  /** Called after each request of values written. */
  onRows?: (done: number, total: number) => Promise<void>;
};

export type WrittenFile = { fileId: string; storageUrl: string };

/** The Drive app property that marks our spreadsheets: its value names integration, type and seller. */
export const LIVE_REPORT_PROPERTY = 'ledgerwiseLiveReport';

export const spreadsheetUrl = (spreadsheetId: string) =>
  `https://docs.google.com/spreadsheets/d/${encodeURIComponent(spreadsheetId)}`;

/** A worksheet name in A1 notation: quoted, quotes doubled. */
export const quotedSheet = (name: string) => `'${name.replace(/'/g, "''")}'`;

type SheetProperties = { sheetId: number; title: string };

const formatTypes: Partial<Record<ColumnKind, string>> = {
  money: 'CURRENCY',
  date: 'DATE',
  percent: 'PERCENT',
  integer: 'NUMBER',
  days: 'NUMBER',
  score: 'NUMBER',
};

/** repeatCell requests: the bold header, and each column's number format as the xlsx sheets have it. */
export const formatRequests = (sheet: LiveSheet, sheetId: number | undefined, currency: Currency) => [
  {
    repeatCell: {
      range: { sheetId, startRowIndex: 0, endRowIndex: 1 },
      cell: { userEnteredFormat: { textFormat: { bold: true } } },
      fields: 'userEnteredFormat.textFormat.bold',
    },
  },
  ...sheet.columns.flatMap((column, index) => {
    const type = formatTypes[column.kind];
    const pattern = numberFormatOf(column.kind, currency);
    if (!type || !pattern) return [];
    return [
      {
        repeatCell: {
          range: { sheetId, startRowIndex: 1, startColumnIndex: index, endColumnIndex: index + 1 },
          cell: { userEnteredFormat: { numberFormat: { type, pattern } } },
          fields: 'userEnteredFormat.numberFormat',
        },
      },
    ];
  }),
];

const base = (url: string) => url.replace(/\/+$/, '');

/** The spreadsheet's id when Drive still has it out of the bin; null when gone or trashed. */
const existing = async (deps: GoogleSheetsDeps, fileId: string): Promise<string | null> => {
  const response = await callCloud(deps.http, {
    method: 'GET',
    url: `${base(deps.driveApiUrl)}/drive/v3/files/${encodeURIComponent(fileId)}?fields=id,trashed`,
  });
  if (response.status === 404) return null;
  if (response.status !== 200) throw unexpected(deps.http.platform, 'read the spreadsheet', response);
  const file = response.json() as { id?: string; trashed?: boolean };
  return file.trashed ? null : (file.id ?? fileId);
};

const findByProperty = async (deps: GoogleSheetsDeps, key: string): Promise<string | null> => {
  const q = `appProperties has { key='${LIVE_REPORT_PROPERTY}' and value='${key}' } and trashed = false`;
  const response = await callCloud(deps.http, {
    method: 'GET',
    url: `${base(deps.driveApiUrl)}/drive/v3/files?q=${encodeURIComponent(q)}&fields=files(id)&spaces=drive`,
  });
  if (response.status !== 200) throw unexpected(deps.http.platform, 'search the drive', response);
  const { files } = response.json() as { files?: { id: string }[] };
  return files?.[0]?.id ?? null;
};

const create = async (deps: GoogleSheetsDeps, key: string, workbook: LiveWorkbook): Promise<string> => {
  const created = await callCloud(deps.http, {
    method: 'POST',
    url: `${base(deps.sheetsApiUrl)}/v4/spreadsheets`,
    json: {
      properties: { title: workbook.displayName },
      sheets: workbook.sheets.map((sheet) => ({ properties: { title: sheet.name } })),
    },
  });
  if (created.status !== 200) throw unexpected(deps.http.platform, 'create a spreadsheet', created);
  const { spreadsheetId } = created.json() as { spreadsheetId: string };
  const tagged = await callCloud(deps.http, {
    method: 'PATCH',
    url: `${base(deps.driveApiUrl)}/drive/v3/files/${encodeURIComponent(spreadsheetId)}?fields=id`,
    json: { appProperties: { [LIVE_REPORT_PROPERTY]: key }, description: workbook.description },
  });
  if (tagged.status !== 200) throw unexpected(deps.http.platform, 'label the spreadsheet', tagged);
  return spreadsheetId;
};

const sheetsOf = async (deps: GoogleSheetsDeps, spreadsheetId: string): Promise<SheetProperties[]> => {
  const response = await callCloud(deps.http, {
    method: 'GET',
    url: `${base(deps.sheetsApiUrl)}/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}?fields=sheets.properties(sheetId,title)`,
  });
  if (response.status !== 200) throw unexpected(deps.http.platform, 'read the spreadsheet', response);
  const { sheets } = response.json() as { sheets?: { properties: SheetProperties }[] };
  return (sheets ?? []).map((sheet) => sheet.properties);
};

const batchUpdate = async (deps: GoogleSheetsDeps, spreadsheetId: string, requests: unknown[]) => {
  const response = await callCloud(deps.http, {
    method: 'POST',
    url: `${base(deps.sheetsApiUrl)}/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}:batchUpdate`,
    json: { requests },
  });
  if (response.status !== 200) throw unexpected(deps.http.platform, 'update the spreadsheet', response);
  return response.json() as { replies?: { addSheet?: { properties: SheetProperties } }[] };
};

/** Writes the workbook into the spreadsheet `knownFileId` (or one found or made) and answers its id and link. */
export const writeGoogleSpreadsheet = async (
  deps: GoogleSheetsDeps,
  request: {
    key: string;
    knownFileId: string | null;
    workbook: LiveWorkbook;
    /** The tenant's reporting currency (money columns' format). */
    currency?: Currency;
  },
): Promise<WrittenFile> => {
  const { workbook } = request;
  const api = `${base(deps.sheetsApiUrl)}/v4/spreadsheets`;
  let spreadsheetId = request.knownFileId ? await existing(deps, request.knownFileId) : null;
  spreadsheetId ??= await findByProperty(deps, request.key);
  spreadsheetId ??= await create(deps, request.key, workbook);
  const id = encodeURIComponent(spreadsheetId);

  // Our worksheets, added when missing, sized to their rows, titled as the seller is named today.
  const present = new Map((await sheetsOf(deps, spreadsheetId)).map((sheet) => [sheet.title, sheet]));
  const missing = workbook.sheets.filter((sheet) => !present.has(sheet.name));
  if (missing.length > 0) {
    const added = await batchUpdate(
      deps,
      spreadsheetId,
      missing.map((sheet) => ({ addSheet: { properties: { title: sheet.name } } })),
    );
    for (const reply of added.replies ?? [])
      if (reply.addSheet) present.set(reply.addSheet.properties.title, reply.addSheet.properties);
  }
  const values = workbook.sheets.map((sheet) => ({ sheet, rows: googleValuesOf(sheet) }));
  await batchUpdate(deps, spreadsheetId, [
    {
      updateSpreadsheetProperties: { properties: { title: workbook.displayName }, fields: 'title' },
    },
    ...values.map(({ sheet, rows }) => ({
      updateSheetProperties: {
        properties: {
          sheetId: present.get(sheet.name)?.sheetId,
          gridProperties: {
            rowCount: rows.length,
            columnCount: sheet.columns.length,
            frozenRowCount: 1,
            frozenColumnCount: sheet.frozenColumns,
          },
        },
        fields: 'gridProperties(rowCount,columnCount,frozenRowCount,frozenColumnCount)',
      },
    })),
    ...values.flatMap(({ sheet }) =>
      formatRequests(sheet, present.get(sheet.name)?.sheetId, request.currency ?? 'USD'),
    ),
  ]);
  const cleared = await callCloud(deps.http, {
    method: 'POST',
    url: `${api}/${id}/values:batchClear`,
    json: { ranges: workbook.sheets.map((sheet) => quotedSheet(sheet.name)) },
  });
  if (cleared.status !== 200) throw unexpected(deps.http.platform, 'clear the spreadsheet', cleared);

  // Values in requests of about rowsPerRequest rows; a small workbook goes in one request.
  const perRequest = deps.rowsPerRequest ?? 5_000;
  const total = values.reduce((sum, { rows }) => sum + rows.length, 0);
  type Range = { range: string; majorDimension: 'ROWS'; values: (string | number)[][] };
  let batch: Range[] = [];
  let batchRows = 0;
  let done = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const written = await callCloud(deps.http, {
      method: 'POST',
      url: `${api}/${id}/values:batchUpdate`,
      json: { valueInputOption: 'RAW', data: batch },
    });
    if (written.status !== 200) throw unexpected(deps.http.platform, 'write the spreadsheet', written);
    done += batchRows;
    batch = [];
    batchRows = 0;
    await deps.onRows?.(done, total);
  };
  for (const { sheet, rows } of values)
    for (let start = 0; start < rows.length;) {
      const take = Math.min(rows.length - start, perRequest - batchRows);
      batch.push({
        range: `${quotedSheet(sheet.name)}!A${start + 1}`,
        majorDimension: 'ROWS',
        values: rows.slice(start, start + take),
      });
      batchRows += take;
      start += take;
      if (batchRows >= perRequest) await flush();
    }
  await flush();
  return { fileId: spreadsheetId, storageUrl: spreadsheetUrl(spreadsheetId) };
};
