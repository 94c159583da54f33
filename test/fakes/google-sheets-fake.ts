import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyReply } from 'fastify';
import type { IntegrationAccessToken } from '../../workflows/integrations/cloud/cloud-http';
import { fakeAccessTokens, serveFakeOAuthProvider, type FakeProviderControls } from './fake-oauth-provider';

/**
 * A local Google Sheets API v4 and Drive API v3, as much as Live Reports use
 * (docs/adr/0049-live-reports.md), with in-memory spreadsheets: spreadsheets.create and get,
 * spreadsheets.batchUpdate (addSheet, updateSheetProperties, updateSpreadsheetProperties),
 * values.batchClear and values.batchUpdate (A1 ranges, RAW; a write past the grid is refused as the
 * real API refuses it), Drive files.get, files.list by appProperties and files.update. An OAuth 2.0
 * token endpoint (refresh grant). Faults on demand: 429 with Retry-After, 5xx bursts, expired access
 * tokens (401 UNAUTHENTICATED), refused refresh (400 invalid_grant). Errors in Google's JSON format.
 */

export type FakeCell = string | number;

export type FakeSheet = {
  sheetId: number;
  title: string;
  rowCount: number;
  columnCount: number;
  frozenRowCount: number;
  frozenColumnCount: number;
  /** Row-major; missing cells are empty. */
  cells: FakeCell[][];
  /** Number formats set by repeatCell on the rows under the header, by column index. */
  columnFormats: Record<number, { type: string; pattern?: string }>;
  boldHeader: boolean;
};

export type FakeSpreadsheet = {
  spreadsheetId: string;
  title: string;
  trashed: boolean;
  appProperties: Record<string, string>;
  description: string | null;
  sheets: FakeSheet[];
};

type Json = Record<string, unknown>;

export type GoogleSheetsFake = FakeProviderControls & {
  url: string;
  /** The APIs, and the issuer whose discovery names the fake's token endpoint. */
  configValues: { GOOGLE_SHEETS_API_URL: string; GOOGLE_DRIVE_API_URL: string; OAUTH_GOOGLE_ISSUER: string };
  /** The integration's token provider as core's integration-tokens.ts answers it, over this fake. */
  accessTokens: (tokens: { accessToken: string; refreshToken: string }) => IntegrationAccessToken;
  spreadsheets: Map<string, FakeSpreadsheet>;
  /** A worksheet's cells, trailing empty cells and rows trimmed (what a user sees). */
  valuesOf: (spreadsheetId: string, sheetTitle: string) => FakeCell[][];
  created: () => number;
  close: () => Promise<void>;
};

const googleError = (reply: FastifyReply, code: number, status: string, message: string) =>
  reply.code(code).send({ error: { code, message, status } });

/** `'My sheet'!B3` -> title, zero-based row and column of the start cell. */
export const parseA1 = (range: string): { title: string; row: number; column: number } => {
  const match = /^(?:'((?:[^']|'')*)'|([^!]+))(?:!([A-Z]+)(\d+))?$/.exec(range);
  if (!match) throw new Error(`Unable to parse range: ${range}`);
  const title = match[1] !== undefined ? match[1].replace(/''/g, "'") : match[2]!;
  let column = 0;
  for (const letter of match[3] ?? 'A') column = column * 26 + (letter.charCodeAt(0) - 64);
  return { title, row: Number(match[4] ?? 1) - 1, column: column - 1 };
};

