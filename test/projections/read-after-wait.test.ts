import type { Db } from 'mongodb';
import { auditHistoryProjection } from '../../projections/audit-history/audit-history-projection';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { PROJECTION_CHECKPOINTS, checkpointId } from '../../projections/framework/read-model-versions';
import { projectionPositions } from '../../projections/framework/read-your-writes';
import { appendWorkload } from './audit-workload';
import { useProjectionTestSetup } from './projection-test-setup';

const { context, openStore } = useProjectionTestSetup(__filename);

/**
 * The file's read store seen through a counter of checkpoint reads (find and findOne on the
 * checkpoints collection), whichever store the suite runs on.
 */
let checkpointReads = 0;
const watchedDb = (): Db =>
  new Proxy(context.db, {
    get(target, property, receiver) {
      if (property !== 'collection') return Reflect.get(target, property, receiver) as unknown;
      return (name: string) => {
        const collection = target.collection(name);
        if (name !== PROJECTION_CHECKPOINTS) return collection;
        return new Proxy(collection, {
          get(inner, method, innerReceiver) {
            const value = Reflect.get(inner, method, innerReceiver) as unknown;
            if ((method !== 'find' && method !== 'findOne') || typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              checkpointReads += 1;
              return (value as (...a: unknown[]) => unknown).apply(inner, args);
            };
          },
        });
      };
    },
  });
const watched = { db: watchedDb };

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('read-your-writes waits', () => {
  it('end on the checkpoint of a projector in this process, reading Mongo once', async () => {
    const store = openStore();
    const live = new ProjectionProcessor({
      db: context.db,
      store,
      decode: context.decode,
      projection: auditHistoryProjection,
    });
    live.start();
    try {
      const target = (await store.headPosition()) + 1;
      checkpointReads = 0;
      const waiting = projectionPositions(watched.db()).waitForPosition(
        auditHistoryProjection.name,
        target,
        30_000,
      );
      // The write arrives a while after the query began waiting: a polling wait would ask again and again.
      await later(300);
      await appendWorkload(store, context.keys, { events: 20, label: 'in-process' });

      const waited = await waiting;

      expect(waited.reached).toBe(true);
      expect(waited.position).toBeGreaterThanOrEqual(target);
      expect(checkpointReads).toBe(1);
    } finally {
      await live.stop();
    }
  });

  it('on a read model projected by another process share one watcher instead of each polling', async () => {
    const name = 'projected-elsewhere';
    const waiters = 50;
    checkpointReads = 0;
    const positions = projectionPositions(watched.db());
    const waiting = Promise.all(
      Array.from({ length: waiters }, () => positions.waitForPosition(name, 7, 30_000)),
    );
    await later(300);
    // Another process's projector saves its checkpoint: straight into Mongo, no signal here.
    await context.db
      .collection<{ _id: string }>(PROJECTION_CHECKPOINTS)
      .updateOne(
        { _id: checkpointId(name, 1) },
        { $set: { name, version: 1, position: 7, updatedAt: new Date() } },
        { upsert: true },
      );

    const waited = await waiting;

    expect(waited.every((wait) => wait.reached && wait.position === 7)).toBe(true);
    // One read per waiter to start, then one per watcher tick (20 ms or more) for all of them;
    // waits polling each on their own would read at least twice each.
    expect(checkpointReads).toBeLessThan(2 * waiters);
  });
});
