import ExcelJS from 'exceljs';
import { ApplicationFailure } from '@temporalio/common';
import { failureTypes } from '../../../workflows/connectors/shared/connector-failure';
import type { CloudHttp } from '../../../workflows/integrations/cloud/cloud-http';
import {
  LIVE_REPORT_PROPERTY,
  writeGoogleSpreadsheet,
  type GoogleSheetsDeps,
} from '../../../workflows/integrations/cloud/google-sheets-writer';
import { xlsxOf, type LiveWorkbook } from '../../../workflows/integrations/cloud/live-sheets';
import { writeOneDriveWorkbook } from '../../../workflows/integrations/cloud/onedrive-writer';
import { startGoogleSheetsFake, type GoogleSheetsFake } from '../../fakes/google-sheets-fake';
import { startMicrosoftGraphFake, type MicrosoftGraphFake } from '../../fakes/microsoft-graph-fake';

/** A customer sheet of `count` customers, the first named like a formula. */
const customerSheet = (count: number, day = '2026-03-02'): LiveWorkbook => ({
  type: 'CUSTOMER_SHEET',
  displayName: 'Acme Ltd - Customer Sheet',
  description: `Customers of Acme Ltd, refreshed ${day}`,
  sheets: [
    {
      name: 'Customers',
      frozenColumns: 2,
      columns: [
        { header: 'Customer ID', kind: 'id', width: 12 },
        { header: 'Customer', kind: 'text', width: 34 },
        { header: 'Open Balance', kind: 'money', width: 15 },
        { header: 'Last Payment', kind: 'date', width: 13 },
      ],
      rows: Array.from({ length: count }, (_, i) => [
        i + 1,
        i === 0 ? '=HYPERLINK("http://evil.example","Bolt & Nut")' : `Customer ${i + 1}`,
        125_050 + i,
        i % 2 === 0 ? new Date(`${day}T00:00:00.000Z`) : null,
      ]),
    },
  ],
});

const reasonOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApplicationFailure) return `${error.type}: ${error.message}`;
    throw error;
  }
  throw new Error('expected a failure');
};

