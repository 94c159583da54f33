/**
 * The event store's write and delivery speed (issue: the event store). Every figure sits beside a
 * baseline measured in this run on the same machine, disk and workload:
 * - appends to the SQLite store against the raw ceiling (better-sqlite3 inserting the same rows, same
 *   pragmas, one transaction per append, no checks and no indexes) and against Emmett's SQLite store;
 * - append-to-delivery latency to a subscriber in another process against the same measurement with
 *   the subscriber in the appending process.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { STREAM_DOES_NOT_EXIST } from '@event-driven-io/emmett';
import { getSQLiteEventStore } from '@event-driven-io/emmett-sqlite';
import Database from 'better-sqlite3';
import type { EventMetadata, RecordedEvent } from '../../contracts/events/envelope';
import { eventIdFor } from '../../commands/event-id';
import { categoryOf, type EventToAppend } from '../../commands/event-store/event-store';
import { SqliteEventStore } from '../../commands/event-store/sqlite-event-store';
import { monotonicNow } from '../../commands/event-store/sqlite-store-process';
import { percentile, type BenchSuite, type Figure } from '../harness';

const repoRoot = join(__dirname, '..', '..');
const processScript = join(repoRoot, 'commands', 'event-store', 'sqlite-store-process.ts');

const metadata: EventMetadata = {
  tenantId: 42,
  actor: 'user:7',
  ip: '203.0.113.7',
  method: 'POST',
  url: '/api/sellers/12/rename',
  body: { name: 'Acme Receivables Ltd' },
  requestId: 'req-00000001',
  correlationId: 'corr-00000001',
  causationId: null,
  time: '2026-03-01T10:00:00.000Z',
};

/** A realistic small event body (a seller change with a few fields). */
const payload = (n: number) => ({
  sellerId: n,
  name: `Seller ${n}`,
  currency: 'USD',
  terms: 30,
  tags: ['b2b', 'net30'],
});

/** One workload, shared by every contender: `appends` appends of `batchSize` events, each to a new stream. */
type Workload = { appends: number; batchSize: number; label: string };

const batchOf = (workload: Workload, append: number): EventToAppend[] =>
  Array.from({ length: workload.batchSize }, (_, i) => ({
    id: eventIdFor(`${workload.label}-${append}`, i),
    type: 'SellerRenamed',
    schemaVersion: 1,
    data: payload(append * workload.batchSize + i),
    metadata,
  }));

type Measured = { eventsPerSecond: number; p50Ms: number; p99Ms: number };

/** One contender, open on its own file: appends one batch to a new stream. */
type Appender = {
  append: (stream: string, batch: EventToAppend[]) => unknown;
  close: () => Promise<void> | void;
  /** Appends that had to be retried (Emmett only, see openEmmett). */
  retries: () => number;
};

type Synchronous = 'full' | 'normal';

