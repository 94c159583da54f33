import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Db } from 'mongodb';
import { storeSellerForecast } from '../../workflows/forecast/forecast-store';
import { stopPdfProcess } from '../../workflows/reports/pdf/pdf-renderer';
import { renderSellerReport } from '../../workflows/reports/pdf/render-seller-report';
import { useTestReadStore } from '../harness/test-read-store';
import { expectedReportFigures, ledgerFacts, type Exclusions } from './expected-report-figures';
import { flat, readPdf } from './pdf-text';
import {
  demoLedger,
  seedLedgerAndMetrics,
  seedLogo,
  seedSeller,
  seedTenant,
  solidPng,
} from './report-fixtures';

/**
 * Each seller report rendered for real (react-pdf in its process), read back with pdftotext, and
 * its printed figures compared with those recomputed here from the seeded ledger.
 */
const readStore = useTestReadStore(__filename);
let db: Db;

const tenantId = 8;
const sellerId = 80;
const asOf = new Date('2024-06-05T09:00:00.000Z');
const exclusions: Exclusions = { customerIds: [4], productIds: [3] };
const ledger = demoLedger(sellerId, { seed: 33, startDate: '2022-02-01', invoicesPerYear: 1800 }, asOf);

/** The printed formats, written here again: GBP in the en-GB way, days with one decimal at most. */
const gbp = (cents: number) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(cents / 100);
const grouped = (value: number) => new Intl.NumberFormat('en-US').format(value);
const daysText = (value: number) =>
  `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(value)} days`;

