import { randomUUID } from 'node:crypto';
import type { EventMetadata, RecordedEvent } from '../../contracts/events/envelope';
import {
  WrongExpectedRevisionError,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
} from './event-store';

/**
 * The one contract every event-store adapter passes (architecture.md, write side). Tests never assume
 * an empty store: each uses its own stream category, so the suite also runs against a shared
 * EventStoreDB server.
 */

const metadata: EventMetadata = {
  tenantId: 7,
  actor: 'user:3',
  ip: '203.0.113.9',
  method: 'POST',
  url: '/api/sellers',
  body: { name: 'Acme' },
  requestId: 'req-1',
  correlationId: 'corr-1',
  causationId: null,
  time: '2026-03-01T10:00:00.000Z',
};

export const anEvent = (type = 'ThingHappened', data: unknown = { n: 1 }): EventToAppend => ({
  id: randomUUID(),
  type,
  schemaVersion: 1,
  data,
  metadata,
});

export const events = (count: number, type = 'ThingHappened'): EventToAppend[] =>
  Array.from({ length: count }, (_, n) => anEvent(type, { n }));

/** A category no other test uses (letters and digits only: the category ends at the first dash). */
export const uniqueCategory = (): string => `c${randomUUID().replace(/-/g, '').slice(0, 16)}`;

/** Waits until `check` passes; the deadline only stops a broken store from hanging the run. */
export const eventually = async (check: () => void, deadlineMs = 15_000): Promise<void> => {
  const started = Date.now();
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() - started > deadlineMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
};

const conflictOf = async (attempt: Promise<unknown>): Promise<WrongExpectedRevisionError> => {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof WrongExpectedRevisionError)) {
    throw new Error(
      `Expected a WrongExpectedRevisionError, got ${error instanceof Error ? error.message : 'success'}`,
    );
  }
  return error;
};

const idsOf = (recorded: readonly { id: string }[]): string[] => recorded.map((e) => e.id);

