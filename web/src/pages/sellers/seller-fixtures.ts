import type { CustomerForecastResponse, SellerForecastsResponse } from '../../../../contracts/api/forecasts';
import type {
  AssetResponse,
  SellerAgingResponse,
  SellerCustomerRow,
  SellerCustomersResponse,
} from '../../../../contracts/api/receivables';
import type { SellerResponse } from '../../../../contracts/api/sellers';
import type { MetricType } from '../../../../contracts/ledger';
import { FakeFetch } from '../../test-support/fake-fetch';
import { oneSeller, sessionFixture, tenantRow } from '../../test-support/session-fixture';
import { listOf, tenantFixture } from '../../test-support/tenant-fixtures';

/** The seller page's answers for seller 1 of tenant 7 (Acme Demo), synced and forecast. */

export const syncedSeller = (overrides: Partial<SellerResponse> = {}): SellerResponse =>
  ({
    ...oneSeller.rows[0],
    CollectionDate: '2026-11-20T00:00:00.000Z',
    MetricsDate: '2026-11-20T00:05:00.000Z',
    Status: { kind: 'synced', text: 'Last sync on', lastSync: '2026-11-20T00:00:00.000Z' },
    Progress: 'completed',
    ProgressBadge: { stage: 'completed', text: 'Completed' },
    ...overrides,
  }) as SellerResponse;

const band = (mean: number, spread: number) => ({
  mean,
  lower80: mean - spread,
  upper80: mean + spread,
  lower95: mean - 2 * spread,
  upper95: mean + 2 * spread,
});

export const forecastsFixture = (
  overrides: Partial<SellerForecastsResponse> = {},
): SellerForecastsResponse => ({
  sellerId: 1,
  enabled: true,
  revenue: {
    weekly: {
      frequency: 'WEEKLY',
      issuedAt: '2026-11-20T00:06:00.000Z',
      asOf: '2026-11-20T00:00:00.000Z',
      method: 'ets-theta',
      history: [
        { StartDate: '2026-11-02T00:00:00.000Z', Value: 100_000 },
        { StartDate: '2026-11-09T00:00:00.000Z', Value: 120_000 },
        { StartDate: '2026-11-16T00:00:00.000Z', Value: 110_000 },
      ],
      points: [
        { StartDate: '2026-11-23T00:00:00.000Z', ...band(115_000, 10_000) },
        { StartDate: '2026-11-30T00:00:00.000Z', ...band(125_000, 20_000) },
      ],
    },
    monthly: {
      frequency: 'MONTHLY',
      issuedAt: '2026-11-20T00:06:00.000Z',
      asOf: '2026-11-20T00:00:00.000Z',
      method: 'ets-theta',
      history: [{ StartDate: '2026-10-01T00:00:00.000Z', Value: 480_000 }],
      points: [{ StartDate: '2026-12-01T00:00:00.000Z', ...band(500_000, 50_000) }],
    },
  },
  collections: {
    issuedAt: '2026-11-20T00:06:00.000Z',
    asOf: '2026-11-20T00:00:00.000Z',
    method: 'customer-delay',
    openInvoices: 4,
    openBalance: 300_000,
    weeks: [
      { StartDate: '2026-11-23T00:00:00.000Z', ...band(150_000, 30_000) },
      { StartDate: '2026-11-30T00:00:00.000Z', ...band(100_000, 30_000) },
    ],
    beyondHorizon: 50_000,
  },
  validation: { summary: [], recent: [] },
  ...overrides,
});

export const agingFixture = (asOf = '2026-11-20T23:59:59.999Z'): SellerAgingResponse => ({
  sellerId: 1,
  customerId: null,
  asOf,
  buckets: [
    { bucket: 'current', amount: 200_000, invoices: 2 },
    { bucket: '1-30', amount: 50_000, invoices: 1 },
    { bucket: '31-60', amount: 30_000, invoices: 1 },
    { bucket: '61-90', amount: 0, invoices: 0 },
    { bucket: 'over-90', amount: 20_000, invoices: 1 },
  ],
  total: { amount: 300_000, invoices: 5, overdue: 100_000 },
});

export const customerRow = (overrides: Partial<SellerCustomerRow> = {}): SellerCustomerRow => ({
  customerId: 11,
  name: 'Bramble Bakery',
  email: 'ap@bramble.example',
  salesT36M: 1_250_000,
  invoicesT36M: 30,
  openBalance: 120_000,
  overdue: 40_000,
  aging: { current: 80_000, days1To30: 40_000, days31To60: 0, days61To90: 0, over90: 0 },
  dsoDays: 34.5,
  movingAvgDbtDays: 12.25,
  lastPurchase: '2026-11-10T00:00:00.000Z',
  averageDaysLate: 9,
  risk: 'medium',
  ...overrides,
});

export const customersPage = (
  rows: SellerCustomerRow[],
  input: { page?: number; total?: number } = {},
): SellerCustomersResponse => ({
  sellerId: 1,
  asOf: '2026-11-20T00:00:00.000Z',
  page: input.page ?? 1,
  pageSize: 25,
  total: input.total ?? rows.length,
  rows,
});

