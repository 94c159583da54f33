import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { recomputeSeller } from './analytics-recompute';
import {
  ANALYTICS_FACTS,
  applyFacts,
  factIdOf,
  providerIdOf,
  querySellerAnalytics,
  type FactDoc,
} from '../../projections/analytics/analytics-store';

let store: ReadStore;
beforeAll(async () => {
  store = await openReadStore({ DATA_DIR: mkdtempSync(join(tmpdir(), 'lw-analytics-store-')) });
});
afterAll(() => store.close());

const invoice = (version: {
  epoch: number;
  offset: number;
  amount: number;
  providerId?: string;
}): FactDoc => {
  const providerId = version.providerId ?? 'I1';
  return {
    _id: factIdOf('invoices', 5, providerId),
    sellerId: 5,
    epoch: version.epoch,
    offset: version.offset,
    entity: 'invoices',
    customerId: 1,
    day: 19_723, // 2024-01-01
    dueDay: 19_753,
    amount: version.amount,
    balance: 0,
  };
};

const stored = () => store.db.collection<FactDoc>(ANALYTICS_FACTS).find({ sellerId: 5 }).toArray();

describe('the analytics facts', () => {
  it('keep the newest version of a record whatever the order and repeats they arrive in', async () => {
    await applyFacts(store.db, [invoice({ epoch: 1, offset: 10, amount: 100 })]);
    await applyFacts(store.db, [invoice({ epoch: 1, offset: 20, amount: 200 })]);
    // A late, older version (a consumer that lost the partition) and a repeat change nothing.
    await applyFacts(store.db, [invoice({ epoch: 1, offset: 10, amount: 100 })]);
    await applyFacts(store.db, [invoice({ epoch: 1, offset: 20, amount: 200 })]);
    expect((await stored()).map((fact) => [fact.offset, 'amount' in fact ? fact.amount : null])).toEqual([
      [20, 200],
    ]);
    // A repopulate's epoch wins even at a lower offset; the old epoch cannot come back.
    await applyFacts(store.db, [invoice({ epoch: 2, offset: 3, amount: 300 })]);
    await applyFacts(store.db, [invoice({ epoch: 1, offset: 99, amount: 999 })]);
    expect((await stored()).map((fact) => [fact.epoch, 'amount' in fact ? fact.amount : null])).toEqual([
      [2, 300],
    ]);
  });

  it('sort out stored keys inside a batch of new records (inserted whole, duplicates retried)', async () => {
    const other = (providerId: string, offset: number, amount: number) => ({
      ...invoice({ epoch: 2, offset, amount }),
      _id: factIdOf('invoices', 6, providerId),
      sellerId: 6,
    });
    await applyFacts(store.db, [other('B', 50, 500), other('C', 5, 50)]);
    // First and last keys are new, so the batch is inserted whole: B's stored newer version stays,
    // C's older one is replaced, A and D are added.
    await applyFacts(store.db, [other('A', 10, 1), other('B', 10, 2), other('C', 10, 3), other('D', 10, 4)]);
    const facts = await store.db.collection<FactDoc>(ANALYTICS_FACTS).find({ sellerId: 6 }).toArray();
    expect(
      facts.map((fact) => [providerIdOf(fact), fact.offset, 'amount' in fact ? fact.amount : null]).sort(),
    ).toEqual([
      ['A', 10, 1],
      ['B', 50, 500],
      ['C', 10, 3],
      ['D', 10, 4],
    ]);
  });

  it("count only the seller's newest epoch, and drop the older epochs' facts on recompute", async () => {
    await applyFacts(store.db, [invoice({ epoch: 1, offset: 5, amount: 700, providerId: 'OLD' })]);
    await recomputeSeller(store.db, 5, new Date());
    const [month] = await querySellerAnalytics(store.db, { sellerId: 5, frequency: 'MONTHLY' });
    expect(month).toMatchObject({ startDate: '2024-01-01', revenue: 300, invoices: 1 });
    expect((await stored()).map(providerIdOf)).toEqual(['I1']);
  });
});
