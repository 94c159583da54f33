import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from 'mongodb';
import { eventRegistry } from '../../commands/event-registry';
import { openSqliteEventStore } from '../../commands/event-store/sqlite-event-store';
import { openSqlitePersonalDataKeyStore } from '../../commands/sqlite-personal-data-key-store';
import { auditHistoryProjection } from '../../projections/audit-history/audit-history-projection';
import { createEventDecoder } from '../../projections/event-decoder';
import { rebuildProjection } from '../../projections/framework/rebuild-projection';
import { currentVersion, loadCheckpoint } from '../../projections/framework/read-model-versions';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { isolatedNames, testConfig } from '../harness/isolation';
import { appendWorkload } from './audit-workload';
import { versionChecksums } from './read-model-checksum';

const config = testConfig(isolatedNames(__filename));
const dir = mkdtempSync(join(tmpdir(), 'ledgerwise-projector-kill-'));
const storePath = join(dir, 'events.sqlite');
const keysPath = join(dir, 'personal-data-keys.sqlite');
let readStore: ReadStore;
let db: Db;

const startProjector = (): ChildProcess =>
  spawn(
    process.execPath,
    [
      '-r',
      'tsx/cjs',
      join(__dirname, 'audit-projector-process.ts'),
      storePath,
      keysPath,
      JSON.stringify(config),
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );

const exited = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve));

/** Polls the read model's checkpoint until the condition holds (or the test's timeout ends it). */
const checkpointWhen = async (condition: (checkpoint: number) => boolean): Promise<number> => {
  for (;;) {
    const version = await currentVersion(db, auditHistoryProjection.name);
    const checkpoint = await loadCheckpoint(db, auditHistoryProjection.name, version);
    if (condition(checkpoint)) return checkpoint;
    await new Promise((r) => setTimeout(r, 20));
  }
};

beforeAll(async () => {
  readStore = await openReadStore(config);
  db = readStore.db;
});
afterAll(async () => {
  await db.dropDatabase();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a projector process killed mid-catch-up', () => {
  it('resumes after a restart and ends identical to a from-scratch rebuild', async () => {
    const store = await openSqliteEventStore({ path: storePath });
    const keys = await openSqlitePersonalDataKeyStore({ path: keysPath });
    await appendWorkload(store, keys, { events: 6000, label: 'kill' });
    const head = await store.headPosition();

    const first = startProjector();
    const checkpointAtKill = await checkpointWhen((checkpoint) => checkpoint >= 0);
    first.kill('SIGKILL'); // no chance to finish its batch or save another checkpoint
    await exited(first);
    expect(checkpointAtKill).toBeLessThan(head);

    const second = startProjector();
    await checkpointWhen((checkpoint) => checkpoint === head);
    second.kill('SIGTERM');
    await exited(second);

    const liveVersion = await currentVersion(db, auditHistoryProjection.name);
    const live = await versionChecksums(db, auditHistoryProjection, liveVersion);
    expect(live.rows?.count).toBe(6000);

    const rebuilt = await rebuildProjection(
      { db, store, decode: createEventDecoder({ keys, registry: eventRegistry }) },
      auditHistoryProjection,
    );
    expect(rebuilt.version).toBeGreaterThan(liveVersion);
    expect(await versionChecksums(db, auditHistoryProjection, rebuilt.version)).toEqual(live);
    await store.close();
    await keys.close();
  });
});
