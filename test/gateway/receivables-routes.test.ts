import { MetricRowsResponse } from '../../contracts/api/ledger';
import { AssetResponse, SellerAgingResponse, SellerCustomersResponse } from '../../contracts/api/receivables';
import { useGatewayWorld, type Browser } from './gateway-world';
import { buildCast } from './route-cast';
import { sellerWithReceivables } from './route-examples/receivables';
import type { Cast } from './route-examples/types';

/**
 * The receivables routes answer what ADR 30 says for the small ledger of route-examples/receivables.ts
 * (as of 2024-03-31): Acme owes A 5,000 (51 days late) and C 3,000 (not yet due), Bolt owes D 20,000
 * (91 days late), Crane paid E on March 1.
 */
const world = useGatewayWorld(__filename);
let cast: Cast;
let sellerId: number;
let user: Browser;

beforeAll(async () => {
  cast = await buildCast(world, { a: 'Receivables A', b: 'Receivables B', f: 'Receivables F' });
  sellerId = await sellerWithReceivables(cast);
  user = cast.a.user.browser;
}, 120_000);

const customers = async (query: string) => {
  const response = await user.get(`/api/sellers/${sellerId}/customers?${query}`);
  expect(response.statusCode).toBe(200);
  return SellerCustomersResponse.parse(response.json());
};
const aging = async (query: string) => {
  const response = await user.get(`/api/sellers/${sellerId}/aging?${query}`);
  expect(response.statusCode).toBe(200);
  return SellerAgingResponse.parse(response.json());
};
const rows = async (query: string) => {
  const response = await user.get(`/api/metrics/sellers/${sellerId}?${query}`);
  expect(response.statusCode).toBe(200);
  return MetricRowsResponse.parse(response.json()).rows;
};

describe('the seller customers table', () => {
  it("gives each customer's figures and risk", async () => {
    const table = await customers('sort=customerId&order=asc');
    expect(table).toMatchObject({ asOf: '2024-03-31T12:00:00.000Z', total: 3, page: 1, pageSize: 25 });
    expect(table.rows).toEqual([
      {
        customerId: 1,
        name: 'Acme',
        email: 'acme@example.com',
        salesT36M: 19_000,
        invoicesT36M: 3,
        openBalance: 8_000,
        overdue: 5_000,
        aging: { current: 3_000, days1To30: 0, days31To60: 5_000, days61To90: 0, over90: 0 },
        // 8,000 owed over the 19,000 sold from April 2023 to March 31 2024 (366 days).
        dsoDays: Math.round(((8_000 * 366) / 19_000) * 100) / 100,
        movingAvgDbtDays: 30,
        lastPurchase: '2024-03-10T00:00:00.000Z',
        averageDaysLate: 51,
        risk: 'high',
      },
      {
        customerId: 2,
        name: 'Bolt',
        email: 'bolt@example.com',
        salesT36M: 20_000,
        invoicesT36M: 1,
        openBalance: 20_000,
        overdue: 20_000,
        aging: { current: 0, days1To30: 0, days31To60: 0, days61To90: 0, over90: 20_000 },
        dsoDays: 366,
        movingAvgDbtDays: null,
        lastPurchase: '2023-12-01T00:00:00.000Z',
        averageDaysLate: 91,
        risk: 'high',
      },
      {
        customerId: 3,
        name: 'Crane',
        email: 'crane@example.com',
        salesT36M: 1_000,
        invoicesT36M: 1,
        openBalance: 0,
        overdue: 0,
        aging: { current: 0, days1To30: 0, days31To60: 0, days61To90: 0, over90: 0 },
        dsoDays: 0,
        movingAvgDbtDays: null,
        lastPurchase: '2024-02-01T00:00:00.000Z',
        averageDaysLate: null,
        risk: 'low',
      },
    ]);
  });

  it('pages, sorts on any column and searches by name on the server', async () => {
    const names = (table: { rows: { name: string }[] }) => table.rows.map((row) => row.name);
    const first = await customers('sort=overdue&order=desc&page=1&pageSize=2');
    expect([first.total, names(first)]).toEqual([3, ['Bolt', 'Acme']]);
    const second = await customers('sort=overdue&order=desc&page=2&pageSize=2');
    expect([second.total, names(second)]).toEqual([3, ['Crane']]);
    expect(names(await customers('sort=name&order=desc'))).toEqual(['Crane', 'Bolt', 'Acme']);
    expect(names(await customers('sort=risk&order=asc'))).toEqual(['Crane', 'Acme', 'Bolt']);
    expect(names(await customers('sort=lastPurchase&order=desc'))).toEqual(['Acme', 'Crane', 'Bolt']);
    const found = await customers('search=RAN');
    expect([found.total, names(found)]).toEqual([1, ['Crane']]);
    expect((await customers('search=.*')).total).toBe(0);
  });
});