/** The ceiling: the same rows, the same pragmas and one IMMEDIATE transaction per append, nothing else. */
const openRaw = (file: string, synchronous: Synchronous): Appender => {
  const db = new Database(file, { timeout: 10_000 });
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY, stream_id TEXT NOT NULL, revision INTEGER NOT NULL,
    event_id TEXT NOT NULL, category TEXT NOT NULL, type TEXT NOT NULL, schema_version INTEGER NOT NULL,
    data TEXT NOT NULL, metadata TEXT NOT NULL, recorded_at INTEGER NOT NULL)`);
  const insert = db.prepare(
    'INSERT INTO events (stream_id, revision, event_id, category, type, schema_version, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const appendRows = db.transaction((stream: string, batch: EventToAppend[]) => {
    const recordedAt = Date.now();
    for (const [revision, e] of batch.entries()) {
      const data = JSON.stringify(e.data);
      insert.run(
        stream,
        revision,
        e.id,
        categoryOf(stream),
        e.type,
        e.schemaVersion,
        data,
        JSON.stringify(e.metadata),
        recordedAt,
      );
    }
  });
  return {
    append: (stream, batch) => appendRows.immediate(stream, batch),
    close: () => {
      db.close();
    },
    retries: () => 0,
  };
};

const openOurs = (file: string, synchronous: Synchronous): Appender => {
  const store = new SqliteEventStore({ path: file, synchronous });
  return {
    append: (stream, batch) => store.append(stream, batch, { kind: 'no_stream' }),
    close: () => store.close(),
    retries: () => 0,
  };
};

/** Emmett 0.38.5 (node-sqlite3) opens a connection per operation; its occasional SQLITE_BUSY at COMMIT is retried and counted. */
const openEmmett = (file: string): Appender => {
  const store = getSQLiteEventStore({ fileName: file });
  let retries = 0;
  const append = async (stream: string, batch: EventToAppend[]) => {
    const messages = batch.map((e) => ({
      type: e.type,
      data: e.data as Record<string, unknown>,
      metadata: { ...e.metadata, eventId: e.id },
    }));
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await store.appendToStream(stream, messages, { expectedStreamVersion: STREAM_DOES_NOT_EXIST });
      } catch (error) {
        if (attempt >= 5 || !(error instanceof Error && /SQLITE_BUSY/.test(error.message))) throw error;
        retries += 1;
      }
    }
  };
  return { append, close: () => undefined, retries: () => retries };
};

/**
 * Runs the workload through every contender in interleaved chunks (rotating who goes first), so a
 * busy or quiet spell of the shared disk falls on all of them alike. Throughput counts only the time
 * spent inside append calls.
 */
const race = async (
  contenders: Record<string, Appender>,
  workload: Workload,
  chunk: number,
): Promise<Record<string, Measured>> => {
  const names = Object.keys(contenders);
  const latencies: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let start = 0, round = 0; start < workload.appends; start += chunk, round += 1) {
    const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
    for (const name of order) {
      const contender = contenders[name];
      const own = latencies[name];
      if (!contender || !own) continue;
      for (let n = start; n < Math.min(start + chunk, workload.appends); n += 1) {
        const batch = batchOf(workload, n);
        const before = performance.now();
        await contender.append(`seller-${workload.label}${name}x${n}`, batch);
        own.push(performance.now() - before);
      }
    }
  }
  return Object.fromEntries(
    names.map((name) => {
      const own = latencies[name] ?? [];
      const seconds = own.reduce((sum, ms) => sum + ms, 0) / 1000;
      const measured: Measured = {
        eventsPerSecond: (own.length * workload.batchSize) / seconds,
        p50Ms: percentile(own, 50),
        p99Ms: percentile(own, 99),
      };
      return [name, measured];
    }),
  );
};

type Latencies = { p50Ms: number; p99Ms: number; samples: number };

const summarise = (latencies: readonly number[]): Latencies => ({
  p50Ms: percentile(latencies, 50),
  p99Ms: percentile(latencies, 99),
  samples: latencies.length,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Appends `count` single events, one every `intervalMs`, each carrying the monotonic time of its append. */
const appendTimed = async (
  store: SqliteEventStore,
  category: string,
  params: { count: number; intervalMs: number },
) => {
  for (let n = 0; n < params.count; n += 1) {
    const event: EventToAppend = {
      id: randomUUID(),
      type: 'Ping',
      schemaVersion: 1,
      data: { n, sentAt: String(monotonicNow()) },
      metadata,
    };
    await store.append(`${category}-${n}`, [event], { kind: 'no_stream' });
    await sleep(params.intervalMs);
  }
};

const latencyOf = (event: RecordedEvent) =>
  Number(monotonicNow() - BigInt((event.data as { sentAt: string }).sentAt)) / 1e6;

const inProcessDelivery = async (
  file: string,
  params: { count: number; intervalMs: number },
): Promise<Latencies> => {
  const store = new SqliteEventStore({ path: file });
  const category = `ping${randomUUID().slice(0, 8)}`;
  const latencies: number[] = [];
  const subscription = store.subscribe(
    (event) => {
      latencies.push(latencyOf(event));
      return Promise.resolve();
    },
    { after: await store.headPosition(), filter: { categories: [category] } },
  );
  await appendTimed(store, category, params);
  while (latencies.length < params.count) await sleep(5);
  await subscription.stop();
  await store.close();
  return summarise(latencies);
};

const crossProcessDelivery = async (
  file: string,
  params: { count: number; intervalMs: number },
): Promise<Latencies> => {
  const store = new SqliteEventStore({ path: file });
  const category = `ping${randomUUID().slice(0, 8)}`;
  const child = spawn(
    process.execPath,
    ['-r', 'tsx/cjs', processScript, 'subscribe', file, category, String(params.count)],
    {
      cwd: repoRoot,
    },
  );
  let stdout = '';
  let stderr = '';
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('ready\n')) resolve();
    }),
  );
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve, reject) =>
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`subscriber exited with ${String(code)}: ${stderr}`)),
    ),
  );
  await ready;
  await appendTimed(store, category, params);
  await exited;
  await store.close();
  const { received } = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
    received: { latencyMs: number }[];
  };
  return summarise(received.map((r) => r.latencyMs));
};

export const suite: BenchSuite = {
  name: 'events',
  description: 'SQLite event store: append throughput and latency, cross-process delivery latency',
  params: {
    singleAppends: 4000,
    batchAppends: 2000,
    batchSize: 10,
    chunkAppends: 50,
    deliveries: 2000,
    deliveryIntervalMs: 5,
    warmupAppends: 200,
    synchronousFull: 1,
  },
  run: async (params, { log }) => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerwise-bench-events-'));
    let files = 0;
    const file = () => join(dir, `bench-${(files += 1)}.db`);
    const batchSize = params.batchSize ?? 10;
    try {
      const single: Workload = { appends: params.singleAppends ?? 2000, batchSize: 1, label: 's' };
      const batched: Workload = { appends: params.batchAppends ?? 1000, batchSize, label: 'b' };
      const warmup: Workload = { appends: params.warmupAppends ?? 200, batchSize: 1, label: 'w' };

      // Emmett (node-sqlite3) keeps SQLite's default, FULL; `--synchronousFull=0` shows our CPU cost without fsync.
      const synchronous: Synchronous = params.synchronousFull === 0 ? 'normal' : 'full';
      const results: Record<string, Record<string, Measured>> = {};
      for (const [workloadName, workload] of Object.entries({ single, batched })) {
        const contenders: Record<string, Appender> = {
          raw: openRaw(file(), synchronous),
          ours: openOurs(file(), synchronous),
          emmett: openEmmett(file()),
        };
        await race(contenders, { ...warmup, label: `w${workload.label}` }, warmup.appends);
        const measured = await race(contenders, workload, params.chunkAppends ?? 50);
        results[workloadName] = measured;
        for (const [name, m] of Object.entries(measured)) {
          log(
            `${workloadName} ${name}: ${m.eventsPerSecond.toFixed(0)} events/s, p50 ${m.p50Ms.toFixed(3)} ms, p99 ${m.p99Ms.toFixed(3)} ms`,
          );
        }
        const retried = contenders.emmett?.retries() ?? 0;
        if (retried > 0)
          log(
            `${workloadName} emmett: ${retried} appends retried after SQLITE_BUSY at commit (Emmett's own error)`,
          );
        for (const contender of Object.values(contenders)) await contender.close();
      }

      const deliveryParams = { count: params.deliveries ?? 400, intervalMs: params.deliveryIntervalMs ?? 5 };
      const deliveryFile = file();
      const inProcess = await inProcessDelivery(deliveryFile, deliveryParams);
      log(
        `delivery in-process: p50 ${inProcess.p50Ms.toFixed(3)} ms, p99 ${inProcess.p99Ms.toFixed(3)} ms (${inProcess.samples} events)`,
      );
      const crossProcess = await crossProcessDelivery(deliveryFile, deliveryParams);
      log(
        `delivery cross-process: p50 ${crossProcess.p50Ms.toFixed(3)} ms, p99 ${crossProcess.p99Ms.toFixed(3)} ms (${crossProcess.samples} events)`,
      );

      const figures: Figure[] = [];
      const describe = {
        single: 'single events to distinct streams',
        batched: `${batchSize}-event batches to distinct streams`,
      };
      for (const workloadName of ['single', 'batched'] as const) {
        const r = results[workloadName];
        const [mine, raw, em] = [r?.ours, r?.raw, r?.emmett];
        if (!mine || !raw || !em) throw new Error(`missing results for ${workloadName}`);
        const label = `SQLite store append, ${describe[workloadName]} (synchronous=${synchronous})`;
        figures.push(
          {
            name: `${label}: throughput vs raw ceiling`,
            unit: 'events/s',
            value: mine.eventsPerSecond,
            baseline: { name: 'raw better-sqlite3 inserts of the same rows', value: raw.eventsPerSecond },
            higherIsBetter: true,
            target: { kind: 'ratio', op: '>=', value: 0.7, source: 'event store issue' },
          },
          {
            name: `${label}: throughput vs Emmett`,
            unit: 'events/s',
            value: mine.eventsPerSecond,
            baseline: {
              name: 'Emmett SQLite event store (@event-driven-io/emmett-sqlite)',
              value: em.eventsPerSecond,
            },
            higherIsBetter: true,
            target: { kind: 'ratio', op: '>=', value: 1, source: 'event store issue' },
          },
          {
            name: `${label}: p50 latency`,
            unit: 'ms',
            value: mine.p50Ms,
            baseline: { name: 'raw better-sqlite3 inserts', value: raw.p50Ms },
            higherIsBetter: false,
          },
          {
            name: `${label}: p99 latency`,
            unit: 'ms',
            value: mine.p99Ms,
            baseline: { name: 'raw better-sqlite3 inserts', value: raw.p99Ms },
            higherIsBetter: false,
          },
          {
            name: `${label}: p50 latency vs Emmett`,
            unit: 'ms',
            value: mine.p50Ms,
            baseline: { name: 'Emmett SQLite event store', value: em.p50Ms },
            higherIsBetter: false,
          },
          {
            name: `${label}: p99 latency vs Emmett`,
            unit: 'ms',
            value: mine.p99Ms,
            baseline: { name: 'Emmett SQLite event store', value: em.p99Ms },
            higherIsBetter: false,
          },
        );
      }
      figures.push(
        {
          name: 'Append-to-delivery latency, subscriber in another process: p50',
          unit: 'ms',
          value: crossProcess.p50Ms,
          baseline: { name: 'subscriber in the appending process', value: inProcess.p50Ms },
          higherIsBetter: false,
        },
        {
          name: 'Append-to-delivery latency, subscriber in another process: p99',
          unit: 'ms',
          value: crossProcess.p99Ms,
          baseline: { name: 'subscriber in the appending process', value: inProcess.p99Ms },
          higherIsBetter: false,
          target: { kind: 'absolute', op: '<=', value: 50, source: 'event store issue' },
        },
      );
      return figures;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