const run = promisify(execFile);
const imageCount = async (bytes: Uint8Array) => {
  const dir = await mkdtemp(join(tmpdir(), 'report-images-'));
  try {
    await writeFile(join(dir, 'r.pdf'), bytes);
    const { stdout } = await run('pdfimages', ['-list', join(dir, 'r.pdf')]);
    return stdout.trim().split('\n').length - 2;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

beforeAll(async () => {
  db = readStore.db();
  const logoUrl = await seedLogo(db, tenantId, 'image/png', solidPng(120, 40, [200, 40, 40]));
  await seedTenant(db, { tenantId, name: 'Quayside Ltd', currency: 'GBP', naics: '541611', logoUrl });
  await seedSeller(db, {
    sellerId,
    tenantId,
    companyName: 'Quayside Supplies',
    exclusions,
    metricsDate: asOf,
  });
  await seedLedgerAndMetrics(db, { sellerId, tenantId }, ledger, { asOf, exclusions });
  await storeSellerForecast(db, {
    sellerId,
    kind: 'collections',
    issuedAt: asOf,
    asOf,
    method: 'test',
    history: [],
    points: Array.from({ length: 13 }, (_, i) => ({
      startDate: new Date(Date.UTC(2024, 5, 6 + 7 * i)),
      mean: 2_000_000 + 12_345 * i,
      lower80: 1_500_000,
      upper80: 2_600_000,
      lower95: 1_000_000,
      upper95: 3_000_000,
    })),
    scale: null,
    baseline: null,
    openInvoices: 40,
    openBalance: 9_876_543,
    beyondHorizon: 0,
  });
}, 120_000);
afterAll(() => stopPdfProcess());

describe.each([
  ['WEEKLY_REPORT', 'weekly', 'Weekly Report'],
  ['MONTHLY_REPORT', 'monthly', 'Monthly Report'],
] as const)('the %s PDF', (type, frequency, title) => {
  const expected = expectedReportFigures(ledger, exclusions, frequency, asOf);
  let text = '';
  let pages = 0;
  let images = 0;
  let fileName = '';
  beforeAll(async () => {
    const report = await renderSellerReport(db, { sellerId, type, asOf });
    ({ text, pages } = await readPdf(report.bytes));
    images = await imageCount(report.bytes);
    fileName = report.fileName;
    expect(report).toMatchObject({ type, extension: 'pdf', contentType: 'application/pdf' });
    expect(report.displayName).toBe(`${title} 2024-06-05`);
  }, 60_000);

  it('is a valid PDF of a few pages named after the company, the report and the day', () => {
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(pages).toBeLessThanOrEqual(5);
    expect(fileName).toBe(`Quayside Supplies - ${title} - 2024-06-05.pdf`);
    expect(flat(text)).toContain(`${title} Quayside Supplies`);
    // The tenant's logo, once per page header.
    expect(images).toBe(pages);
  });

  it('prints revenue and collections of the period, the previous one and last year', () => {
    for (const figure of [...Object.values(expected.revenue), ...Object.values(expected.collections)])
      expect(text).toContain(gbp(figure));
  });

  it('prints open and overdue receivables, each aging bucket and DSO', () => {
    expect(text).toContain(gbp(expected.aging.open));
    expect(text).toContain(gbp(expected.aging.overdue));
    for (const amount of expected.aging.buckets) expect(text).toContain(gbp(amount));
    expect(expected.dso.current).not.toBeNull();
    expect(text).toContain(daysText(expected.dso.current ?? 0));
  });

  it('lists the invoices to chase with their balances and the customers whose habits changed', () => {
    const body = flat(text);
    for (const invoice of expected.chase) {
      expect(body).toContain(invoice.customerName);
      expect(body).toContain(invoice.docNumber);
      expect(body).toContain(gbp(invoice.balance));
    }
    expect(expected.habitChanges.length).toBeGreaterThan(0);
    for (const change of expected.habitChanges.slice(0, 10)) {
      expect(body).toContain(change.name);
      expect(body).toContain(daysText(change.daysLateAfter));
    }
  });

  it('shows the collections forecast of the coming weeks', () => {
    const weeks = frequency === 'weekly' ? 4 : 13;
    for (let i = 0; i < weeks; i += 1) expect(text).toContain(gbp(2_000_000 + 12_345 * i));
    expect(text).not.toContain(gbp(2_000_000 + 12_345 * weeks));
  });
});

/** The scorecard's rules, from ADR 36: full points at the good bound, none at the poor one, linear between. */
const points = (value: number | null, max: number, good: number, poor: number) =>
  value === null
    ? Math.round(max / 2)
    : value <= good
      ? max
      : value >= poor
        ? 0
        : Math.round((max * (poor - value)) / (poor - good));

describe('the SCORECARD_REPORT PDF', () => {
  const facts = ledgerFacts(ledger, exclusions);
  const day = Date.UTC(2024, 5, 5);
  const dsoOver = (startMs: number, endMs: number) => facts.dsoOf({ startMs, endMs });
  // Trailing 3 months: April 1st to the data's day, and January to March for 3 months before.
  const dso = dsoOver(Date.UTC(2024, 3, 1), day);
  const earlier = dsoOver(Date.UTC(2024, 0, 1), Date.UTC(2024, 2, 31));
  const aging = facts.agingAt(day);
  const balances = [...facts.openByCustomerAt(day).values()].filter((v) => v > 0).sort((a, b) => b - a);
  const concentration = balances.slice(0, 5).reduce((a, b) => a + b, 0) / balances.reduce((a, b) => a + b, 0);
  const drivers = [
    points(dso, 30, 30, 90),
    points(aging.overdue / aging.open, 30, 0.05, 0.5),
    points(concentration, 20, 0.25, 0.75),
    points(dso === null || earlier === null ? null : Math.round((dso - earlier) * 100) / 100, 20, 0, 15),
  ];

  it('prints the health score and each driver with its points', async () => {
    const report = await renderSellerReport(db, { sellerId, type: 'SCORECARD_REPORT', asOf });
    const { text, pages } = await readPdf(report.bytes);
    expect(pages).toBe(1);
    const body = flat(text);
    expect(body).toContain(`${drivers.reduce((a, b) => a + b, 0)} / 100`);
    expect(body).toContain(daysText(dso ?? 0));
    const [dsoPoints, overduePoints, concentrationPoints, trendPoints] = drivers;
    expect(body).toContain(`${dsoPoints} / 30 pts`);
    expect(body).toContain(`${overduePoints} / 30 pts`);
    expect(body).toContain(`${concentrationPoints} / 20 pts`);
    expect(body).toContain(`${trendPoints} / 20 pts`);
    expect(body).toContain(gbp(balances[0] ?? 0));
  }, 60_000);
});

describe('the WELCOME_REPORT PDF', () => {
  it('says what the first sync found and how the reports will work', async () => {
    const report = await renderSellerReport(db, { sellerId, type: 'WELCOME_REPORT', asOf });
    const body = flat((await readPdf(report.bytes)).text);
    const facts = ledgerFacts(ledger, exclusions);
    const aging = facts.agingAt(Date.UTC(2024, 5, 5));
    const since = Date.UTC(2021, 5, 5);
    const customers = new Set(
      facts.counted.filter((i) => i.transactionDate.getTime() >= since).map((i) => i.customerId),
    );
    const invoices = facts.counted.filter((i) => i.transactionDate.getTime() >= since).length;
    // The cards' labels print first, then their values in the same order.
    expect(body).toMatch(
      new RegExp(
        `CUSTOMERS \\(36 MONTHS\\) ACTIVE CUSTOMERS INVOICES \\(36 MONTHS\\) ${grouped(customers.size)} [\\d,]+ ${grouped(invoices)} `,
      ),
    );
    expect(body).toContain(gbp(aging.open));
    expect(body).toContain(gbp(aging.overdue));
    // The tenant's schedule: weekly on Tuesday (WeeklyDay 2), monthly on the 7th.
    expect(body).toContain('Every Tuesday, a weekly report covers the previous Monday to Sunday');
    expect(body).toContain('On the 7th of each month');
    expect(body).toContain('Amounts are in GBP');
  }, 60_000);
});

describe('the ONDEMAND_REPORT PDF', () => {
  it('holds the chosen sections only, in their order', async () => {
    const report = await renderSellerReport(db, {
      sellerId,
      type: 'ONDEMAND_REPORT',
      asOf,
      sections: ['health-score', 'invoices-to-chase', 'benchmarks'],
    });
    const body = flat((await readPdf(report.bytes)).text);
    const monthly = expectedReportFigures(ledger, exclusions, 'monthly', asOf);
    expect(body).toContain('Invoices to chase first');
    expect(body).toContain(gbp(monthly.chase[0]?.balance ?? 0));
    expect(body).toContain('HEALTH SCORE');
    expect(body.indexOf('Invoices to chase first')).toBeLessThan(body.indexOf('HEALTH SCORE'));
    // No peers in this test's industry: the section says so instead of failing the report.
    expect(body).toContain('Not enough peers in this industry to benchmark (at least 5 are needed).');
    expect(body).not.toContain('Revenue and collections');
    expect(body).not.toContain('Customers whose payment habits changed');
    expect(body).not.toContain('Collections forecast');
  }, 60_000);
});
