import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadStore, type ReadStore } from '../read-store/open-read-store';
import { defineProjection } from './projection';
import {
  allocateVersion,
  currentCollection,
  currentVersion,
  dropVersions,
  ensurePointer,
  POINTER_CACHE_MS,
  READ_MODEL_VERSIONS,
  switchVersion,
} from './read-model-versions';

/**
 * The per-process copy of the version pointers (issue 13, docs/adr/0029): two read store handles on one
 * file stand for two processes, each with its own copy. Queries must not read the pointer for every
 * collection they open, yet a rebuild's switch in one process must never leave the other reading a
 * dropped version, and a read-your-writes wait must see the new version at once.
 */
let dir: string;
let processA: ReadStore;
let processB: ReadStore;
let pointerReads = 0;

const projection = defineProjection({
  name: 'widgets',
  collections: { widgets: 'widgets' },
  project: () => [],
});

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pointer-cache-'));
  pointerReads = 0;
  const observeStatements = ({ collection, sql }: { collection: string; sql: string }) => {
    if (collection === READ_MODEL_VERSIONS && sql.startsWith('SELECT')) pointerReads += 1;
  };
  processA = await openReadStore({ DATA_DIR: dir }, { observeStatements });
  processB = await openReadStore({ DATA_DIR: dir }, { observeStatements });
});
afterEach(async () => {
  await processA.close();
  await processB.close();
  rmSync(dir, { recursive: true, force: true });
});

const widgetIn = async (store: ReadStore) =>
  (await currentCollection(store.db, projection, 'widgets')).findOne({ _id: 'w' as never });

describe('the version pointer copy of each process', () => {
  it('opens collections without reading the pointer again while the copy is young', async () => {
    await ensurePointer(processA.db, projection.name);
    await widgetIn(processA);
    const before = pointerReads;
    for (let i = 0; i < 5; i += 1) await widgetIn(processA);
    expect(pointerReads).toBe(before);
  });

  it('keeps the old version readable in another process until its copy of the pointer expired', async () => {
    const { db: a } = processA;
    await ensurePointer(a, projection.name);
    await (await currentCollection(a, projection, 'widgets')).insertOne({ _id: 'w', label: 'old' } as never);
    expect(await widgetIn(processB)).toMatchObject({ label: 'old' }); // B now holds version 1

    const version = await allocateVersion(a, projection.name);
    await a.collection(`widgets_v${version}`).insertOne({ _id: 'w', label: 'new' } as never);
    expect(await switchVersion(a, projection.name, version)).toBe(true);
    expect(await widgetIn(processA)).toMatchObject({ label: 'new' }); // the switching process follows at once

    const started = performance.now();
    const dropping = dropVersions(a, projection, (v) => v < version);
    // Until the drop, B still answers from version 1, which is still there.
    expect(await widgetIn(processB)).toMatchObject({ label: 'old' });
    expect(await dropping).toEqual([1]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(POINTER_CACHE_MS);
    // By the time version 1 is gone, B's copy has expired: it reads the new version.
    expect(await widgetIn(processB)).toMatchObject({ label: 'new' });
  });

  it('follows a switch at once when the pointer is read afresh, as read-your-writes waits do', async () => {
    const { db: a } = processA;
    const { db: b } = processB;
    await ensurePointer(a, projection.name);
    await widgetIn(processB);
    const version = await allocateVersion(a, projection.name);
    await a.collection(`widgets_v${version}`).insertOne({ _id: 'w', label: 'new' } as never);
    await switchVersion(a, projection.name, version);

    expect(await currentVersion(b, projection.name)).toBe(version);
    expect(await widgetIn(processB)).toMatchObject({ label: 'new' });
  });

  it('drops a version no query was pointed at without waiting', async () => {
    const { db: a } = processA;
    await ensurePointer(a, projection.name);
    const version = await allocateVersion(a, projection.name);
    await a.collection(`widgets_v${version}`).insertOne({ _id: 'w', label: 'abandoned' } as never);
    const started = performance.now();
    expect(await dropVersions(a, projection, (v) => v === version)).toEqual([version]);
    expect(performance.now() - started).toBeLessThan(POINTER_CACHE_MS);
  });
});
