import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { recomputeSeller } from './analytics-recompute';
import { dayOf } from './ledger-facts-consumer';
import {
  ANALYTICS_FACTS,
  applyFacts,
  compactSellerFacts,
  countFacts,
  ensureAnalyticsIndexes,
  forgetAnalyticsIndexes,
  LEGACY_ANALYTICS_FACTS,
  factIdOf,
  providerIdOf,
  querySellerAnalytics,
  readSellerFacts,
  sellerFactVersions,
  sellerFacts,
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

const stored = () => sellerFactVersions(store.db, 5);
const groupsOf = (sellerId: number) => store.db.collection(ANALYTICS_FACTS).countDocuments({ sellerId });

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

  it('resolve a batch delivered again, cut at other offsets, or late from a consumer that lost the partition', async () => {
    const other = (providerId: string, offset: number, amount: number) => ({
      ...invoice({ epoch: 2, offset, amount }),
      _id: factIdOf('invoices', 6, providerId),
      sellerId: 6,
    });
    const batch = [other('A', 10, 1), other('B', 11, 2), other('C', 12, 3), other('D', 13, 4)];
    await applyFacts(store.db, batch);
    // The same batch again (a redelivery after a kill) is the same group, skipped.
    await applyFacts(store.db, batch);
    expect(await groupsOf(6)).toBe(1);
    // A redelivery cut at other offsets overlaps the first group; a newer version of B follows; a
    // consumer that lost the partition writes its old, shorter batch late.
    await applyFacts(store.db, [other('C', 12, 3), other('D', 13, 4), other('B', 14, 20)]);
    await applyFacts(store.db, [other('A', 10, 1), other('B', 11, 2)]);
    const facts = await sellerFacts(store.db, 6);
    expect(
      facts.map((fact) => [providerIdOf(fact), fact.offset, 'amount' in fact ? fact.amount : null]).sort(),
    ).toEqual([
      ['A', 10, 1],
      ['B', 14, 20],
      ['C', 12, 3],
      ['D', 13, 4],
    ]);
    expect(await groupsOf(6)).toBe(3);
    // A tombstone removes its record from the facts, and an older version arriving after it does not
    // bring it back.
    await applyFacts(store.db, [{ ...other('C', 15, 3), deleted: true }]);
    await applyFacts(store.db, [other('C', 12, 3)]);
    expect((await sellerFacts(store.db, 6)).map(providerIdOf).sort()).toEqual(['A', 'B', 'D']);
    // The recompute folds the repeats into one group per entity, the tombstone kept.
    await recomputeSeller(store.db, 6, new Date());
    expect(await groupsOf(6)).toBe(1);
    expect(
      (await sellerFactVersions(store.db, 6)).map((f) => [providerIdOf(f), f.deleted ?? false]).sort(),
    ).toEqual([
      ['A', false],
      ['B', false],
      ['C', true],
      ['D', false],
    ]);
    await applyFacts(store.db, [other('C', 12, 3)]);
    expect((await sellerFacts(store.db, 6)).map(providerIdOf).sort()).toEqual(['A', 'B', 'D']);
    const [month] = await querySellerAnalytics(store.db, { sellerId: 6, frequency: 'MONTHLY' });
    expect(month).toMatchObject({ revenue: 1 + 20 + 4, invoices: 3 });
  });

  it("count only the seller's newest epoch, and drop the older epochs' facts on recompute", async () => {
    await applyFacts(store.db, [invoice({ epoch: 1, offset: 5, amount: 700, providerId: 'OLD' })]);
    await recomputeSeller(store.db, 5, new Date());
    const [month] = await querySellerAnalytics(store.db, { sellerId: 5, frequency: 'MONTHLY' });
    expect(month).toMatchObject({ startDate: '2024-01-01', revenue: 300, invoices: 1 });
    expect((await stored()).map(providerIdOf)).toEqual(['I1']);
    expect(await groupsOf(5)).toBe(1);
  });

  it('count records and stored versions apart', async () => {
    const counted = await countFacts(store.db);
    // Seller 5: I1; seller 6: A, B, C (its tombstone) and D, plus the late C of epoch 2 at offset 12.
    expect(counted).toEqual({ records: 5, versions: 6 });
  });

  it('move facts stored one document per record into groups on start', async () => {
    const legacy = await openReadStore({ DATA_DIR: mkdtempSync(join(tmpdir(), 'lw-analytics-legacy-')) });
    try {
      await legacy.db.collection<FactDoc>(LEGACY_ANALYTICS_FACTS).insertMany([
        {
          ...invoice({ epoch: 1, offset: 1, amount: 10, providerId: 'X' }),
          sellerId: 9,
          _id: 'invoices:9:X',
        },
        {
          ...invoice({ epoch: 1, offset: 2, amount: 20, providerId: 'Y' }),
          sellerId: 9,
          _id: 'invoices:9:Y',
        },
      ]);
      forgetAnalyticsIndexes();
      await ensureAnalyticsIndexes(legacy.db);
      expect(
        (await sellerFacts(legacy.db, 9)).map((f) => [providerIdOf(f), 'amount' in f ? f.amount : 0]),
      ).toEqual([
        ['X', 10],
        ['Y', 20],
      ]);
      expect(await legacy.db.listCollections({ name: LEGACY_ANALYTICS_FACTS }).toArray()).toEqual([]);
    } finally {
      await legacy.close();
    }
  });

  it("read a JSON date's UTC day from its digits, as Date would", () => {
    const DAY_MS = 86_400_000;
    for (let time = Date.UTC(1969, 11, 1); time < Date.UTC(2101, 0, 1); time += 7 * DAY_MS + 3_600_123) {
      const iso = new Date(time).toISOString();
      expect([iso, dayOf(iso)]).toEqual([iso, Math.floor(time / DAY_MS)]);
    }
    // Other spellings go through Date.
    expect(dayOf('2024-03-01T23:30:00-05:00')).toBe(Math.floor(Date.UTC(2024, 2, 2, 4, 30) / DAY_MS));
    expect(dayOf('2024-03-01')).toBe(Math.floor(Date.UTC(2024, 2, 1) / DAY_MS));
  });

  it('leave a group written while they compact, and lose nothing to a compaction killed half-way', async () => {
    const of7 = (providerId: string, offset: number, amount: number) => ({
      ...invoice({ epoch: 1, offset, amount }),
      _id: factIdOf('invoices', 7, providerId),
      sellerId: 7,
    });
    for (let offset = 0; offset < 40; offset += 2)
      await applyFacts(store.db, [of7(`K${offset}`, offset, 1), of7(`K${offset}`, offset + 1, 2)]);
    const read = await readSellerFacts(store.db, 7);
    // A consumer writes a newer version of K0 between the compaction's read and its delete.
    await applyFacts(store.db, [of7('K0', 100, 50)]);
    expect(await compactSellerFacts(store.db, { read, epoch: 1 })).toBe(true);
    expect(await groupsOf(7)).toBe(2);
    const amounts = new Map(
      (await sellerFacts(store.db, 7)).map((f) => [providerIdOf(f), 'amount' in f ? f.amount : 0]),
    );
    expect(amounts.size).toBe(20);
    expect(amounts.get('K0')).toBe(50);
    expect(amounts.get('K2')).toBe(2);
    // Compacted again from a read taken before the first compaction (a second process, or a killed
    // compaction run again): repeats at worst, never a lost or an older version.
    await compactSellerFacts(store.db, { read, epoch: 1 });
    const again = new Map(
      (await sellerFacts(store.db, 7)).map((f) => [providerIdOf(f), 'amount' in f ? f.amount : 0]),
    );
    expect(again).toEqual(amounts);
  });
});