describe('Live Reports in Google Sheets', () => {
  let google: GoogleSheetsFake;
  let deps: GoogleSheetsDeps;
  let tokens: { accessToken: string; refreshToken: string };
  /** The waits asked of the sleep (shortened, so the test stays fast). */
  let waits: number[];
  const httpOf = (fake: GoogleSheetsFake): CloudHttp => ({
    platform: 'Google',
    tokens: fake.accessTokens(tokens),
    maxRetryWaitMs: 30_000,
    sleep: (ms) => {
      waits.push(ms);
      return new Promise((resolve) => setTimeout(resolve, Math.min(ms, 50)));
    },
  });

  beforeEach(async () => {
    google = await startGoogleSheetsFake();
    waits = [];
    tokens = google.issueTokens();
    deps = {
      http: httpOf(google),
      sheetsApiUrl: google.configValues.GOOGLE_SHEETS_API_URL,
      driveApiUrl: google.configValues.GOOGLE_DRIVE_API_URL,
      rowsPerRequest: 40,
    };
  });
  afterEach(() => google.close());

  it('writes the header and rows as values: money in units, dates as days, formulas as text', async () => {
    const written = await writeGoogleSpreadsheet(deps, {
      key: '5-CUSTOMER_SHEET-11',
      knownFileId: null,
      workbook: customerSheet(3),
    });
    expect(written.storageUrl).toBe(`https://docs.google.com/spreadsheets/d/${written.fileId}`);
    const book = google.spreadsheets.get(written.fileId)!;
    expect(book.title).toBe('Acme Ltd - Customer Sheet');
    expect(book.appProperties).toEqual({ [LIVE_REPORT_PROPERTY]: '5-CUSTOMER_SHEET-11' });
    expect(google.valuesOf(written.fileId, 'Customers')).toEqual([
      ['Customer ID', 'Customer', 'Open Balance', 'Last Payment'],
      [1, '=HYPERLINK("http://evil.example","Bolt & Nut")', 1250.5, 46083],
      [2, 'Customer 2', 1250.51],
      [3, 'Customer 3', 1250.52, 46083],
    ]);
    // 46083 is 2026-03-02 as a spreadsheet serial date, shown as one by the column's format.
    expect(book.sheets[0]!.columnFormats).toEqual({
      2: { type: 'CURRENCY', pattern: '"$"#,##0.00' },
      3: { type: 'DATE', pattern: 'yyyy-mm-dd' },
    });
    expect(book.sheets[0]!.boldHeader).toBe(true);
    expect(book.sheets[0]).toMatchObject({
      frozenRowCount: 1,
      frozenColumnCount: 2,
      rowCount: 4,
      columnCount: 4,
    });
  });

  it('rewrites the same spreadsheet on the next refresh, without the rows that went away', async () => {
    const first = await writeGoogleSpreadsheet(deps, {
      key: '5-CUSTOMER_SHEET-11',
      knownFileId: null,
      workbook: customerSheet(100),
    });
    // 101 rows at 40 a request: three requests of values.
    expect(google.requests.filter((r) => r.path.endsWith('values:batchUpdate'))).toHaveLength(3);
    expect(google.valuesOf(first.fileId, 'Customers')).toHaveLength(101);
    const second = await writeGoogleSpreadsheet(deps, {
      key: '5-CUSTOMER_SHEET-11',
      knownFileId: first.fileId,
      workbook: customerSheet(2, '2026-03-03'),
    });
    expect(second).toEqual(first);
    expect(google.created()).toBe(1);
    expect(google.valuesOf(first.fileId, 'Customers')).toEqual([
      ['Customer ID', 'Customer', 'Open Balance', 'Last Payment'],
      [1, '=HYPERLINK("http://evil.example","Bolt & Nut")', 1250.5, 46084],
      [2, 'Customer 2', 1250.51],
    ]);
  });

  it('finds its spreadsheet by app property when the last write was not recorded, and leaves user tabs alone', async () => {
    const first = await writeGoogleSpreadsheet(deps, {
      key: '5-CUSTOMER_SHEET-11',
      knownFileId: null,
      workbook: customerSheet(2),
    });
    const book = google.spreadsheets.get(first.fileId)!;
    book.sheets.push({ ...book.sheets[0]!, sheetId: 99, title: 'My notes', cells: [['keep me']] });
    const again = await writeGoogleSpreadsheet(deps, {
      key: '5-CUSTOMER_SHEET-11',
      knownFileId: null,
      workbook: customerSheet(1),
    });
    expect(again.fileId).toBe(first.fileId);
    expect(google.created()).toBe(1);
    expect(google.valuesOf(first.fileId, 'My notes')).toEqual([['keep me']]);
  });

  it('makes a new spreadsheet when the user moved the last one to the bin', async () => {
    const first = await writeGoogleSpreadsheet(deps, {
      key: '5-CUSTOMER_SHEET-11',
      knownFileId: null,
      workbook: customerSheet(2),
    });
    google.spreadsheets.get(first.fileId)!.trashed = true;
    const second = await writeGoogleSpreadsheet(deps, {
      key: '5-CUSTOMER_SHEET-11',
      knownFileId: first.fileId,
      workbook: customerSheet(2),
    });
    expect(second.fileId).not.toBe(first.fileId);
    expect(google.created()).toBe(2);
  });

  it('waits out a 429 and 5xx answers, and renews an expired access token once', async () => {
    google.throttle(1, 1);
    google.failNext(2, 503);
    google.expireAccessTokens();
    const written = await writeGoogleSpreadsheet(deps, {
      key: '5-CUSTOMER_SHEET-11',
      knownFileId: null,
      workbook: customerSheet(2),
    });
    expect(google.refreshes()).toBe(1);
    expect(google.requests.map((r) => r.status)).toEqual(expect.arrayContaining([401, 429, 503]));
    // Retry-After: 1 waited in full; the 5xx answers with back-off.
    expect(waits).toEqual([1000, 500, 1000]);
    expect(google.valuesOf(written.fileId, 'Customers')).toHaveLength(3);
  });

  it('asks to reconnect when Google refuses to renew the token (invalid_grant)', async () => {
    google.expireAccessTokens();
    google.refuseRefresh();
    expect(
      await reasonOf(
        writeGoogleSpreadsheet(deps, { key: 'k', knownFileId: null, workbook: customerSheet(1) }),
      ),
    ).toMatch(new RegExp(`^${failureTypes.revoked}: .*Reconnect`));
    expect(google.created()).toBe(0);
  });

  it('asks for file access when Google answers 403 (a connection without drive.file)', async () => {
    google.failNext(1, 403);
    expect(
      await reasonOf(
        writeGoogleSpreadsheet(deps, { key: 'k', knownFileId: null, workbook: customerSheet(1) }),
      ),
    ).toMatch(new RegExp(`^${failureTypes.refused}: .*allow Ledgerwise to create and edit its own files`));
  });

  it('fails in words when the wait Google asks for is longer than a refresh sits through', async () => {
    google.throttle(1, 3600);
    expect(
      await reasonOf(
        writeGoogleSpreadsheet(deps, { key: 'k', knownFileId: null, workbook: customerSheet(1) }),
      ),
    ).toMatch(new RegExp(`^${failureTypes.limited}: .*asks us to wait 60 minutes`));
  });
});