export const assetFixture = (overrides: Partial<AssetResponse> = {}): AssetResponse => ({
  sellerId: 1,
  customerId: 11,
  name: 'Bramble Bakery',
  email: 'ap@bramble.example',
  excluded: false,
  invoices: [
    {
      providerId: 'inv-1',
      docNumber: '1001',
      transactionDate: '2026-01-05T00:00:00.000Z',
      dueDate: '2026-02-04T00:00:00.000Z',
      amount: 10_000,
      balance: 0,
      paidDate: '2026-02-01T00:00:00.000Z',
      daysSincePrevious: null,
      movingAvgDbtDays: null,
    },
    {
      providerId: 'inv-2',
      docNumber: '1002',
      transactionDate: '2026-01-15T00:00:00.000Z',
      dueDate: '2026-02-14T00:00:00.000Z',
      amount: 25_000,
      balance: 0,
      paidDate: '2026-02-10T00:00:00.000Z',
      daysSincePrevious: 10,
      movingAvgDbtDays: 10,
    },
    {
      providerId: 'inv-3',
      docNumber: '1003',
      transactionDate: '2026-04-15T00:00:00.000Z',
      dueDate: '2026-05-15T00:00:00.000Z',
      amount: 5_000,
      balance: 5_000,
      paidDate: null,
      daysSincePrevious: 90,
      movingAvgDbtDays: 50,
    },
  ],
  ...overrides,
});

export const customerForecastFixture = (
  overrides: Partial<CustomerForecastResponse> = {},
): CustomerForecastResponse => ({
  sellerId: 1,
  customerId: 11,
  enabled: true,
  issuedAt: '2026-11-20T00:06:00.000Z',
  asOf: '2026-11-20T00:00:00.000Z',
  weeks: [{ StartDate: '2026-11-23T00:00:00.000Z', ...band(4_000, 1_000) }],
  invoices: [
    {
      providerId: 'inv-3',
      docNumber: '1003',
      transactionDate: '2026-04-15T00:00:00.000Z',
      dueDate: '2026-05-15T00:00:00.000Z',
      balance: 5_000,
      expectedPayDate: '2026-11-25T00:00:00.000Z',
      payDateLower80: '2026-11-22T00:00:00.000Z',
      payDateUpper80: '2026-12-10T00:00:00.000Z',
      payDateLower95: '2026-11-21T00:00:00.000Z',
      payDateUpper95: '2027-01-10T00:00:00.000Z',
      paidWithinHorizon: 0.8,
    },
  ],
  validation: { recent: [] },
  ...overrides,
});

/** Monthly metric rows by type: DSO and countback with a month without sales (Count 0). */
export const metricRowsFor = (type: MetricType, frequency: string) => {
  const rows: Partial<Record<MetricType, { StartDate: string; Value: number; Count: number }[]>> = {
    TOTAL_REVENUE: [{ StartDate: '2026-11-01T00:00:00.000Z', Value: 4_800_000, Count: 40 }],
    DSO: [
      { StartDate: '2026-09-01T00:00:00.000Z', Value: 4210, Count: 10 },
      { StartDate: '2026-10-01T00:00:00.000Z', Value: 0, Count: 0 },
      { StartDate: '2026-11-01T00:00:00.000Z', Value: 3850, Count: 12 },
    ],
    DSO_COUNTBACK: [
      { StartDate: '2026-09-01T00:00:00.000Z', Value: 3900, Count: 10 },
      { StartDate: '2026-10-01T00:00:00.000Z', Value: 0, Count: 0 },
      { StartDate: '2026-11-01T00:00:00.000Z', Value: 3600, Count: 12 },
    ],
  };
  return {
    sellerId: 1,
    type,
    frequency,
    MetricsDate: '2026-11-20T00:05:00.000Z',
    rows: rows[type] ?? [],
  };
};

/** A standard user of tenant 7 whose seller 1 is synced, with every seller-page route answering. */
export const sellerApi = (input: { platformAdmin?: boolean } = {}) =>
  new FakeFetch()
    .on('GET /api/auth/self', {
      body: sessionFixture({
        tenants: [tenantRow({ Role: 'ADMIN' })],
        user: { isPlatformAdmin: input.platformAdmin ?? false },
      }),
    })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/tenants/7', { body: tenantFixture() })
    .on('GET /api/sellers', { body: listOf([syncedSeller()]) })
    .on('GET /api/sellers/1', { body: syncedSeller() })
    .on('GET /api/jobs', { body: { jobs: [] } })
    .on('GET /api/forecasts/sellers/1', { body: forecastsFixture() })
    .on('GET /api/sellers/1/aging', (call) => {
      const asOf = new URL(call.url, 'http://x').searchParams.get('asOf');
      return { body: agingFixture(asOf ? `${asOf}T23:59:59.999Z` : undefined) };
    })
    .on('GET /api/sellers/1/customers', { body: customersPage([customerRow()]) })
    .on('GET /api/metrics/sellers/1', (call) => {
      const url = new URL(call.url, 'http://x');
      return {
        body: metricRowsFor(
          url.searchParams.get('type') as MetricType,
          url.searchParams.get('frequency') ?? 'MONTHLY',
        ),
      };
    })
    .on('GET /api/assets/11', { body: assetFixture() })
    .on('GET /api/forecasts/sellers/1/customers/11', { body: customerForecastFixture() });
