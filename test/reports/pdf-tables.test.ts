import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { renderPdf, stopPdfProcess } from '../../workflows/reports/pdf/pdf-renderer';
import type { HabitChange, ReportData } from '../../workflows/reports/report-data/report-data';
import { flat, readPdf } from './pdf-text';

/**
 * The weekly report's tables as a reader sees them (pdftotext -layout keeps each printed line):
 * every customer's figures on the line of its name, whether the table is one drawing (every cell
 * fits on one line) or laid out row by row (a name long enough to wrap), and the page still A4. A
 * company name too long for the header is laid out by react-pdf too, wrapped, never cut.
 */
const run = promisify(execFile);
const layoutText = async (bytes: Uint8Array) => {
  const dir = await mkdtemp(join(tmpdir(), 'report-tables-'));
  try {
    await writeFile(join(dir, 'r.pdf'), bytes);
    const { stdout: text } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', join(dir, 'r.pdf'), '-']);
    const { stdout: info } = await run('pdfinfo', ['-f', '1', '-l', '9', join(dir, 'r.pdf')]);
    return { text, sizes: [...info.matchAll(/^Page\s+\d+ size:\s+([\d.]+ x [\d.]+)/gm)].map((m) => m[1]) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const habit = (i: number, name: string): HabitChange => ({
  customerId: i,
  name,
  daysLateBefore: 10 + i,
  daysLateAfter: 40 + 2 * i,
  change: 30 + i,
});

const reportData = (names: string[]): ReportData => ({
  company: {
    sellerId: 1,
    tenantId: 1,
    name: 'Tablewise Ltd',
    currency: 'USD',
    logo: null,
    naics: null,
    weeklyDay: 1,
    monthlyDay: 1,
  },
  frequency: 'weekly',
  asOf: '2025-11-25T07:00:00.000Z',
  dataAsOf: '2025-11-25T07:00:00.000Z',
  period: { start: '2025-11-17', end: '2025-11-23' },
  previousPeriod: { start: '2025-11-10', end: '2025-11-16' },
  lastYearPeriod: { start: '2024-11-18', end: '2024-11-24' },
  revenue: { current: 123_456_78, previous: 111_111_11, lastYear: 99_999_99 },
  collections: { current: 87_654_32, previous: 76_543_21, lastYear: 65_432_10 },
  trend: Array.from({ length: 8 }, (_, i) => ({
    start: new Date(Date.UTC(2025, 8, 29 + 7 * i)).toISOString().slice(0, 10),
    revenue: 10_000_000 + i * 100_000,
    collections: 9_000_000 + i * 100_000,
  })),
  receivables: {
    open: 50_000_00,
    overdue: 20_000_00,
    openInvoices: 40,
    aging: [
      { bucket: 'current', amount: 30_000_00, invoices: 20 },
      { bucket: '1-30', amount: 10_000_00, invoices: 10 },
      { bucket: '31-60', amount: 5_000_00, invoices: 5 },
      { bucket: '61-90', amount: 3_000_00, invoices: 3 },
      { bucket: 'over-90', amount: 2_000_00, invoices: 2 },
    ],
  },
  previousReceivables: { open: 48_000_00, overdue: 19_000_00 },
  dso: { current: 31.5, previous: 33 },
  habits: {
    windows: {
      before: { start: '2025-09-29', end: '2025-10-26' },
      after: { start: '2025-10-27', end: '2025-11-23' },
    },
    changes: names.map((name, i) => habit(i, name)),
    total: names.length,
  },
  chase: {
    overdueInvoices: 3,
    invoices: [1, 2, 3].map((i) => ({
      customerId: i,
      customerName: `Chased Customer ${i}`,
      docNumber: `INV-90${i}`,
      dueDate: '2025-09-01',
      daysOverdue: 80 + i,
      balance: 1_000_00 * i + 17,
    })),
  },
  forecast: {
    asOf: '2025-11-25T07:00:00.000Z',
    openBalance: 50_000_00,
    weeks: Array.from({ length: 4 }, (_, i) => ({
      start: new Date(Date.UTC(2025, 10, 26 + 7 * i)).toISOString().slice(0, 10),
      mean: 1_000_000 + i * 12_345,
      lower80: 800_000,
      upper80: 1_300_000,
    })),
  },
});

/** The printed line holding `text`. */
const lineWith = (text: string, within: string) =>
  within.split('\n').find((line) => line.includes(text)) ?? '';

afterAll(() => stopPdfProcess());

describe('the weekly report tables', () => {
  it('print each row on one line, its figures beside its name, on A4 pages', async () => {
    const names = Array.from({ length: 10 }, (_, i) => `Short Name ${i}`);
    const { text, sizes } = await layoutText(
      (await renderPdf({ kind: 'periodic', data: reportData(names) })).bytes,
    );
    expect(sizes).toEqual(['595.28 x 841.89', '595.28 x 841.89', '595.28 x 841.89']);
    names.forEach((name, i) => {
      expect(lineWith(`${name} `, text)).toMatch(
        new RegExp(`${name}\\s+${10 + i} days\\s+${40 + 2 * i} days\\s+\\+${30 + i} days`),
      );
    });
    expect(lineWith('Chased Customer 2', text)).toMatch(
      /Chased Customer 2\s+INV-902\s+1 Sept 2025\s+82\s+\$2,000\.17/,
    );
    // The revenue table's rows (the chart's legend prints the same labels without figures).
    expect(text).toMatch(/^ *Revenue \(invoiced\)\s+\$123,456\.78\s+\$111,111\.11\s+\$99,999\.99$/m);
    expect(text).toMatch(/^ *Collections \(payments\)\s+\$87,654\.32\s+\$76,543\.21\s+\$65,432\.10$/m);
  }, 60_000);

  it('wrap a name too long for its column, keeping every later row beside its name', async () => {
    const long =
      'Northwestern Consolidated Industrial Refrigeration and Cold Storage Holdings (Europe) Limited';
    const names = ['First Customer', long, 'Third Customer', 'Fourth Customer'];
    const bytes = (await renderPdf({ kind: 'periodic', data: reportData(names) })).bytes;
    const { text } = await layoutText(bytes);
    // The long name takes two lines: its figures stand on the first, the rest of the name below.
    expect(lineWith('Northwestern', text)).toMatch(/Northwestern .*\s+11 days\s+42 days\s+\+31 days/);
    expect(lineWith('Limited', text)).not.toMatch(/days/);
    expect(lineWith('Third Customer', text)).toMatch(/Third Customer\s+12 days\s+44 days\s+\+32 days/);
    expect(lineWith('Fourth Customer', text)).toMatch(/Fourth Customer\s+13 days\s+46 days\s+\+33 days/);
    expect(flat((await readPdf(bytes)).text)).toContain(long);
  }, 60_000);

  it('wrap a company name too long for the header, printing it in full', async () => {
    const name = 'Northwestern Consolidated Industrial Refrigeration Holdings';
    const data = reportData(['First Customer']);
    const bytes = (
      await renderPdf({ kind: 'periodic', data: { ...data, company: { ...data.company, name } } })
    ).bytes;
    const { text } = await layoutText(bytes);
    // Too wide for the header's 300 pt: laid out by react-pdf, on two lines beside the titles.
    expect(lineWith('Northwestern', text)).not.toContain('Holdings');
    expect(lineWith('Weekly Report', text)).toContain('Northwestern');
    expect(flat((await readPdf(bytes)).text)).toContain(name);
  }, 60_000);
});
