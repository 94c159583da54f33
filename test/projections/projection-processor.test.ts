import type { RecordedEvent } from '../../contracts/events/envelope';
import type { EventStore, ReadAllOptions } from '../../commands/event-store/event-store';
import { auditHistoryProjection } from '../../projections/audit-history/audit-history-projection';
import { defineProjection } from '../../projections/framework/projection';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { ensurePointer, loadCheckpoint } from '../../projections/framework/read-model-versions';
import { projectionPositions } from '../../projections/framework/read-your-writes';
import { appendWorkload } from './audit-workload';
import { useProjectionTestSetup } from './projection-test-setup';
import { versionChecksums } from './read-model-checksum';

const { context, openStore } = useProjectionTestSetup(__filename);
const projection = auditHistoryProjection;

/** A store that hands every event over twice, as an at-least-once transport may. */
const deliveringTwice = (store: EventStore): EventStore =>
  Object.assign(Object.create(store) as EventStore, {
    readAll: async (options?: ReadAllOptions): Promise<RecordedEvent[]> =>
      (await store.readAll(options)).flatMap((event) => [event, event]),
  });

/** Builds `version` of the audit history from scratch in one go: the reference to compare with. */
const buildFromScratch = async (store: EventStore, version: number) => {
  const { db, decode } = context;
  await new ProjectionProcessor({ db, store, decode, projection, version }).catchUp();
  return versionChecksums(db, projection, version);
};

describe('the projection processor', () => {
  it('ends in the same read model when every event is delivered twice', async () => {
    const store = openStore();
    await appendWorkload(store, context.keys, { events: 600, label: 'twice' });
    const { db, decode } = context;
    const reference = await buildFromScratch(store, 101);

    await new ProjectionProcessor({
      db,
      store: deliveringTwice(store),
      decode,
      projection,
      version: 102,
      batchSize: 64,
    }).catchUp();

    expect(await versionChecksums(db, projection, 102)).toEqual(reference);
    expect(reference.rows?.count).toBe(600);
    expect(reference.emails?.count).toBeGreaterThan(0);
  });

  it('ends in the same read model as a from-scratch build after a crash between writes and checkpoint', async () => {
    const store = openStore();
    await appendWorkload(store, context.keys, { events: 500, label: 'crash' });
    const { db, decode } = context;
    const reference = await buildFromScratch(store, 201);

    // Crash after the writes of the third batch, before its checkpoint is saved.
    let batches = 0;
    const crashing = new ProjectionProcessor({
      db,
      store,
      decode,
      projection,
      version: 202,
      batchSize: 70,
      beforeCheckpoint: () => {
        batches += 1;
        return batches === 3 ? Promise.reject(new Error('killed')) : Promise.resolve();
      },
    });
    await expect(crashing.catchUp()).rejects.toThrow('killed');
    expect(await loadCheckpoint(db, projection.name, 202)).toBe(
      (await store.readAll({ maxCount: 140 })).at(-1)?.position,
    );

    // Restart with other batch bounds, so the first batch after the checkpoint is half written.
    await new ProjectionProcessor({ db, store, decode, projection, version: 202, batchSize: 100 }).catchUp();

    expect(await versionChecksums(db, projection, 202)).toEqual(reference);
  });

  it('replays the whole history over a finished read model without changing it', async () => {
    const store = openStore();
    await appendWorkload(store, context.keys, { events: 300, label: 'replay' });
    const { db, decode } = context;
    const reference = await buildFromScratch(store, 301);

    await db.collection('projection_checkpoints').deleteOne({ _id: `${projection.name}@301` as never });
    await new ProjectionProcessor({ db, store, decode, projection, version: 301, batchSize: 45 }).catchUp();

    expect(await versionChecksums(db, projection, 301)).toEqual(reference);
  });

  it('follows new events live, and read-your-writes waits until their position is processed', async () => {
    const store = openStore();
    const { db, decode } = context;
    await appendWorkload(store, context.keys, { events: 50, label: 'live' });
    // Pinned to its own version and pointed to by the pointer, as a live processor's would be.
    await ensurePointer(db, projection.name);
    const live = new ProjectionProcessor({ db, store, decode, projection });
    live.start();
    try {
      const positions = projectionPositions(db);
      const position = await appendWorkload(store, context.keys, {
        events: 30,
        label: 'live',
        firstIndex: 50,
      });

      const waited = await positions.waitForPosition(projection.name, position, 30_000);

      expect(waited).toEqual({ reached: true, position: expect.any(Number) as number });
      expect(waited.position).toBeGreaterThanOrEqual(position);
      expect(live.status()).toMatchObject({ running: true, lastError: null });
    } finally {
      await live.stop();
    }
    expect(live.status().running).toBe(false);
  });

  it('moves a filtered read model past events it does not read, so waits for them end', async () => {
    const store = openStore();
    const { db } = context;
    const usersOnly = defineProjection<'rows'>({
      name: 'users-only',
      collections: { rows: 'users_only' },
      filter: { categories: ['user'] },
      project: (event) => [{ kind: 'insert', collection: 'rows', id: event.id, doc: { type: event.type } }],
    });
    const live = new ProjectionProcessor({ db, store, projection: usersOnly });
    live.start();
    try {
      // The workload's last events are tenant and seller events, which this read model skips.
      const position = await appendWorkload(store, context.keys, { events: 40, label: 'filtered' });

      const waited = await projectionPositions(db).waitForPosition(usersOnly.name, position, 30_000);

      expect(waited.reached).toBe(true);
      const rows = await db.collection('users_only_v1').find().toArray();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => String(row.type).startsWith('User'))).toBe(true);
    } finally {
      await live.stop();
    }
  });

  it('with a wake spacing, projects events that stream in a few milliseconds apart in batches of several', async () => {
    const store = openStore();
    const { db, decode } = context;
    const everyEvent = defineProjection<'rows'>({
      name: 'streamed-in',
      collections: { rows: 'streamed_in' },
      project: (event) => [{ kind: 'insert', collection: 'rows', id: event.id, doc: { type: event.type } }],
    });
    const batchSizes: number[] = [];
    const live = new ProjectionProcessor({
      db,
      store,
      decode,
      projection: everyEvent,
      wakeSpacingMs: 20,
      beforeCheckpoint: (events) => {
        batchSizes.push(events.length);
        return Promise.resolve();
      },
    });
    live.start();
    try {
      // Forty appends of one event, 2 ms apart: a scheduled send's pace (hundreds of appends a second).
      let position = -1;
      for (let index = 0; index < 40; index += 1) {
        position = await appendWorkload(store, context.keys, {
          events: 1,
          label: 'paced',
          firstIndex: index,
        });
        await new Promise((resolve) => setTimeout(resolve, 2));
      }

      expect(await projectionPositions(db).waitForPosition(everyEvent.name, position, 30_000)).toMatchObject({
        reached: true,
      });
      expect(batchSizes.reduce((sum, size) => sum + size, 0)).toBe(40);
      // Woken once per append, the processor would have written 40 batches of one event.
      expect(batchSizes.length).toBeLessThan(20);
    } finally {
      await live.stop();
    }
  });

  it('answers a wait it cannot satisfy with reached: false instead of failing', async () => {
    const { db } = context;
    const positions = projectionPositions(db);
    const current = await positions.position(projection.name);

    const waited = await positions.waitForPosition(projection.name, current + 1_000_000, 100);

    expect(waited).toEqual({ reached: false, position: current });
  });
});
