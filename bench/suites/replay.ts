/**
 * Replay speed of the projection framework (issue: projections): N events from the SQLite event
 * store into the audit history read model, through everything live processing does (reading in
 * batches, decrypting personal data, planning idempotent writes, checkpoints, the version pointer),
 * beside the ceiling measured in the same run: the same final documents written by plain unordered
 * insertMany into collections with the same indexes, timing only the writes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Db } from 'mongodb';
import { loadConfig } from '../../contracts/config';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { eventRegistry } from '../../commands/event-registry';
import type { EventStore } from '../../commands/event-store/event-store';
import { SqliteEventStore } from '../../commands/event-store/sqlite-event-store';
import { InMemoryPersonalDataKeyStore } from '../../commands/personal-data-key-store';
import { createPersonalDataProtector } from '../../commands/personal-data';
import { auditHistoryProjection as projection } from '../../projections/audit-history/audit-history-projection';
import { createEventDecoder } from '../../projections/event-decoder';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { POSITION_FIELD } from '../../projections/framework/projection';
import { ensureIndexes, physicalNames } from '../../projections/framework/read-model-versions';
import { auditWorkload } from '../../test/projections/audit-workload';
import { collectionChecksum } from '../../test/projections/read-model-checksum';
import type { BenchSuite } from '../harness';
import { openReadStore } from '../../projections/read-store/open-read-store';

const READ_CHUNK = 2000;

/** Appends the workload as the command side stores it (personal data encrypted), one event per append. */
const fillStore = async (store: SqliteEventStore, params: { events: number; encrypted: boolean }) => {
  const keys = new InMemoryPersonalDataKeyStore();
  const protector = createPersonalDataProtector({ keys, registry: eventRegistry });
  for (const { streamId, event } of auditWorkload({ events: params.events, tenants: 50, label: 'bench' })) {
    const stored = params.encrypted ? await protector.protect({ streamId, ...event }) : {};
    store.appendNow(streamId, [{ ...event, ...stored }], { kind: 'any' });
  }
  return keys;
};

/**
 * The final documents, built by the projection itself, for the baseline to write raw. The workload
 * has no erasures, so every write is an insert and the documents are exactly the read model's.
 */
async function* finalDocuments(
  store: EventStore,
  decode: (events: readonly RecordedEvent[]) => Promise<RecordedEvent[]>,
) {
  let after = -1;
  for (;;) {
    const events = await store.readAll({ after, maxCount: READ_CHUNK });
    if (events.length === 0) break;
    after = events.at(-1)?.position ?? after;
    const docs = { rows: [] as Record<string, unknown>[], emails: [] as Record<string, unknown>[] };
    for (const event of await decode(events)) {
      for (const write of projection.project(event)) {
        if (write.kind !== 'insert') throw new Error(`the baseline cannot write a ${write.kind}`);
        docs[write.collection].push({ _id: write.id, ...write.doc, [POSITION_FIELD]: event.position });
      }
    }
    yield docs;
  }
}

const rawInsert = async (
  db: Db,
  store: EventStore,
  options: { decode: (e: readonly RecordedEvent[]) => Promise<RecordedEvent[]>; batchSize: number },
) => {
  await ensureIndexes(db, projection, 2);
  const names = physicalNames(projection, 2);
  let writeMs = 0;
  for await (const chunk of finalDocuments(store, options.decode)) {
    for (const key of ['rows', 'emails'] as const) {
      const docs = chunk[key];
      for (let i = 0; i < docs.length; i += options.batchSize) {
        const started = performance.now();
        await db.collection(names[key]).insertMany(docs.slice(i, i + options.batchSize), { ordered: false });
        writeMs += performance.now() - started;
      }
    }
  }
  return writeMs / 1000;
};

export const suite: BenchSuite = {
  name: 'replay',
  description:
    'replay of N events into the audit history read model beside raw insertMany of the same documents',
  params: { events: 100_000, batchSize: 500, encrypted: 1 },
  run: async (params, { log }) => {
    const events = params.events ?? 100_000;
    const batchSize = params.batchSize ?? 500;
    const encrypted = (params.encrypted ?? 1) === 1;
    const config = loadConfig(process.env);
    const dir = mkdtempSync(join(tmpdir(), 'ledgerwise-bench-replay-'));
    const store = new SqliteEventStore({ path: join(dir, 'events.sqlite'), synchronous: 'normal' });
    const readStore = await openReadStore(config);
    const { db } = readStore;
    try {
      log(`appending ${events} events${encrypted ? ' (personal data encrypted)' : ''}`);
      const keys = await fillStore(store, { events, encrypted });
      const decode = encrypted
        ? createEventDecoder({ keys, registry: eventRegistry })
        : (e: readonly RecordedEvent[]) => Promise.resolve([...e]);

      log(`replaying into the audit history (batches of ${batchSize})`);
      const started = performance.now();
      await new ProjectionProcessor({ db, store, decode, projection, version: 1, batchSize }).catchUp();
      const replaySeconds = (performance.now() - started) / 1000;
      log(`replay: ${replaySeconds.toFixed(1)} s`);

      log('raw insertMany of the same final documents');
      const rawSeconds = await rawInsert(db, store, { decode, batchSize });
      log(`raw: ${rawSeconds.toFixed(1)} s (writes only)`);

      const names = { replayed: physicalNames(projection, 1), raw: physicalNames(projection, 2) };
      for (const key of ['rows', 'emails'] as const) {
        const [a, b] = await Promise.all([
          collectionChecksum(db, names.replayed[key]),
          collectionChecksum(db, names.raw[key]),
        ]);
        if (a.sha256 !== b.sha256)
          throw new Error(`replayed and raw ${key} differ (${a.count} vs ${b.count} documents)`);
        log(`${key}: ${a.count} documents, identical in both`);
      }

      return [
        {
          name: 'replay into the audit history',
          unit: 'events/s',
          value: events / replaySeconds,
          baseline: { name: 'raw insertMany of the same documents', value: events / rawSeconds },
          higherIsBetter: true,
          target: {
            kind: 'ratio',
            op: '>=',
            value: 0.5,
            source: 'issue: projection framework (replay >= 0.5x raw bulkWrite)',
          },
        },
      ];
    } finally {
      await db.dropDatabase();
      await readStore.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
