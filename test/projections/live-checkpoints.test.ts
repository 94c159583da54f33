import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../commands/event-store/event-store';
import { auditHistoryProjection } from '../../projections/audit-history/audit-history-projection';
import { CHECKPOINT_SAVE_MS } from '../../projections/framework/checkpoint-batch';
import { defineProjection } from '../../projections/framework/projection';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { loadCheckpoint } from '../../projections/framework/read-model-versions';
import { projectionPositions } from '../../projections/framework/read-your-writes';
import { appendWorkload } from './audit-workload';
import { useProjectionTestSetup } from './projection-test-setup';

/**
 * Live projectors of one process share one event subscription and save their checkpoints together
 * (docs/adr/0052): waits in the process end as soon as the writes are done, the saved checkpoint
 * follows within CHECKPOINT_SAVE_MS, and a projector whose filter skips an event does no reading for it.
 */
const { context, openStore } = useProjectionTestSetup(__filename);

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the saved checkpoint (what other processes read) until it reaches `position`; the time taken. */
const savedWithin = async (name: string, position: number, limitMs: number): Promise<number> => {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if ((await loadCheckpoint(context.db, name, 1)) >= position) return performance.now() - started;
    await later(5);
  }
  return Number.POSITIVE_INFINITY;
};

/** The store, counting the batch reads (readAll) projectors make. */
const countingReads = (store: EventStore) => {
  const counter = { reads: 0 };
  const counted = new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property !== 'readAll') return method.bind(target);
      return (...args: unknown[]) => {
        counter.reads += 1;
        return method.apply(target, args);
      };
    },
  });
  return { store: counted, counter };
};

const tenantEvent = (tenantId: number) => ({
  id: randomUUID(),
  type: 'TenantRenamed',
  schemaVersion: 1,
  data: { TenantId: tenantId, Name: `Renamed ${tenantId}` },
  metadata: {
    tenantId,
    actor: 'system:test',
    ip: null,
    method: null,
    url: null,
    body: null,
    requestId: null,
    correlationId: randomUUID(),
    causationId: null,
    time: new Date().toISOString(),
  },
});

