import type * as NodeFs from 'node:fs';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { RecordedEvent } from '../../contracts/events/envelope';
import {
  anEvent,
  describeEventStoreContract,
  eventually,
  events,
  uniqueCategory,
} from './event-store.contract';
import { SCHEMA_VERSION, SqliteEventStore, openSqliteEventStore } from './sqlite-event-store';

// Child processes start tsx and the machine may be busy: allow more than the default 5 s per test.
jest.setTimeout(60_000);

const repoRoot = join(__dirname, '..', '..');
const processScript = join(__dirname, 'sqlite-store-process.ts');

let dir: string;
let files = 0;
const freshFile = () => join(dir, `events-${(files += 1)}.db`);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledgerwise-events-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describeEventStoreContract('SQLite', () => openSqliteEventStore({ path: freshFile() }));

type Child = { ready: Promise<void>; result: Promise<unknown> };

/** Runs sqlite-store-process.ts in a child process; `result` is the JSON line it prints at the end. */
const runProcess = (args: readonly string[]): Child => {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', processScript, ...args], { cwd: repoRoot });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('ready\n')) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const result = new Promise<unknown>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').pop() ?? '';
      if (code === 0) resolve(JSON.parse(last));
      else reject(new Error(`child exited with ${String(code)}: ${stderr}`));
    });
  });
  return { ready, result };
};