export const startGoogleSheetsFake = async (): Promise<GoogleSheetsFake> => {
  const app = Fastify({ logger: false, bodyLimit: 50 * 1024 * 1024 });
  const spreadsheets = new Map<string, FakeSpreadsheet>();
  let createdCount = 0;
  let nextSheetId = 1;
  const { guard, controls } = serveFakeOAuthProvider(app, {
    accessTokenPrefix: 'ya29.fake-',
    refreshTokenPrefix: '1//fake-',
    refusedGrantDescription: 'Token has been expired or revoked.',
    // Google keeps the refresh token: none comes back.
    grantBody: (accessToken) => ({
      access_token: accessToken,
      expires_in: 3599,
      token_type: 'Bearer',
      scope: 'drive.file',
    }),
    errors: {
      unauthenticated: (reply) =>
        googleError(
          reply,
          401,
          'UNAUTHENTICATED',
          'Request had invalid authentication credentials. Expected OAuth 2 access token.',
        ),
      throttled: (reply) =>
        reply
          .code(429)
          .send({ error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } }),
      unavailable: (reply, status) =>
        googleError(reply, status, 'UNAVAILABLE', 'The service is currently unavailable.'),
    },
  });

  const sheetJson = (sheet: FakeSheet, index: number) => ({
    properties: {
      sheetId: sheet.sheetId,
      title: sheet.title,
      index,
      sheetType: 'GRID',
      gridProperties: {
        rowCount: sheet.rowCount,
        columnCount: sheet.columnCount,
        frozenRowCount: sheet.frozenRowCount,
        frozenColumnCount: sheet.frozenColumnCount,
      },
    },
  });
  const spreadsheetJson = (book: FakeSpreadsheet) => ({
    spreadsheetId: book.spreadsheetId,
    properties: { title: book.title, locale: 'en_US', timeZone: 'Etc/GMT' },
    sheets: book.sheets.map(sheetJson),
    spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${book.spreadsheetId}/edit`,
  });
  const newSheet = (title: string): FakeSheet => ({
    sheetId: nextSheetId++,
    title,
    rowCount: 1000,
    columnCount: 26,
    frozenRowCount: 0,
    frozenColumnCount: 0,
    cells: [],
    columnFormats: {},
    boldHeader: false,
  });

  const findBook = (id: string) => {
    const book = spreadsheets.get(id);
    return book && !book.trashed ? book : null;
  };

  const applyRequest = (book: FakeSpreadsheet, change: Json): Json => {
    if (change.addSheet) {
      const { properties } = change.addSheet as { properties: { title: string } };
      if (book.sheets.some((s) => s.title === properties.title))
        throw new Error(`A sheet with the name "${properties.title}" already exists.`);
      const sheet = newSheet(properties.title);
      book.sheets.push(sheet);
      return { addSheet: sheetJson(sheet, book.sheets.length - 1) };
    }
    if (change.updateSpreadsheetProperties) {
      const { properties } = change.updateSpreadsheetProperties as { properties: { title?: string } };
      if (properties.title) book.title = properties.title;
      return {};
    }
    if (change.updateSheetProperties) {
      const { properties } = change.updateSheetProperties as {
        properties: { sheetId: number; gridProperties?: Partial<FakeSheet> };
      };
      const sheet = book.sheets.find((s) => s.sheetId === properties.sheetId);
      if (!sheet) throw new Error(`No grid with id: ${properties.sheetId}`);
      const grid = properties.gridProperties ?? {};
      if (grid.rowCount !== undefined) {
        sheet.rowCount = grid.rowCount;
        sheet.cells = sheet.cells.slice(0, grid.rowCount);
      }
      if (grid.columnCount !== undefined) {
        sheet.columnCount = grid.columnCount;
        sheet.cells = sheet.cells.map((row) => row.slice(0, grid.columnCount));
      }
      if (grid.frozenRowCount !== undefined) sheet.frozenRowCount = grid.frozenRowCount;
      if (grid.frozenColumnCount !== undefined) sheet.frozenColumnCount = grid.frozenColumnCount;
      return {};
    }
    if (change.repeatCell) {
      const { range, cell, fields } = change.repeatCell as {
        range: { sheetId: number; startRowIndex?: number; startColumnIndex?: number };
        cell: {
          userEnteredFormat?: {
            numberFormat?: { type: string; pattern?: string };
            textFormat?: { bold?: boolean };
          };
        };
        fields: string;
      };
      const sheet = book.sheets.find((s) => s.sheetId === range.sheetId);
      if (!sheet) throw new Error(`No grid with id: ${range.sheetId}`);
      if (!fields) throw new Error('At least one field must be specified in fields.');
      const format = cell.userEnteredFormat ?? {};
      if (format.numberFormat && range.startColumnIndex !== undefined)
        sheet.columnFormats[range.startColumnIndex] = format.numberFormat;
      if (format.textFormat?.bold !== undefined && (range.startRowIndex ?? 0) === 0)
        sheet.boldHeader = format.textFormat.bold;
      return {};
    }
    throw new Error(`Unsupported request: ${Object.keys(change).join(', ')}`);
  };

  app.all('/v4/*', async (request, reply) => {
    const stopped = guard(request.headers.authorization, reply);
    if (stopped) return stopped;
    const path = request.url.split('?')[0]!.slice('/v4/'.length);
    const body = (request.body ?? {}) as Json;
    if (path === 'spreadsheets' && request.method === 'POST') {
      const properties = (body.properties ?? {}) as { title?: string };
      const sheets = (body.sheets as { properties: { title: string } }[] | undefined) ?? [];
      const book: FakeSpreadsheet = {
        spreadsheetId: `1${randomBytes(21).toString('base64url')}`,
        title: properties.title ?? 'Untitled spreadsheet',
        trashed: false,
        appProperties: {},
        description: null,
        sheets: (sheets.length > 0 ? sheets.map((s) => s.properties.title) : ['Sheet1']).map(newSheet),
      };
      spreadsheets.set(book.spreadsheetId, book);
      createdCount += 1;
      return spreadsheetJson(book);
    }
    const match = /^spreadsheets\/([^/:]+)(?:\/values)?(?::(\w+))?$/.exec(decodeURIComponent(path));
    const book = match ? findBook(match[1]!) : null;
    if (!match || !book) return googleError(reply, 404, 'NOT_FOUND', 'Requested entity was not found.');
    const action = match[2] ?? null;
    const isValues = path.includes('/values');
    try {
      if (!action && request.method === 'GET') return spreadsheetJson(book);
      if (!isValues && action === 'batchUpdate') {
        const changes = (body.requests as Json[] | undefined) ?? [];
        // All or nothing, as the real batchUpdate.
        const copy = structuredClone(book);
        const replies = changes.map((change) => applyRequest(copy, change));
        Object.assign(book, copy);
        return { spreadsheetId: book.spreadsheetId, replies };
      }
      if (isValues && action === 'batchClear') {
        const ranges = (body.ranges as string[] | undefined) ?? [];
        for (const range of ranges) {
          const { title } = parseA1(range);
          const sheet = book.sheets.find((s) => s.title === title);
          if (!sheet) throw new Error(`Unable to parse range: ${range}`);
          sheet.cells = [];
        }
        return { spreadsheetId: book.spreadsheetId, clearedRanges: ranges };
      }
      if (isValues && action === 'batchUpdate') {
        if (body.valueInputOption !== 'RAW' && body.valueInputOption !== 'USER_ENTERED')
          throw new Error('Invalid valueInputOption');
        const data = (body.data as { range: string; values: FakeCell[][] }[] | undefined) ?? [];
        const copy = structuredClone(book);
        let updatedCells = 0;
        for (const { range, values } of data) {
          const { title, row, column } = parseA1(range);
          const sheet = copy.sheets.find((s) => s.title === title);
          if (!sheet) throw new Error(`Unable to parse range: ${range}`);
          const width = Math.max(0, ...values.map((v) => v.length));
          if (row + values.length > sheet.rowCount || column + width > sheet.columnCount)
            throw new Error(
              `Range (${range}) exceeds grid limits. Max rows: ${sheet.rowCount}, max columns: ${sheet.columnCount}`,
            );
          values.forEach((cells, r) => {
            const target = (sheet.cells[row + r] ??= []);
            cells.forEach((cell, c) => {
              target[column + c] = cell;
              updatedCells += 1;
            });
          });
        }
        Object.assign(book, copy);
        return { spreadsheetId: book.spreadsheetId, totalUpdatedCells: updatedCells };
      }
    } catch (error) {
      return googleError(reply, 400, 'INVALID_ARGUMENT', (error as Error).message);
    }
    return googleError(reply, 404, 'NOT_FOUND', 'Method not found.');
  });

  app.get<{ Querystring: { q?: string } }>('/drive/v3/files', async (request, reply) => {
    const stopped = guard(request.headers.authorization, reply);
    if (stopped) return stopped;
    const q = request.query.q ?? '';
    const wanted = /appProperties has \{ key='([^']*)' and value='([^']*)' \}/.exec(q);
    const notTrashed = q.includes('trashed = false');
    const files = [...spreadsheets.values()]
      .filter((book) => !notTrashed || !book.trashed)
      .filter((book) => !wanted || book.appProperties[wanted[1]!] === wanted[2])
      .map((book) => ({ id: book.spreadsheetId }));
    return { kind: 'drive#fileList', incompleteSearch: false, files };
  });

  app.get<{ Params: { id: string } }>('/drive/v3/files/:id', async (request, reply) => {
    const stopped = guard(request.headers.authorization, reply);
    if (stopped) return stopped;
    const book = spreadsheets.get(request.params.id);
    if (!book) return googleError(reply, 404, 'notFound', `File not found: ${request.params.id}.`);
    return { id: book.spreadsheetId, name: book.title, trashed: book.trashed };
  });

  app.patch<{ Params: { id: string } }>('/drive/v3/files/:id', async (request, reply) => {
    const stopped = guard(request.headers.authorization, reply);
    if (stopped) return stopped;
    const book = spreadsheets.get(request.params.id);
    if (!book) return googleError(reply, 404, 'notFound', `File not found: ${request.params.id}.`);
    const body = (request.body ?? {}) as { appProperties?: Record<string, string>; description?: string };
    book.appProperties = { ...book.appProperties, ...body.appProperties };
    if (body.description !== undefined) book.description = body.description;
    return { id: book.spreadsheetId };
  });

  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const tokenUrl = `${url}/token`;
  return {
    url,
    configValues: { GOOGLE_SHEETS_API_URL: url, GOOGLE_DRIVE_API_URL: url, OAUTH_GOOGLE_ISSUER: url },
    ...controls,
    accessTokens: (tokens) => fakeAccessTokens('Google', tokenUrl, tokens),
    spreadsheets,
    valuesOf: (spreadsheetId, sheetTitle) => {
      const sheet = spreadsheets.get(spreadsheetId)?.sheets.find((s) => s.title === sheetTitle);
      if (!sheet) throw new Error(`no sheet ${sheetTitle} in ${spreadsheetId}`);
      const rows = sheet.cells.map((row) => {
        const cells = Array.from(row, (cell) => cell ?? '');
        while (cells.length > 0 && cells.at(-1) === '') cells.pop();
        return cells;
      });
      while (rows.length > 0 && rows.at(-1)!.length === 0) rows.pop();
      return rows;
    },
    created: () => createdCount,
    close: () => app.close(),
  };
};

export { fakeAccessTokens };