describe('live projectors', () => {
  it('save their checkpoint soon after a wait in the process ended, and the last one at stop', async () => {
    const store = openStore();
    const { db, decode } = context;
    const live = new ProjectionProcessor({ db, store, decode, projection: auditHistoryProjection });
    live.start();
    let stopped = false;
    try {
      const positions = projectionPositions(db);
      const first = await appendWorkload(store, context.keys, { events: 30, label: 'saved' });
      expect((await positions.waitForPosition(auditHistoryProjection.name, first, 30_000)).reached).toBe(
        true,
      );
      // Another process reads the saved checkpoint: it follows within the save delay (plus a busy machine).
      expect(await savedWithin(auditHistoryProjection.name, first, 5_000)).toBeLessThan(
        CHECKPOINT_SAVE_MS + 2_000,
      );

      const second = await appendWorkload(store, context.keys, { events: 5, label: 'saved', firstIndex: 30 });
      expect((await positions.waitForPosition(auditHistoryProjection.name, second, 30_000)).reached).toBe(
        true,
      );
      await live.stop();
      stopped = true;
      // No waiting here: stop resolves only once every announced position is saved.
      expect(await loadCheckpoint(db, auditHistoryProjection.name, 1)).toBeGreaterThanOrEqual(second);
    } finally {
      if (!stopped) await live.stop();
    }
  });

  it('move a filtered read model past events it does not read without reading them', async () => {
    const { store, counter } = countingReads(openStore());
    const { db } = context;
    const usersOnly = defineProjection<'rows'>({
      name: 'users-only-live',
      collections: { rows: 'users_only_live' },
      filter: { categories: ['user'] },
      project: (event) => [{ kind: 'insert', collection: 'rows', id: event.id, doc: { type: event.type } }],
    });
    const live = new ProjectionProcessor({ db, store, projection: usersOnly });
    live.start();
    try {
      const positions = projectionPositions(db);
      const before = await store.append('tenant-71', [tenantEvent(71)], { kind: 'any' });
      expect((await positions.waitForPosition(usersOnly.name, before.position, 30_000)).reached).toBe(true);
      await later(50); // the start-up catch-up and the first wake are over
      const readsBefore = counter.reads;

      let position = before.position;
      for (let i = 0; i < 20; i += 1) {
        position = (await store.append('tenant-71', [tenantEvent(71)], { kind: 'any' })).position;
        expect((await positions.waitForPosition(usersOnly.name, position, 30_000)).reached).toBe(true);
      }

      expect(counter.reads).toBe(readsBefore);
      expect(await db.collection('users_only_live_v1').countDocuments()).toBe(0);
      expect(await savedWithin(usersOnly.name, position, 5_000)).toBeLessThan(Number.POSITIVE_INFINITY);

      // An event it does read is read and written as before.
      const userEvent = { ...tenantEvent(71), type: 'UserRenamed' };
      const user = await store.append('user-9', [userEvent], { kind: 'any' });
      expect((await positions.waitForPosition(usersOnly.name, user.position, 30_000)).reached).toBe(true);
      expect(counter.reads).toBeGreaterThan(readsBefore);
      expect(await db.collection('users_only_live_v1').find().toArray()).toEqual([
        expect.objectContaining({ _id: userEvent.id, type: 'UserRenamed' }),
      ]);
    } finally {
      await live.stop();
    }
  });
  it('are not woken for events their filter skips: the checkpoint moves while they wait', async () => {
    const store = openStore();
    const { db } = context;
    const usersOnly = defineProjection<'rows'>({
      name: 'users-only-asleep',
      collections: { rows: 'users_only_asleep' },
      filter: { categories: ['user'] },
      project: (event) => [{ kind: 'insert', collection: 'rows', id: event.id, doc: { type: event.type } }],
    });
    const live = new ProjectionProcessor({ db, store, projection: usersOnly });
    const batches = jest.spyOn(
      live as unknown as { processNextBatch: () => Promise<unknown> },
      'processNextBatch',
    );
    live.start();
    try {
      const positions = projectionPositions(db);
      const before = await store.append('tenant-72', [tenantEvent(72)], { kind: 'any' });
      expect((await positions.waitForPosition(usersOnly.name, before.position, 30_000)).reached).toBe(true);
      await later(50);
      const batchesBefore = batches.mock.calls.length;

      let position = before.position;
      for (let i = 0; i < 20; i += 1) {
        position = (await store.append('tenant-72', [tenantEvent(72)], { kind: 'any' })).position;
        expect((await positions.waitForPosition(usersOnly.name, position, 30_000)).reached).toBe(true);
      }

      // Woken at most when its copy of the version pointer expired (a second), not once per event.
      expect(batches.mock.calls.length - batchesBefore).toBeLessThanOrEqual(2);
      expect(await savedWithin(usersOnly.name, position, 5_000)).toBeLessThan(Number.POSITIVE_INFINITY);

      // An event it reads wakes it and is written.
      const userEvent = { ...tenantEvent(72), type: 'UserRenamed' };
      const user = await store.append('user-72', [userEvent], { kind: 'any' });
      expect((await positions.waitForPosition(usersOnly.name, user.position, 30_000)).reached).toBe(true);
      expect(await db.collection('users_only_asleep_v1').find().toArray()).toEqual([
        expect.objectContaining({ _id: userEvent.id, type: 'UserRenamed' }),
      ]);
    } finally {
      await live.stop();
    }
  });
  it('read the appends of one turn of the event loop as one batch, however many callbacks made them', async () => {
    const { store, counter } = countingReads(openStore());
    const { db } = context;
    const usersRows = defineProjection<'rows'>({
      name: 'users-turn-live',
      collections: { rows: 'users_turn_live' },
      filter: { categories: ['user'] },
      project: (event) => [{ kind: 'insert', collection: 'rows', id: event.id, doc: { type: event.type } }],
    });
    const live = new ProjectionProcessor({ db, store, projection: usersRows });
    live.start();
    try {
      const positions = projectionPositions(db);
      const first = await store.append('user-71', [{ ...tenantEvent(71), type: 'UserRenamed' }], {
        kind: 'any',
      });
      expect((await positions.waitForPosition(usersRows.name, first.position, 30_000)).reached).toBe(true);
      await later(50);
      const readsBefore = counter.reads;

      // Ten callbacks of one turn, as ten requests arriving together would be: each appends in its
      // own callback, and the projector still reads them together (docs/adr/0054). Immediates queued
      // together run in one check phase whatever the load; ten zero-delay timers may not (a timer
      // created a millisecond later can fall to the next turn, as one did in a loaded CI run).
      const appended = await Promise.all(
        Array.from(
          { length: 10 },
          () =>
            new Promise<number>((resolve, reject) => {
              setImmediate(() => {
                store
                  .append('user-71', [{ ...tenantEvent(71), type: 'UserRenamed' }], { kind: 'any' })
                  .then((result) => resolve(result.position), reject);
              });
            }),
        ),
      );
      const last = Math.max(...appended);
      expect((await positions.waitForPosition(usersRows.name, last, 30_000)).reached).toBe(true);

      expect(counter.reads - readsBefore).toBe(1);
      expect(await db.collection('users_turn_live_v1').countDocuments()).toBe(11);
    } finally {
      await live.stop();
    }
  });
});