export const describeEventStoreContract = (name: string, open: () => Promise<EventStore>): void => {
  describe(`${name}: event store contract`, () => {
    let store: EventStore;
    let category: string;
    let stream: string;

    beforeEach(async () => {
      store = await open();
      category = uniqueCategory();
      stream = `${category}-1`;
    });

    afterEach(async () => {
      await store.close();
    });

    describe('append and read back', () => {
      it('stores every field of the envelope and numbers revisions from 0', async () => {
        const appended = [
          anEvent('SellerConnected', { sellerId: 12, name: 'Acme' }),
          anEvent('SellerRenamed', { name: 'B' }),
        ];
        const result = await store.append(stream, appended, { kind: 'no_stream' });

        const read = await store.readStream(stream);
        expect(
          read.map(({ id, streamId, revision, type, schemaVersion, data, metadata: m }) => ({
            id,
            streamId,
            revision,
            type,
            schemaVersion,
            data,
            metadata: m,
          })),
        ).toEqual([
          {
            id: appended[0]?.id,
            streamId: stream,
            revision: 0,
            type: 'SellerConnected',
            schemaVersion: 1,
            data: { sellerId: 12, name: 'Acme' },
            metadata,
          },
          {
            id: appended[1]?.id,
            streamId: stream,
            revision: 1,
            type: 'SellerRenamed',
            schemaVersion: 1,
            data: { name: 'B' },
            metadata,
          },
        ]);
        const { positions, ...last } = result;
        expect(last).toEqual({ nextRevision: 1, position: read[1]?.position });
        // Optional: a store that gives each event's position gives the ones it recorded.
        if (positions) expect(positions).toEqual(read.map((event) => event.position));
        expect(Number.isNaN(Date.parse(read[0]?.recordedAt ?? ''))).toBe(false);
      });

      it('reads an unknown stream as empty', async () => {
        await expect(store.readStream(`${category}-missing`)).resolves.toEqual([]);
        await expect(store.readStream(`${category}-missing`, { direction: 'backwards' })).resolves.toEqual(
          [],
        );
      });

      it('keeps the schema version of each event', async () => {
        await store.append(stream, [{ ...anEvent('SellerConnected'), schemaVersion: 3 }], { kind: 'any' });
        const [read] = await store.readStream(stream);
        expect(read?.schemaVersion).toBe(3);
      });

      it('refuses an empty append', async () => {
        await expect(store.append(stream, [], { kind: 'any' })).rejects.toThrow('at least one event');
      });
    });

    describe('expected revision', () => {
      it('no_stream: accepts a new stream and reports the existing revision otherwise', async () => {
        await store.append(stream, events(3), { kind: 'no_stream' });
        const conflict = await conflictOf(store.append(stream, events(1), { kind: 'no_stream' }));
        expect(conflict).toMatchObject({ streamId: stream, expected: { kind: 'no_stream' }, actual: 2 });
      });

      it('stream_exists: refuses a missing stream and accepts an existing one', async () => {
        const conflict = await conflictOf(store.append(stream, events(1), { kind: 'stream_exists' }));
        expect(conflict.actual).toBe('no_stream');
        await store.append(stream, events(1), { kind: 'no_stream' });
        await expect(store.append(stream, events(1), { kind: 'stream_exists' })).resolves.toMatchObject({
          nextRevision: 1,
        });
      });

      it('any: appends whether or not the stream exists', async () => {
        await expect(store.append(stream, events(2), { kind: 'any' })).resolves.toMatchObject({
          nextRevision: 1,
        });
        await expect(store.append(stream, events(1), { kind: 'any' })).resolves.toMatchObject({
          nextRevision: 2,
        });
      });

      it('exact: accepts the current revision and reports the actual one on a stale write', async () => {
        await store.append(stream, events(2), { kind: 'no_stream' });
        await expect(store.append(stream, events(1), { kind: 'exact', revision: 1 })).resolves.toMatchObject({
          nextRevision: 2,
        });
        const stale = await conflictOf(store.append(stream, events(1), { kind: 'exact', revision: 1 }));
        expect(stale.actual).toBe(2);
        const ahead = await conflictOf(store.append(stream, events(1), { kind: 'exact', revision: 5 }));
        expect(ahead.actual).toBe(2);
      });

      it('exact: refuses a stream that does not exist', async () => {
        const conflict = await conflictOf(store.append(stream, events(1), { kind: 'exact', revision: 0 }));
        expect(conflict.actual).toBe('no_stream');
      });

      it('a refused append writes nothing', async () => {
        const original = events(2);
        await store.append(stream, original, { kind: 'no_stream' });
        await conflictOf(store.append(stream, events(3), { kind: 'exact', revision: 0 }));
        await conflictOf(store.append(stream, events(3), { kind: 'no_stream' }));
        expect(idsOf(await store.readStream(stream))).toEqual(idsOf(original));
      });
    });

    describe('idempotent retry', () => {
      const kinds: ExpectedRevision[] = [{ kind: 'no_stream' }, { kind: 'any' }];
      it.each(kinds)(
        'a retried append with expected $kind appends nothing and answers the original result',
        async (expected) => {
          const batch = events(3);
          const first = await store.append(stream, batch, expected);
          const retry = await store.append(stream, batch, expected);
          expect(retry).toEqual(first);
          expect(idsOf(await store.readStream(stream))).toEqual(idsOf(batch));
        },
      );

      it('a retried exact append is recognised after other appends followed it', async () => {
        await store.append(stream, events(1), { kind: 'no_stream' });
        const batch = events(2);
        const first = await store.append(stream, batch, { kind: 'exact', revision: 0 });
        await store.append(stream, events(1), { kind: 'exact', revision: 2 });

        await expect(store.append(stream, batch, { kind: 'exact', revision: 0 })).resolves.toEqual(first);
        await expect(store.append(stream, batch, { kind: 'any' })).resolves.toEqual(first);
        await expect(store.append(stream, batch, { kind: 'stream_exists' })).resolves.toEqual(first);
        expect(await store.readStream(stream)).toHaveLength(4);
      });

      it('an append that repeats only part of an earlier one is a conflict and writes nothing', async () => {
        const batch = events(2);
        await store.append(stream, batch, { kind: 'no_stream' });
        const [firstOfBatch] = batch;
        if (!firstOfBatch) throw new Error('unreachable');
        const overlapping = [firstOfBatch, anEvent()];
        await conflictOf(store.append(stream, overlapping, { kind: 'no_stream' }));
        await conflictOf(store.append(stream, overlapping, { kind: 'any' }));
        expect(idsOf(await store.readStream(stream))).toEqual(idsOf(batch));
      });
    });

    describe('reading a stream', () => {
      let all: EventToAppend[];
      beforeEach(async () => {
        all = events(6);
        await store.append(stream, all, { kind: 'no_stream' });
      });

      it('reads forwards from a revision with a maximum count', async () => {
        const read = await store.readStream(stream, { fromRevision: 2, maxCount: 3 });
        expect(read.map((e) => e.revision)).toEqual([2, 3, 4]);
        expect(idsOf(read)).toEqual(idsOf(all.slice(2, 5)));
      });

      it('reads backwards from the end, or from a revision', async () => {
        expect((await store.readStream(stream, { direction: 'backwards' })).map((e) => e.revision)).toEqual([
          5, 4, 3, 2, 1, 0,
        ]);
        expect(
          (await store.readStream(stream, { direction: 'backwards', maxCount: 2 })).map((e) => e.revision),
        ).toEqual([5, 4]);
        expect(
          (await store.readStream(stream, { direction: 'backwards', fromRevision: 3, maxCount: 2 })).map(
            (e) => e.revision,
          ),
        ).toEqual([3, 2]);
      });

      it('reads nothing past the end', async () => {
        await expect(store.readStream(stream, { fromRevision: 6 })).resolves.toEqual([]);
      });
    });

    describe('reading all', () => {
      it('returns events of every stream in append order with strictly increasing positions', async () => {
        const head = await store.headPosition();
        const a = `${category}-a`;
        const b = `${category}-b`;
        const first = await store.append(a, events(2), { kind: 'no_stream' });
        await store.append(b, events(1), { kind: 'no_stream' });
        await store.append(a, events(1), { kind: 'exact', revision: 1 });

        const read = await store.readAll({ after: head, filter: { categories: [category] } });
        expect(read.map((e) => `${e.streamId}@${e.revision}`)).toEqual([
          `${a}@0`,
          `${a}@1`,
          `${b}@0`,
          `${a}@2`,
        ]);
        const positions = read.map((e) => e.position);
        expect(positions).toEqual([...positions].sort((x, y) => x - y));
        expect(new Set(positions).size).toBe(positions.length);
        expect(read[1]?.position).toBe(first.position);
        expect(await store.headPosition()).toBeGreaterThanOrEqual(read[3]?.position ?? Infinity);
      });

      it('starts after a position and stops at a maximum count', async () => {
        const head = await store.headPosition();
        await store.append(stream, events(5), { kind: 'no_stream' });
        const everything = await store.readAll({ after: head, filter: { categories: [category] } });
        const third = everything[2];
        if (!third) throw new Error('expected five events');

        const page = await store.readAll({
          after: third.position,
          maxCount: 1,
          filter: { categories: [category] },
        });
        expect(page.map((e) => e.revision)).toEqual([3]);
      });

      it('filters by category and by event type', async () => {
        const head = await store.headPosition();
        const other = uniqueCategory();
        await store.append(`${category}-1`, [anEvent('SellerConnected'), anEvent('SellerRenamed')], {
          kind: 'no_stream',
        });
        await store.append(`${other}-1`, [anEvent('SellerConnected'), anEvent('InviteSent')], {
          kind: 'no_stream',
        });
        await store.append(`${category}-2`, [anEvent('InviteSent')], { kind: 'no_stream' });

        const byCategory = await store.readAll({ after: head, filter: { categories: [category] } });
        expect(byCategory.map((e) => e.type)).toEqual(['SellerConnected', 'SellerRenamed', 'InviteSent']);

        const both = await store.readAll({ after: head, filter: { categories: [category, other] } });
        expect(both).toHaveLength(5);

        const byType = await store.readAll({
          after: head,
          filter: { categories: [category, other], eventTypes: ['InviteSent'] },
        });
        expect(byType.map((e) => e.streamId)).toEqual([`${other}-1`, `${category}-2`]);

        const typeOnly = await store.readAll({ after: head, filter: { eventTypes: ['SellerRenamed'] } });
        expect(typeOnly.map((e) => e.streamId)).toEqual([`${category}-1`]);
      });

      it('does not mistake a category for the prefix of a longer one', async () => {
        const head = await store.headPosition();
        await store.append(`${category}x-1`, events(1), { kind: 'no_stream' });
        await expect(store.readAll({ after: head, filter: { categories: [category] } })).resolves.toEqual([]);
      });
    });

    describe('subscription', () => {
      it('delivers the past, then live events, in order, without gaps or duplicates, also when appends arrive during catch-up', async () => {
        const head = await store.headPosition();
        const past = events(20);
        await store.append(stream, past, { kind: 'no_stream' });

        const duringCatchUp = events(5);
        const received: RecordedEvent[] = [];
        let appendedDuringCatchUp = false;
        const subscription = store.subscribe(
          async (event) => {
            received.push(event);
            if (!appendedDuringCatchUp) {
              appendedDuringCatchUp = true;
              await store.append(`${category}-2`, duringCatchUp, { kind: 'no_stream' });
            }
          },
          { after: head, filter: { categories: [category] } },
        );

        await eventually(() => expect(received).toHaveLength(25));
        const live = events(10);
        for (const [n, event] of live.entries())
          await store.append(stream, [event], { kind: 'exact', revision: 19 + n });
        await eventually(() => expect(received).toHaveLength(35));
        await subscription.stop();

        expect(idsOf(received)).toEqual(idsOf([...past, ...duringCatchUp, ...live]));
        const positions = received.map((e) => e.position);
        expect(positions).toEqual([...positions].sort((x, y) => x - y));
        expect(new Set(positions).size).toBe(35);
      });

      it('starts after the checkpoint it is given', async () => {
        const head = await store.headPosition();
        await store.append(stream, events(4), { kind: 'no_stream' });
        const all = await store.readAll({ after: head, filter: { categories: [category] } });
        const checkpoint = all[1]?.position ?? -1;

        const received: RecordedEvent[] = [];
        const subscription = store.subscribe(
          (event) => {
            received.push(event);
            return Promise.resolve();
          },
          { after: checkpoint, filter: { categories: [category] } },
        );
        await eventually(() => expect(received).toHaveLength(2));
        await subscription.stop();
        expect(received.map((e) => e.revision)).toEqual([2, 3]);
      });

      it('filters by event type', async () => {
        const head = await store.headPosition();
        const received: string[] = [];
        const subscription = store.subscribe(
          (event) => {
            received.push(event.type);
            return Promise.resolve();
          },
          { after: head, filter: { categories: [category], eventTypes: ['InviteSent'] } },
        );
        await store.append(
          stream,
          [
            anEvent('SellerConnected'),
            anEvent('InviteSent'),
            anEvent('SellerRenamed'),
            anEvent('InviteSent'),
          ],
          {
            kind: 'no_stream',
          },
        );
        await eventually(() => expect(received).toHaveLength(2));
        await subscription.stop();
        expect(received).toEqual(['InviteSent', 'InviteSent']);
      });

      it('awaits the handler before delivering the next event', async () => {
        const head = await store.headPosition();
        let running = 0;
        let overlapped = false;
        const received: number[] = [];
        const subscription = store.subscribe(
          async (event) => {
            running += 1;
            overlapped ||= running > 1;
            await new Promise((resolve) => setTimeout(resolve, 2));
            received.push(event.revision);
            running -= 1;
          },
          { after: head, filter: { categories: [category] } },
        );
        await store.append(stream, events(5), { kind: 'no_stream' });
        await store.append(stream, events(5), { kind: 'exact', revision: 4 });
        await eventually(() => expect(received).toHaveLength(10));
        await subscription.stop();
        expect(overlapped).toBe(false);
        expect(received).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      });

      it('stop() ends delivery: nothing is delivered after it resolves, and done resolves', async () => {
        const head = await store.headPosition();
        const received: RecordedEvent[] = [];
        const subscription = store.subscribe(
          (event) => {
            received.push(event);
            return Promise.resolve();
          },
          { after: head, filter: { categories: [category] } },
        );
        await store.append(stream, events(2), { kind: 'no_stream' });
        await eventually(() => expect(received).toHaveLength(2));

        await subscription.stop();
        await expect(subscription.done).resolves.toBeUndefined();
        await store.append(stream, events(3), { kind: 'exact', revision: 1 });
        // A second subscription proves the appends are visible, so the first one had its chance.
        const witness: RecordedEvent[] = [];
        const second = store.subscribe(
          (event) => {
            witness.push(event);
            return Promise.resolve();
          },
          { after: head, filter: { categories: [category] } },
        );
        await eventually(() => expect(witness).toHaveLength(5));
        await second.stop();
        expect(received).toHaveLength(2);
      });

      it('ends with the handler failure when the handler throws', async () => {
        const head = await store.headPosition();
        const subscription = store.subscribe(() => Promise.reject(new Error('projection broke')), {
          after: head,
          filter: { categories: [category] },
        });
        await store.append(stream, events(1), { kind: 'no_stream' });
        await expect(subscription.done).rejects.toThrow('projection broke');
        await subscription.stop();
      });
    });

    describe('delete and truncate', () => {
      it('a deleted stream reads as empty and a new append starts it again', async () => {
        await store.append(stream, events(3), { kind: 'no_stream' });
        await store.deleteStream(stream);
        await expect(store.readStream(stream)).resolves.toEqual([]);

        const fresh = events(2);
        const result = await store.append(stream, fresh, { kind: 'no_stream' });
        const read = await store.readStream(stream);
        expect(idsOf(read)).toEqual(idsOf(fresh));
        expect(read[1]?.revision).toBe(result.nextRevision);
        await expect(
          store.append(stream, events(1), { kind: 'exact', revision: result.nextRevision }),
        ).resolves.toMatchObject({
          nextRevision: result.nextRevision + 1,
        });
      });

      it('deleting a stream leaves other streams alone', async () => {
        const other = `${category}-2`;
        await store.append(stream, events(1), { kind: 'no_stream' });
        await store.append(other, events(2), { kind: 'no_stream' });
        await store.deleteStream(stream);
        await expect(store.readStream(other)).resolves.toHaveLength(2);
      });

      it('a truncated stream hides the events before the revision and keeps its numbering', async () => {
        const all = events(5);
        await store.append(stream, all, { kind: 'no_stream' });
        await store.truncateStream(stream, 3);

        const read = await store.readStream(stream);
        expect(idsOf(read)).toEqual(idsOf(all.slice(3)));
        expect((await store.readStream(stream, { direction: 'backwards' })).map((e) => e.revision)).toEqual([
          4, 3,
        ]);
        await expect(store.append(stream, events(1), { kind: 'exact', revision: 4 })).resolves.toMatchObject({
          nextRevision: 5,
        });
        expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([3, 4, 5]);
      });
    });

    describe('concurrency', () => {
      it('50 concurrent appends expecting the same revision: exactly one wins, every other one is reported', async () => {
        await store.append(stream, events(1), { kind: 'no_stream' });
        const attempts = events(50);
        const outcomes = await Promise.allSettled(
          attempts.map((event) => store.append(stream, [event], { kind: 'exact', revision: 0 })),
        );

        const accepted = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [attempts[i]?.id] : []));
        const conflicts = outcomes.filter(
          (o) => o.status === 'rejected' && o.reason instanceof WrongExpectedRevisionError,
        );
        expect(accepted).toHaveLength(1);
        expect(conflicts).toHaveLength(49);
        expect(idsOf(await store.readStream(stream)).slice(1)).toEqual(accepted);
      });

      it('50 concurrent writers that retry on conflict: every accepted append appears exactly once, nothing is lost', async () => {
        await store.append(stream, events(1), { kind: 'no_stream' });
        const writer = async (event: EventToAppend): Promise<number> => {
          for (let attempt = 0; attempt < 500; attempt += 1) {
            const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
            try {
              const result = await store.append(stream, [event], {
                kind: 'exact',
                revision: last?.revision ?? -1,
              });
              return result.nextRevision;
            } catch (error) {
              if (!(error instanceof WrongExpectedRevisionError)) throw error;
            }
          }
          throw new Error('writer gave up');
        };
        const writes = events(50);
        const revisions = await Promise.all(writes.map(writer));

        const read = await store.readStream(stream);
        expect(read).toHaveLength(51);
        expect(new Set(idsOf(read)).size).toBe(51);
        // Each writer's answer names the revision at which its own event was stored.
        for (const [i, event] of writes.entries()) expect(read[revisions[i] ?? -1]?.id).toBe(event.id);
        expect(read.map((e) => e.revision)).toEqual(Array.from({ length: 51 }, (_, n) => n));
      });
    });
  });
};