describe('aging as of a date', () => {
  it('reconstructs the balances open at a past date from the payments and credit memos after it', async () => {
    // January 31: A 6,000 (before the credit memo) not yet due, B 6,000 paid only in March, D 20,000.
    expect(await aging('asOf=2024-01-31')).toEqual({
      sellerId,
      customerId: null,
      asOf: '2024-01-31T23:59:59.999Z',
      buckets: [
        { bucket: 'current', amount: 6_000, invoices: 1 },
        { bucket: '1-30', amount: 6_000, invoices: 1 },
        { bucket: '31-60', amount: 20_000, invoices: 1 },
        { bucket: '61-90', amount: 0, invoices: 0 },
        { bucket: 'over-90', amount: 0, invoices: 0 },
      ],
      total: { amount: 32_000, invoices: 3, overdue: 26_000 },
    });
    // February 20: the credit memo applied, Crane's E (paid March 1) open and not yet due.
    const february = await aging('asOf=2024-02-20');
    expect(february.buckets.map((b) => [b.amount, b.invoices])).toEqual([
      [1_000, 1],
      [11_000, 2],
      [20_000, 1],
      [0, 0],
      [0, 0],
    ]);
    const acme = await aging('asOf=2024-01-31&customerId=1');
    expect(acme.total).toEqual({ amount: 12_000, invoices: 2, overdue: 6_000 });
  });

  it('defaults to today without a collection date, and agrees with the stored aging rows at every month end', async () => {
    const collected = await aging('asOf=2024-03-31');
    expect(collected.total).toEqual({ amount: 28_000, invoices: 3, overdue: 25_000 });
    // This seller was never synced: without a CollectionDate, the date is today.
    const today = world.clock.now().toISOString().slice(0, 10);
    expect(await aging('')).toEqual(await aging(`asOf=${today}`));
    const types = ['AGING_CURRENT', 'AGING_1_30', 'AGING_31_60', 'AGING_61_90', 'AGING_OVER_90'];
    const monthly = await Promise.all(types.map((type) => rows(`type=${type}&frequency=MONTHLY`)));
    for (const [i, row] of (monthly[0] ?? []).entries()) {
      const start = new Date(row.StartDate);
      const monthEnd = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0));
      const asOf = monthEnd.toISOString().slice(0, 10);
      const answered = await aging(`asOf=${asOf > '2024-03-31' ? '2024-03-31' : asOf}`);
      expect({ asOf, buckets: answered.buckets.map((b) => [b.amount, b.invoices]) }).toEqual({
        asOf,
        buckets: monthly.map((series) => [series[i]?.Value, series[i]?.Count]),
      });
    }
  });
});

describe("a customer's invoices and metric rows", () => {
  it('lists the invoices in the range with days since the previous one and the moving average', async () => {
    const response = await user.get(
      `/api/assets/1?sellerId=${sellerId}&startDate=2024-01-20&endDate=2024-03-31`,
    );
    expect(response.statusCode).toBe(200);
    const assets = AssetResponse.parse(response.json());
    expect(assets).toMatchObject({ sellerId, customerId: 1, name: 'Acme', excluded: false });
    expect(
      assets.invoices.map((i) => [
        i.docNumber,
        i.daysSincePrevious,
        i.movingAvgDbtDays,
        i.balance,
        i.paidDate,
      ]),
    ).toEqual([
      ['INV-B', 15, 15, 0, '2024-03-05T00:00:00.000Z'],
      ['INV-C', 45, 30, 3_000, null],
    ]);
    expect((await user.get(`/api/assets/99?sellerId=${sellerId}`)).statusCode).toBe(404);
    expect((await cast.b.admin.browser.get(`/api/assets/1?sellerId=${sellerId}`)).statusCode).toBe(404);
  });

  it("computes one customer's metric rows on request", async () => {
    const dso = await rows('type=DSO&frequency=MONTHLY&customerId=1');
    expect(dso.map((r) => [r.StartDate.slice(0, 10), r.Value, r.Count])).toEqual([
      ['2024-01-01', Math.round(((12_000 * 31) / 16_000) * 100), 2],
      ['2024-02-01', 0, 0],
      ['2024-03-01', Math.round(((8_000 * 31) / 3_000) * 100), 1],
    ]);
    const seller = await rows('type=DSO&frequency=MONTHLY');
    expect(seller.at(-1)).toEqual({
      StartDate: '2024-03-01T00:00:00.000Z',
      Value: Math.round(((28_000 * 31) / 3_000) * 100),
      Count: 1,
    });
    expect(
      (await user.get(`/api/metrics/sellers/${sellerId}?type=DSO&frequency=MONTHLY&customerId=99`))
        .statusCode,
    ).toBe(404);
  });
});
