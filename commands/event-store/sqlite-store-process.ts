/**
 * A small program that opens the SQLite event store in a process of its own, so the multi-process
 * tests and the events benchmark can append or subscribe from outside the process that checks.
 * Run with `node -r tsx/cjs commands/event-store/sqlite-store-process.ts <mode> ...`; prints one JSON
 * line when done (and `ready` first when subscribing).
 *
 *   append <file> <stream> <count> <commandPrefix>   appends one event at a time, exact revision, retrying conflicts
 *   subscribe <file> <category> <count>              receives `count` live events of the category, reports latencies
 */
import type { EventMetadata } from '../../contracts/events/envelope';
import { eventIdFor } from '../event-id';
import { retry, versionConflict } from '../retry';
import { SqliteEventStore } from './sqlite-event-store';

const metadata: EventMetadata = {
  tenantId: null,
  actor: 'system:test-process',
  ip: null,
  method: null,
  url: null,
  body: null,
  requestId: null,
  correlationId: 'process',
  causationId: null,
  time: new Date(0).toISOString(),
};

/** Monotonic clock shared by every process on the machine (CLOCK_MONOTONIC), in nanoseconds. */
export const monotonicNow = (): bigint => process.hrtime.bigint();

const appendMode = async (store: SqliteEventStore, args: readonly string[]) => {
  const [stream = '', countText = '0', prefix = ''] = args;
  let conflicts = 0;
  const revisions: number[] = [];
  for (let n = 0; n < Number(countText); n += 1) {
    const event = {
      id: eventIdFor(`${prefix}`, n),
      type: 'Appended',
      schemaVersion: 1,
      data: { prefix, n, sentAt: String(monotonicNow()) },
      metadata,
    };
    // Retried at once, without the policy's pause: the test counts how often writers collide.
    const appended = await retry(
      { ...versionConflict({ maxAttempts: Infinity }), delayMs: () => 0 },
      async () => {
        const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
        const expected = last
          ? { kind: 'exact' as const, revision: last.revision }
          : { kind: 'no_stream' as const };
        return store.append(stream, [event], expected);
      },
      { onRetry: () => (conflicts += 1) },
    );
    revisions.push(appended.nextRevision);
  }
  return { revisions, conflicts };
};

const subscribeMode = async (store: SqliteEventStore, args: readonly string[]) => {
  const [category = '', countText = '0'] = args;
  const count = Number(countText);
  const received: { id: string; position: number; latencyMs: number }[] = [];
  const head = await store.headPosition();
  await new Promise<void>((resolve, reject) => {
    const subscription = store.subscribe(
      (event) => {
        const sentAt = (event.data as { sentAt?: string }).sentAt;
        const latencyMs = sentAt === undefined ? Number.NaN : Number(monotonicNow() - BigInt(sentAt)) / 1e6;
        received.push({ id: event.id, position: event.position, latencyMs });
        if (received.length === count) void subscription.stop().then(resolve);
        return Promise.resolve();
      },
      { after: head, filter: { categories: [category] } },
    );
    subscription.done.catch(reject);
    process.stdout.write('ready\n');
  });
  return { received };
};

const main = async () => {
  const [mode, file = '', ...rest] = process.argv.slice(2);
  const store = new SqliteEventStore({ path: file });
  try {
    const result =
      mode === 'append'
        ? await appendMode(store, rest)
        : mode === 'subscribe'
          ? await subscribeMode(store, rest)
          : undefined;
    if (!result) throw new Error(`Unknown mode ${String(mode)}; use append or subscribe`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await store.close();
  }
};

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