describe('SQLite event store: file and schema', () => {
  it('an empty store has head position -1', async () => {
    const store = await openSqliteEventStore({ path: freshFile() });
    await expect(store.headPosition()).resolves.toBe(-1);
    await expect(store.readAll()).resolves.toEqual([]);
    await store.close();
  });

  it('keeps events across reopening, in WAL mode, with its schema version recorded', async () => {
    const file = freshFile();
    const first = await openSqliteEventStore({ path: file });
    const appended = events(3);
    await first.append('seller-1', appended, { kind: 'no_stream' });
    await first.close();

    const again = await openSqliteEventStore({ path: file });
    expect((await again.readStream('seller-1')).map((e) => e.id)).toEqual(appended.map((e) => e.id));
    await again.close();

    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
  });

  it('migrates a version 1 file (with its event-id index) and keeps its events', async () => {
    const file = freshFile();
    const store = await openSqliteEventStore({ path: file });
    const appended = events(2);
    await store.append('seller-1', appended, { kind: 'no_stream' });
    await store.close();
    const raw = new Database(file);
    raw.exec('CREATE INDEX events_by_id ON events (event_id)');
    raw.pragma('user_version = 1');
    raw.close();

    const migrated = await openSqliteEventStore({ path: file });
    expect((await migrated.readStream('seller-1')).map((e) => e.id)).toEqual(appended.map((e) => e.id));
    await migrated.close();
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(2);
    expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'events_by_id'").all()).toEqual([]);
    check.close();
  });

  it('refuses a file written by a newer schema instead of corrupting it', async () => {
    const file = freshFile();
    await (await openSqliteEventStore({ path: file })).close();
    const raw = new Database(file);
    raw.pragma('user_version = 99');
    raw.close();
    await expect(openSqliteEventStore({ path: file })).rejects.toThrow('schema version 99 is newer');
  });

  it('delete really removes the rows (tenant purge), and positions are never reused', async () => {
    const file = freshFile();
    const store = await openSqliteEventStore({ path: file });
    await store.append('tenant-1', events(2), { kind: 'no_stream' });
    const purged = await store.append('user-9', [anEvent('UserRegistered', { email: 'ann@example.com' })], {
      kind: 'no_stream',
    });
    await store.deleteStream('user-9');

    expect((await store.readAll()).map((e) => e.streamId)).toEqual(['tenant-1', 'tenant-1']);
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare("SELECT COUNT(*) FROM events WHERE stream_id = 'user-9'").pluck().get()).toBe(0);
    raw.close();

    const next = await store.append('tenant-1', events(1), { kind: 'exact', revision: 1 });
    expect(next.position).toBeGreaterThan(purged.position);
    await store.close();
  });

  it('truncation removes the hidden events from reads of all events as well', async () => {
    const store = await openSqliteEventStore({ path: freshFile() });
    await store.append('job-1', events(4), { kind: 'no_stream' });
    await store.truncateStream('job-1', 2);
    expect((await store.readAll()).map((e) => e.revision)).toEqual([2, 3]);
    await store.close();
  });

  it('a retried append is recognised even when another process wrote in between', async () => {
    const file = freshFile();
    const a = await openSqliteEventStore({ path: file });
    const b = await openSqliteEventStore({ path: file });
    const batch = events(2);
    const first = await a.append('seller-5', batch, { kind: 'no_stream' });
    await b.append('seller-5', events(1), { kind: 'exact', revision: 1 });
    await expect(b.append('seller-5', batch, { kind: 'no_stream' })).resolves.toEqual(first);
    await a.close();
    await b.close();
  });

  it('a subscriber sees appends made through another connection to the same file', async () => {
    const file = freshFile();
    const writer = await openSqliteEventStore({ path: file });
    const reader = await openSqliteEventStore({ path: file });
    const received: RecordedEvent[] = [];
    const subscription = reader.subscribe((event) => {
      received.push(event);
      return Promise.resolve();
    });
    const appended = events(3);
    for (const [n, event] of appended.entries()) {
      await writer.append(
        'seller-1',
        [event],
        n === 0 ? { kind: 'no_stream' } : { kind: 'exact', revision: n - 1 },
      );
    }
    await eventually(() => expect(received).toHaveLength(3));
    await subscription.stop();
    expect(received.map((e) => e.id)).toEqual(appended.map((e) => e.id));
    await writer.close();
    await reader.close();
  });

  it("a filtered subscriber passes over this connection's appends it does not take, without reading", async () => {
    const file = freshFile();
    // The other connection first: its schema check commits nothing this store's poll would see later.
    const other = await openSqliteEventStore({ path: file });
    const store = new SqliteEventStore({ path: file });
    const wanted: RecordedEvent[] = [];
    const everything: RecordedEvent[] = [];
    const filtered = store.subscribe(
      (event) => {
        wanted.push(event);
        return Promise.resolve();
      },
      { filter: { eventTypes: ['Wanted'] } },
    );
    const all = store.subscribe((event) => {
      everything.push(event);
      return Promise.resolve();
    });
    // An empty store's head (-1) is not right before its first position (1): the first append wakes all.
    await store.append('seller-first', [anEvent('Other')], { kind: 'any' });
    await eventually(() => expect(everything).toHaveLength(1));
    const reads = jest.spyOn(store as unknown as { readAllNow: () => unknown }, 'readAllNow');
    const readsOfWanted = () =>
      reads.mock.calls.filter((call) => JSON.stringify(call).includes('Wanted')).length;
    for (let n = 0; n < 20; n += 1) await store.append(`seller-${n}`, [anEvent('Other')], { kind: 'any' });
    await eventually(() => expect(everything).toHaveLength(21));
    expect(readsOfWanted()).toBe(0);
    expect(wanted).toHaveLength(0);

    // Its own taken event wakes it; so does another connection's, even when an append of this
    // connection that it would pass over follows before the poll has noticed the other's commit.
    await store.append('seller-x', [anEvent('Wanted', { n: 'own' })], { kind: 'any' });
    await other.append('seller-y', [anEvent('Wanted', { n: 'other' })], { kind: 'any' });
    await store.append('seller-z', [anEvent('Other')], { kind: 'any' });
    await eventually(() => expect(wanted.map((event) => event.data)).toEqual([{ n: 'own' }, { n: 'other' }]));
    await eventually(() => expect(everything).toHaveLength(24));
    expect(everything.map((event) => event.position)).toEqual(
      [...everything.map((event) => event.position)].sort((a, b) => a - b),
    );
    await filtered.stop();
    await all.stop();
    reads.mockRestore();
    await other.close();
    await store.close();
  });

  it('close() stops live subscriptions', async () => {
    const store = new SqliteEventStore({ path: freshFile() });
    const subscription = store.subscribe(() => Promise.resolve());
    await store.close();
    await expect(subscription.done).resolves.toBeUndefined();
  });
});

