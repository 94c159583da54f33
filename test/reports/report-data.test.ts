import type { Db } from 'mongodb';
import { storeSellerForecast } from '../../workflows/forecast/forecast-store';
import { gatherReportData } from '../../workflows/reports/report-data/gather-report-data';
import { useTestReadStore } from '../harness/test-read-store';
import { expectedReportFigures, type Exclusions } from './expected-report-figures';
import {
  demoLedger,
  seedLedgerAndMetrics,
  seedLogo,
  seedSeller,
  seedTenant,
  solidPng,
} from './report-fixtures';

const readStore = useTestReadStore(__filename);
let db: Db;

const tenantId = 7;
const sellerId = 70;
/** A Wednesday: the weekly report covers Monday 27 May to Sunday 2 June, the monthly one May. */
const asOf = new Date('2024-06-05T09:00:00.000Z');
const exclusions: Exclusions = { customerIds: [3, 11], productIds: [2] };
const ledger = demoLedger(sellerId, { seed: 21, startDate: '2022-03-01', invoicesPerYear: 2400 }, asOf);
const png = solidPng(90, 30, [20, 90, 160]);

beforeAll(async () => {
  db = readStore.db();
  const logoUrl = await seedLogo(db, tenantId, 'image/png', png);
  await seedTenant(db, { tenantId, name: 'Harbour Tools Ltd', currency: 'GBP', naics: '423710', logoUrl });
  await seedSeller(db, { sellerId, tenantId, companyName: 'Harbour Tools', exclusions, metricsDate: asOf });
  await seedLedgerAndMetrics(db, { sellerId, tenantId }, ledger, { asOf, exclusions });
}, 120_000);

describe.each(['weekly', 'monthly'] as const)('the %s report data', (frequency) => {
  const expected = expectedReportFigures(ledger, exclusions, frequency, asOf);

  it('has the period, revenue and collections against the previous period and last year', async () => {
    const data = await gatherReportData(db, { sellerId, frequency, asOf });
    expect(data.period).toEqual(expected.period);
    expect(data.revenue).toEqual(expected.revenue);
    expect(data.collections).toEqual(expected.collections);
    // The seeded ledger has sales in every one of these periods, so each comparison says something.
    expect(Object.values(expected.revenue).every((v) => v > 0)).toBe(true);
    expect(data.trend.at(-1)).toEqual({
      start: expected.period.start,
      revenue: expected.revenue.current,
      collections: expected.collections.current,
    });
  });

  it('has open and overdue receivables, aging buckets and DSO at the end of the period', async () => {
    const data = await gatherReportData(db, { sellerId, frequency, asOf });
    expect(data.receivables.aging.map((b) => b.amount)).toEqual(expected.aging.buckets);
    expect(data.receivables.aging.map((b) => b.invoices)).toEqual(expected.aging.invoices);
    expect(data.receivables.open).toBe(expected.aging.open);
    expect(data.receivables.overdue).toBe(expected.aging.overdue);
    expect(data.previousReceivables).toEqual({
      open: expected.previousAging.open,
      overdue: expected.previousAging.overdue,
    });
    expect(data.dso).toEqual(expected.dso);
    expect(expected.aging.overdue).toBeGreaterThan(0);
  });

  it('lists the invoices to chase and the customers whose payment habits changed', async () => {
    const data = await gatherReportData(db, { sellerId, frequency, asOf });
    expect(data.chase.invoices.map(({ customerId: _, ...rest }) => rest)).toEqual(expected.chase);
    expect(data.chase.overdueInvoices).toBe(expected.overdueInvoices);
    expect(data.habits.total).toBe(expected.habitChanges.length);
    expect(data.habits.changes).toEqual(expected.habitChanges.slice(0, 10));
    expect(expected.chase).toHaveLength(10);
    expect(expected.habitChanges.length).toBeGreaterThan(0);
    // Excluded customers are nowhere.
    const shown = [...data.chase.invoices, ...data.habits.changes].map((row) => row.customerId);
    expect(shown.filter((id) => exclusions.customerIds.includes(id))).toEqual([]);
  });

  it('presents the company with its currency and logo', async () => {
    const data = await gatherReportData(db, { sellerId, frequency, asOf });
    expect(data.company).toMatchObject({ name: 'Harbour Tools', currency: 'GBP', naics: '423710' });
    expect(data.company.logo).toEqual({ contentType: 'image/png', base64: png.toString('base64') });
    expect(data.dataAsOf).toBe(asOf.toISOString());
  });
});

describe('the collections forecast in the report data', () => {
  const week = (i: number) => new Date(Date.UTC(2024, 5, 6 + 7 * i));
  beforeAll(async () => {
    const points = Array.from({ length: 13 }, (_, i) => ({
      startDate: week(i),
      mean: 100_000 + i * 1_000,
      lower80: 90_000,
      upper80: 120_000 + i * 1_000,
      lower95: 80_000,
      upper95: 130_000,
    }));
    const issue = { issuedAt: asOf, method: 'test', history: [], scale: null, baseline: null };
    await storeSellerForecast(db, {
      ...issue,
      sellerId,
      kind: 'collections',
      asOf,
      points,
      openInvoices: 12,
      openBalance: 1_234_500,
      beyondHorizon: 0,
    });
    // One issued after the report's date is not the report's.
    await storeSellerForecast(db, {
      ...issue,
      sellerId,
      kind: 'collections',
      asOf: new Date('2024-06-20T00:00:00.000Z'),
      points: points.map((p) => ({ ...p, mean: 1 })),
      openInvoices: 1,
      openBalance: 1,
      beyondHorizon: 0,
    });
  });

  it('shows the next 4 weeks in a weekly report and about 3 months (13 weeks) in a monthly one', async () => {
    const weekly = await gatherReportData(db, { sellerId, frequency: 'weekly', asOf });
    const monthly = await gatherReportData(db, { sellerId, frequency: 'monthly', asOf });
    expect(weekly.forecast?.weeks.map((w) => w.mean)).toEqual([100_000, 101_000, 102_000, 103_000]);
    expect(weekly.forecast?.openBalance).toBe(1_234_500);
    expect(monthly.forecast?.weeks).toHaveLength(13);
    expect(monthly.forecast?.weeks[0]).toEqual({
      start: '2024-06-06',
      mean: 100_000,
      lower80: 90_000,
      upper80: 120_000,
    });
  });

  it('has no forecast before any was issued', async () => {
    const data = await gatherReportData(db, {
      sellerId,
      frequency: 'weekly',
      asOf: new Date('2024-06-01T00:00:00.000Z'),
    });
    expect(data.forecast).toBeNull();
  });
});
