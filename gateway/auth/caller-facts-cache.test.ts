import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointSignal } from '../../projections/framework/checkpoint-signal';
import { PROJECTION_CHECKPOINTS, saveCheckpoint } from '../../projections/framework/read-model-versions';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { USERS } from '../../projections/users/users-projection';
import { createCallerFactsCache, callerFactsTtlMs, type CachedCallerFacts } from './caller-facts-cache';

/**
 * The in-process cache of caller facts (ADR 29), on the embedded read store, with the projector's
 * writes made by hand: two caches over one file stand for two gateway processes. A membership revoked
 * and projected must reach a process whose cache is warm on its next lookup.
 */
let dir: string;
let store: ReadStore;
let membershipReads = 0;
let clock = new Date('2026-11-25T12:00:00Z');
let processA: CachedCallerFacts;
let processB: CachedCallerFacts;

const project = async (position: number, status: 'ACTIVE' | 'DISABLED') => {
  await store.db.collection<{ _id: string }>('memberships_v1').updateOne(
    { _id: '7:1' },
    {
      $set: {
        position,
        userId: 7,
        tenantId: 1,
        Status: status,
        Role: 'ADMIN',
        Classification: 'CLIENT',
        userDeleted: false,
      },
    },
    { upsert: true },
  );
  await saveCheckpoint(store.db, { name: USERS, version: 1 }, position);
};

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'caller-facts-cache-'));
  membershipReads = 0;
  store = await openReadStore(
    { DATA_DIR: dir },
    {
      observeStatements: ({ collection, sql }) => {
        if (collection === 'memberships_v1' && sql.startsWith('SELECT')) membershipReads += 1;
      },
    },
  );
  await store.db
    .collection<{ _id: number; [field: string]: unknown }>('users_v1')
    .insertOne({ _id: 7, deleted: false, Email: 'a@example.com', EmailVerified: true });
  await store.db
    .collection<{ _id: number; [field: string]: unknown }>('tenants_v1')
    .insertOne({ _id: 1, status: 'active' });
  await project(1, 'ACTIVE');
  processA = createCallerFactsCache(store.db, () => clock);
  processB = createCallerFactsCache(store.db, () => clock);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const query = { userId: 7, tenantId: 1 };

describe('the caller facts cache', () => {
  it('answers again without reading the memberships while nothing was projected', async () => {
    expect((await processA(query)).membership).toMatchObject({ status: 'ACTIVE', role: 'ADMIN' });
    const reads = membershipReads;
    expect((await processA(query)).membership).toMatchObject({ status: 'ACTIVE' });
    expect(membershipReads).toBe(reads);
  });

  it('sees a membership revoked and projected, in every process, on the next lookup', async () => {
    await processA(query);
    await processB(query);
    await project(2, 'DISABLED');
    expect((await processA(query)).membership?.status).toBe('DISABLED');
    expect((await processB(query)).membership?.status).toBe('DISABLED');
  });

  it('sees a change a projector in this process announced before its checkpoint is saved', async () => {
    // ADR 52: a live projector announces its position at once and saves it within 10 ms; a request
    // in between (the next one of the user who just enabled a member) must not get cached facts.
    const projectorEnds = checkpointSignal.projecting(store.db.databaseName, USERS);
    try {
      await processA(query);
      await store.db
        .collection<{ _id: string }>('memberships_v1')
        .updateOne({ _id: '7:1' }, { $set: { Status: 'DISABLED', position: 2 } });
      checkpointSignal.moved({ database: store.db.databaseName, name: USERS, version: 1, position: 2 });
      expect((await processA(query)).membership?.status).toBe('DISABLED');
    } finally {
      projectorEnds();
    }
  });

  it('reads the read models again after the safety TTL', async () => {
    await processA(query);
    // A change that no checkpoint announced (a repair by hand) shows once the TTL has passed.
    await store.db
      .collection<{ _id: string }>('memberships_v1')
      .updateOne({ _id: '7:1' }, { $set: { Role: 'USER' } });
    expect((await processA(query)).membership?.role).toBe('ADMIN');
    clock = new Date(clock.getTime() + callerFactsTtlMs);
    expect((await processA(query)).membership?.role).toBe('USER');
  });

  it('reads the read models for a request that waits for its own write', async () => {
    await processA(query);
    const reads = membershipReads;
    await processA({ ...query, afterPosition: 1 });
    expect(membershipReads).toBeGreaterThan(reads);
  });
  it('reads no checkpoint while the store is quiet, and sees at once what another connection projected', async () => {
    // A second connection to the same file: another gateway process (ADR 54).
    let checkpointReads = 0;
    const other = await openReadStore(
      { DATA_DIR: dir },
      {
        observeStatements: ({ collection, sql }) => {
          if (collection === PROJECTION_CHECKPOINTS && sql.startsWith('SELECT')) checkpointReads += 1;
        },
      },
    );
    try {
      const here = createCallerFactsCache(other.db, () => clock);
      await here(query);
      const before = checkpointReads;
      expect(before).toBeGreaterThan(0);
      for (let i = 0; i < 5; i += 1) expect((await here(query)).membership?.status).toBe('ACTIVE');
      expect(checkpointReads).toBe(before);

      await project(2, 'DISABLED');
      expect((await here(query)).membership?.status).toBe('DISABLED');
    } finally {
      await other.close();
    }
  });
});