describe('SQLite event store: several processes on one file', () => {
  it('a subscriber here receives, in order and exactly once, what another process appends', async () => {
    const file = freshFile();
    const store = await openSqliteEventStore({ path: file });
    const category = uniqueCategory();
    const received: RecordedEvent[] = [];
    const subscription = store.subscribe(
      (event) => {
        received.push(event);
        return Promise.resolve();
      },
      { filter: { categories: [category] } },
    );

    const child = runProcess(['append', file, `${category}-1`, '200', 'child']);
    const result = (await child.result) as { revisions: number[]; conflicts: number };
    expect(result.revisions).toHaveLength(200);
    await eventually(() => expect(received).toHaveLength(200));
    await subscription.stop();

    expect(received.map((e) => e.revision)).toEqual(Array.from({ length: 200 }, (_, n) => n));
    expect(received.map((e) => (e.data as { n: number }).n)).toEqual(
      Array.from({ length: 200 }, (_, n) => n),
    );
    await store.close();
  });

  it('a subscriber in another process receives what this process appends', async () => {
    const file = freshFile();
    const store = await openSqliteEventStore({ path: file });
    const category = uniqueCategory();
    const child = runProcess(['subscribe', file, category, '50']);
    await child.ready;
    const appended = events(50);
    for (const [n, event] of appended.entries()) {
      await store.append(
        `${category}-1`,
        [event],
        n === 0 ? { kind: 'no_stream' } : { kind: 'exact', revision: n - 1 },
      );
    }
    const result = (await child.result) as { received: { id: string }[] };
    expect(result.received.map((e) => e.id)).toEqual(appended.map((e) => e.id));
    await store.close();
  });

  it('two processes appending to the same stream with exact revisions lose and duplicate nothing', async () => {
    const file = freshFile();
    await (await openSqliteEventStore({ path: file })).close(); // create the schema before the race
    const stream = `${uniqueCategory()}-1`;
    const [a, b] = [
      runProcess(['append', file, stream, '150', 'a']),
      runProcess(['append', file, stream, '150', 'b']),
    ];
    const results = (await Promise.all([a.result, b.result])) as { revisions: number[]; conflicts: number }[];

    const store = await openSqliteEventStore({ path: file });
    const read = await store.readStream(stream);
    expect(read).toHaveLength(300);
    expect(read.map((e) => e.revision)).toEqual(Array.from({ length: 300 }, (_, n) => n));
    expect(new Set(read.map((e) => e.id)).size).toBe(300);
    // Each process's own events are all there, in the order it appended them, at the revisions it was told.
    for (const [i, prefix] of ['a', 'b'].entries()) {
      const own = read.filter((e) => (e.data as { prefix: string }).prefix === prefix);
      expect(own.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 150 }, (_, n) => n));
      expect(own.map((e) => e.revision)).toEqual(results[i]?.revisions);
    }
    await store.close();
  });
});

describe('SQLite event store: grouped sync (docs/adr/0052)', () => {
  // The module object the store's own import reads (a namespace import would be a copy).
  const fs = jest.requireActual<typeof NodeFs>('node:fs');
  /** Holds every WAL sync until released, counting them. */
  const holdSyncs = () => {
    const real = fs.fdatasync;
    const held: (() => void)[] = [];
    const spy = jest
      .spyOn(fs, 'fdatasync')
      .mockImplementation((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
        held.push(() => real(fd, callback));
      });
    return {
      held,
      count: () => spy.mock.calls.length,
      release: () => held.splice(0).forEach((run) => run()),
      restore: () => spy.mockRestore(),
    };
  };
  const settled = async (promise: Promise<unknown>) => {
    let done = false;
    void promise.then(
      () => (done = true),
      () => (done = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    return done;
  };

  it('answers an append only after its sync, and one sync serves the appends committed during another', async () => {
    const store = new SqliteEventStore({ path: freshFile() });
    const syncs = holdSyncs();
    try {
      const first = store.append('grouped-1', events(1), { kind: 'no_stream' });
      expect(await settled(first)).toBe(false);
      // Committed and readable already; not answered until durable.
      expect(await store.readStream('grouped-1')).toHaveLength(1);
      expect(syncs.count()).toBe(1);

      const later = Array.from({ length: 5 }, (_, i) =>
        store.append(`grouped-${i + 2}`, events(1), { kind: 'no_stream' }),
      );
      expect(await settled(Promise.all(later))).toBe(false);
      syncs.release();
      await first;
      expect(await settled(Promise.all(later))).toBe(false);
      expect(syncs.count()).toBe(2); // one more sync for the five appends made during the first
      syncs.release();
      expect((await Promise.all(later)).map((result) => result.nextRevision)).toEqual([0, 0, 0, 0, 0]);
      expect(syncs.count()).toBe(2);
    } finally {
      syncs.release();
      syncs.restore();
      await store.close();
    }
  });

  it('syncs on every commit when full, without the grouped sync', async () => {
    const store = new SqliteEventStore({ path: freshFile(), synchronous: 'full' });
    const syncs = holdSyncs();
    try {
      await store.append('full-1', events(2), { kind: 'no_stream' });
      expect(syncs.count()).toBe(0);
    } finally {
      syncs.restore();
      await store.close();
    }
  });
});
