import type { Db } from 'mongodb';
import { emptyLedgerPage, type LedgerInvoice, type LedgerPage } from '../../../contracts/ledger';
import {
  ensureLedgerIndexes,
  ledgerCollections,
  ledgerEntities,
} from '../../../workflows/ledger/ledger-collections';
import { serializedDocsOf } from '../../../workflows/ledger/write-ledger-page';
import { storeMetrics } from '../../../workflows/metrics/metric-store';
import { scanSellerMetrics } from '../../../workflows/metrics/scan-seller-metrics';
import { sellerOfA } from './sellers';
import type { Cast, RouteExample } from './types';

export const receivablesAsOf = new Date('2024-03-31T12:00:00.000Z');

const at = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

/**
 * A small ledger of three customers (the one of workflows/metrics/receivables-metrics.test.ts):
 * Acme's A partly paid then credited, B paid in March, C open; Bolt's D never paid; Crane's E.
 */
export const smallLedger = (sellerId: number): LedgerPage => {
  const invoice = (
    providerId: string,
    customerId: number,
    dates: { on: string; due: string },
    amounts: { amount: number; balance: number },
  ): LedgerInvoice => ({
    sellerId,
    providerId,
    customerId,
    docNumber: `INV-${providerId}`,
    transactionDate: at(dates.on),
    dueDate: at(dates.due),
    ...amounts,
    lines: [{ productId: 1, quantity: 1, amount: amounts.amount }],
  });
  const settlement = (providerId: string, customerId: number, on: string, applied: [string, number]) => ({
    sellerId,
    providerId,
    customerId,
    date: at(on),
    amount: applied[1],
    applications: [{ invoiceProviderId: applied[0], amount: applied[1] }],
  });
  const customer = (customerId: number, name: string) => ({
    sellerId,
    providerId: `C${customerId}`,
    customerId,
    name,
    email: `${name.toLowerCase()}@example.com`,
    createdAt: at('2023-01-01'),
    habit: null,
  });
  return {
    ...emptyLedgerPage(),
    customers: [customer(1, 'Acme'), customer(2, 'Bolt'), customer(3, 'Crane')],
    products: [{ sellerId, providerId: 'P1', productId: 1, name: 'Widget', unitPrice: 100 }],
    invoices: [
      invoice('A', 1, { on: '2024-01-10', due: '2024-02-09' }, { amount: 10_000, balance: 5_000 }),
      invoice('B', 1, { on: '2024-01-25', due: '2024-01-25' }, { amount: 6_000, balance: 0 }),
      invoice('C', 1, { on: '2024-03-10', due: '2024-04-09' }, { amount: 3_000, balance: 3_000 }),
      invoice('D', 2, { on: '2023-12-01', due: '2023-12-31' }, { amount: 20_000, balance: 20_000 }),
      invoice('E', 3, { on: '2024-02-01', due: '2024-03-02' }, { amount: 1_000, balance: 0 }),
    ],
    payments: [
      settlement('P1', 1, '2024-01-20', ['A', 4_000]),
      settlement('P2', 1, '2024-03-05', ['B', 6_000]),
      settlement('P3', 3, '2024-03-01', ['E', 1_000]),
    ],
    creditMemos: [settlement('CM1', 1, '2024-02-15', ['A', 1_000])],
  };
};

/** Writes a ledger as a sync would leave it, then runs and stores the seller's metrics as of the date. */
export const storeLedgerAndMetrics = async (
  db: Db,
  seller: { sellerId: number; tenantId: number },
  ledger: LedgerPage,
) => {
  await ensureLedgerIndexes(db);
  for (const entity of ledgerEntities) {
    const docs = serializedDocsOf({ tenantId: seller.tenantId, epoch: 1, now: new Date() }, ledger[entity]);
    if (docs.length > 0)
      await db.collection(ledgerCollections[entity]).insertMany(docs.map((d) => d.doc) as never);
  }
  const metrics = await scanSellerMetrics(db, {
    sellerId: seller.sellerId,
    exclusions: { customerIds: [], productIds: [] },
    asOf: receivablesAsOf,
    retention: 'AUTO',
  });
  await storeMetrics(
    db,
    { ...seller, asOf: receivablesAsOf, generation: `example-${seller.sellerId}` },
    metrics,
  );
};

/** A seller of tenant A with the small ledger and its metrics stored. */
export const sellerWithReceivables = async (cast: Cast): Promise<number> => {
  const sellerId = await sellerOfA(cast);
  await storeLedgerAndMetrics(
    cast.world.services.db,
    { sellerId, tenantId: cast.a.tenantId },
    smallLedger(sellerId),
  );
  return sellerId;
};

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/sellers/:sellerId/customers',
    access: 'member',
    happy: async (cast) => ({
      url: `/api/sellers/${await sellerWithReceivables(cast)}/customers?page=1&pageSize=2&sort=overdue&order=desc&search=a`,
    }),
    badInput: async (cast) => ({
      url: `/api/sellers/${await sellerOfA(cast)}/customers?page=0&sort=shoeSize`,
    }),
  },
  {
    method: 'GET',
    route: '/api/sellers/:sellerId/aging',
    access: 'member',
    happy: async (cast) => ({
      url: `/api/sellers/${await sellerWithReceivables(cast)}/aging?asOf=2024-01-31`,
    }),
    badInput: async (cast) => ({ url: `/api/sellers/${await sellerOfA(cast)}/aging?asOf=yesterday` }),
  },
  {
    method: 'GET',
    route: '/api/assets/:id',
    access: 'member',
    happy: async (cast) => ({
      url: `/api/assets/1?sellerId=${await sellerWithReceivables(cast)}&startDate=2024-01-01&endDate=2024-03-31`,
    }),
    badInput: async (cast) => ({ url: `/api/assets/1?sellerId=${await sellerOfA(cast)}&startDate=soon` }),
  },
];