describe('Live Reports in OneDrive', () => {
  let graph: MicrosoftGraphFake;
  let http: CloudHttp;

  beforeEach(async () => {
    graph = await startMicrosoftGraphFake();
    http = {
      platform: 'Microsoft',
      tokens: graph.accessTokens(graph.issueTokens()),
      maxRetryWaitMs: 30_000,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 50))),
    };
  });
  afterEach(() => graph.close());

  const readBack = async (bytes: Buffer) => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Customers')!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return { rows, title: book.title };
  };

  it('uploads the workbook to /Ledgerwise and replaces that same item on the next refresh', async () => {
    const deps = { http, graphApiUrl: graph.configValues.MICROSOFT_GRAPH_API_URL };
    const asOf = new Date('2026-03-02T00:00:00.000Z');
    const first = await writeOneDriveWorkbook(deps, {
      knownFileId: null,
      fileName: 'Acme Ltd - Customer Sheet',
      bytes: await xlsxOf(customerSheet(3), { currency: 'USD' }, asOf),
    });
    const item = graph.itemAt('Ledgerwise/Acme Ltd - Customer Sheet.xlsx')!;
    expect(first.fileId).toBe(item.id);
    expect(first.storageUrl).toMatch(/^https:\/\/.*\/Ledgerwise\/Acme%20Ltd%20-%20Customer%20Sheet\.xlsx$/);
    const { rows, title } = await readBack(item.bytes);
    expect(title).toBe('Acme Ltd - Customer Sheet');
    expect(rows).toEqual([
      ['Customer ID', 'Customer', 'Open Balance', 'Last Payment'],
      [1, '=HYPERLINK("http://evil.example","Bolt & Nut")', 1250.5, asOf],
      [2, 'Customer 2', 1250.51],
      [3, 'Customer 3', 1250.52, asOf],
    ]);

    const second = await writeOneDriveWorkbook(deps, {
      knownFileId: first.fileId,
      fileName: 'Acme Ltd - Customer Sheet',
      bytes: await xlsxOf(customerSheet(1), { currency: 'USD' }, asOf),
    });
    expect(second).toEqual(first);
    expect(graph.items.size).toBe(1);
    expect(graph.items.get(first.fileId)!.versions).toBe(2);
    expect((await readBack(graph.items.get(first.fileId)!.bytes)).rows).toHaveLength(2);
  });

  it('puts the file back at its path when the user deleted it', async () => {
    const deps = { http, graphApiUrl: graph.configValues.MICROSOFT_GRAPH_API_URL };
    const bytes = await xlsxOf(customerSheet(1), { currency: 'EUR' }, new Date());
    const first = await writeOneDriveWorkbook(deps, { knownFileId: null, fileName: 'Acme: A/R?', bytes });
    expect(graph.itemAt('Ledgerwise/Acme A R.xlsx')).toBeDefined();
    graph.deleteItem(first.fileId);
    const second = await writeOneDriveWorkbook(deps, {
      knownFileId: first.fileId,
      fileName: 'Acme: A/R?',
      bytes,
    });
    expect(second.fileId).not.toBe(first.fileId);
    expect(graph.items.size).toBe(1);
  });

  it('renews an expired token, waits out 429 and 5xx, and asks to reconnect on invalid_grant', async () => {
    const deps = { http, graphApiUrl: graph.configValues.MICROSOFT_GRAPH_API_URL };
    const bytes = await xlsxOf(customerSheet(1), { currency: 'GBP' }, new Date());
    graph.expireAccessTokens();
    graph.throttle(1, 1);
    graph.failNext(1, 502);
    await writeOneDriveWorkbook(deps, { knownFileId: null, fileName: 'Acme', bytes });
    expect(graph.refreshes()).toBe(1);
    expect(graph.requests.filter((r) => r.path !== '/token').map((r) => r.status)).toEqual([
      401, 429, 502, 201,
    ]);

    graph.expireAccessTokens();
    graph.refuseRefresh();
    expect(
      await reasonOf(writeOneDriveWorkbook(deps, { knownFileId: null, fileName: 'Acme', bytes })),
    ).toMatch(new RegExp(`^${failureTypes.revoked}: .*Reconnect`));
  });
});
