import { quotedSheet, spreadsheetUrl } from './google-sheets-writer';
import { liveReportKey, liveReportsWorkflowId } from './live-reports-input';
import { googleCellOf, googleValuesOf, liveDisplayName } from './live-sheets';
import { driveFileName } from './onedrive-writer';

describe('live report names', () => {
  it('names a file by company and sheet, without a date (it is rewritten in place)', () => {
    expect(liveDisplayName({ sellerName: 'Acme/Ltd: "East"' }, 'CUSTOMER_SHEET')).toBe(
      'Acme Ltd East - Customer Sheet',
    );
    expect(liveDisplayName({ sellerName: 'Acme' }, 'AR_FORECAST_SHEET')).toBe('Acme - AR Forecast');
  });

  it('keeps OneDrive file names to the characters OneDrive takes', () => {
    expect(driveFileName('Acme: A/R? #1 (company 7)')).toBe('Acme A R 1 (company 7).xlsx');
    expect(driveFileName('Trailing dots...')).toBe('Trailing dots.xlsx');
    expect(driveFileName(' ?* ')).toBe('Live report.xlsx');
  });

  it('quotes worksheet names in A1 ranges and links a spreadsheet by id', () => {
    expect(quotedSheet("Bob's Customers")).toBe("'Bob''s Customers'");
    expect(spreadsheetUrl('1AbC_d-9')).toBe('https://docs.google.com/spreadsheets/d/1AbC_d-9');
  });

  it('keys a live report by integration, type and seller, and its run by job', () => {
    expect(liveReportKey({ integrationId: 5, sellerId: 11 }, 'CUSTOMER_SHEET')).toBe('5-CUSTOMER_SHEET-11');
    expect(
      liveReportsWorkflowId(
        { TEMPORAL_TASK_QUEUE_PREFIX: 'lw' },
        { integrationId: 5, sellerId: 11, jobId: 90 },
      ),
    ).toBe('lw-live-reports-5-11-90');
  });
});

describe('Google Sheets values', () => {
  it('writes money in currency units, dates as serial days and nulls as empty cells', () => {
    const money = { header: 'Open Balance', kind: 'money', width: 10 } as const;
    const date = { header: 'Last Payment', kind: 'date', width: 10 } as const;
    expect(googleCellOf(money, 123_456)).toBe(1234.56);
    expect(googleCellOf(money, null)).toBe('');
    expect(googleCellOf(date, new Date('2026-03-02T00:00:00.000Z'))).toBe(46083);
    expect(googleCellOf(date, new Date('1900-03-01T12:00:00.000Z'))).toBe(61.5);
    expect(googleCellOf({ header: 'DSO', kind: 'days', width: 8 }, 31.5)).toBe(31.5);
    expect(googleCellOf({ header: 'Customer', kind: 'text', width: 8 }, '=1+1')).toBe('=1+1');
  });

  it('puts the header row first', () => {
    expect(
      googleValuesOf({
        name: 'Customers',
        frozenColumns: 1,
        columns: [
          { header: 'Customer', kind: 'text', width: 10 },
          { header: 'Overdue', kind: 'money', width: 10 },
        ],
        rows: [
          ['Ada', 500],
          ['Bob', null],
        ],
      }),
    ).toEqual([
      ['Customer', 'Overdue'],
      ['Ada', 5],
      ['Bob', ''],
    ]);
  });
});
