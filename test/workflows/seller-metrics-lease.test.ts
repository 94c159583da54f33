import type { Db } from 'mongodb';
import { leaseMs, withSellerMetricsLease } from '../../workflows/metrics/seller-metrics-lease';
import { useTestReadStore } from '../harness/test-read-store';

/** The per-seller metrics lease on the real FerretDB: one holder at a time, never stuck on a dead one. */
const readStore = useTestReadStore(__filename);
let db: Db;
beforeAll(() => {
  db = readStore.db();
});

const clock = { at: Date.parse('2024-06-30T12:00:00.000Z') };
const deps = () => ({ db, now: () => new Date(clock.at) });

describe('withSellerMetricsLease', () => {
  it('makes a second holder of the same seller wait until the first is done; other sellers do not wait', async () => {
    const order: string[] = [];
    let releaseFirst = () => {};
    const first = withSellerMetricsLease(deps(), { sellerId: 1, holder: 'first' }, async () => {
      order.push('first in');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      order.push('first out');
    });
    while (order.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    let waits = 0;
    const second = withSellerMetricsLease(
      deps(),
      { sellerId: 1, holder: 'second', onWait: () => void (waits += 1) },
      () => Promise.resolve(void order.push('second in')),
    );
    await withSellerMetricsLease(deps(), { sellerId: 2, holder: 'other seller' }, () =>
      Promise.resolve(void order.push('other seller in')),
    );
    await new Promise((resolve) => setTimeout(resolve, 1200));
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'other seller in', 'first out', 'second in']);
    expect(waits).toBeGreaterThan(0);
  });

  it('lets the same run take its lease back at once, and another run take a lease whose holder died', async () => {
    // A holder that died: its lease is left behind, never released.
    await db.collection('metric_leases').insertOne({
      _id: 3 as never,
      holder: 'crashed',
      expiresAt: new Date(clock.at + leaseMs),
    });
    const retried = await withSellerMetricsLease(deps(), { sellerId: 3, holder: 'crashed' }, () =>
      Promise.resolve('again'),
    );
    expect(retried).toBe('again');

    await db.collection('metric_leases').insertOne({
      _id: 4 as never,
      holder: 'crashed',
      expiresAt: new Date(clock.at + leaseMs),
    });
    clock.at += leaseMs + 1;
    const took = await withSellerMetricsLease(deps(), { sellerId: 4, holder: 'next' }, () =>
      Promise.resolve('taken'),
    );
    expect(took).toBe('taken');
    expect(await db.collection('metric_leases').countDocuments()).toBe(0);
  });
});
