import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { createSessionStore, type SessionStore } from './session-store';

/**
 * The in-process session cache (ADR 29), on the embedded read store: two session stores over one
 * file stand for two gateway processes, each with its own cache. A session one of them cached must
 * be refused, or seen changed, as soon as the other ends or changes it.
 */
let dir: string;
let store: ReadStore;
let sessionReads = 0;
let processA: SessionStore;
let processB: SessionStore;
const now = new Date('2026-11-25T12:00:00Z');

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'session-cache-'));
  sessionReads = 0;
  store = await openReadStore(
    { DATA_DIR: dir },
    {
      observeStatements: ({ collection, sql }) => {
        if (collection === 'sessions' && sql.startsWith('SELECT')) sessionReads += 1;
      },
    },
  );
  processA = await createSessionStore(store.db);
  processB = await createSessionStore(store.db);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const signIn = async (userId = 7) =>
  (await processA.create({ userId, tenantId: 1, resetPasswordRequired: false }, now)).token;

describe('the session cache', () => {
  it('answers a repeated lookup without reading the sessions again', async () => {
    const token = await signIn();
    expect(await processA.resume(token, now)).toMatchObject({ userId: 7 });
    const readsAfterFirst = sessionReads;
    expect(await processA.resume(token, new Date(now.getTime() + 1000))).toMatchObject({ userId: 7 });
    expect(sessionReads).toBe(readsAfterFirst);
  });

  it('refuses a session another process logged out, on the next lookup', async () => {
    const token = await signIn();
    expect(await processA.resume(token, now)).not.toBeNull();
    await processB.revoke(token);
    expect(await processA.resume(token, now)).toBeNull();
    expect(await processA.peek(token, now)).toBeNull();
  });

  it('refuses every session of a user another process revoked, and keeps the one excepted', async () => {
    const kept = await signIn();
    const ended = await signIn();
    const otherUser = await signIn(8);
    for (const token of [kept, ended, otherUser]) await processA.resume(token, now);
    await processB.revokeAllOf(7, { except: kept });
    expect(await processA.resume(ended, now)).toBeNull();
    expect(await processA.resume(kept, now)).toMatchObject({ userId: 7 });
    expect(await processA.resume(otherUser, now)).toMatchObject({ userId: 8 });
  });

  it('sees a tenant switch or a reset demand made through another process', async () => {
    const token = await signIn();
    await processA.resume(token, now);
    await processB.update(token, { tenantId: 2, resetPasswordRequired: true });
    expect(await processA.resume(token, now)).toMatchObject({ tenantId: 2, resetPasswordRequired: true });
  });

  it('still ends a session by idle time, and keeps one another process kept alive', async () => {
    const token = await signIn();
    await processA.resume(token, now);
    // Process B sees activity 10 minutes in; at 20 minutes A's cached deadline has passed, B's has not.
    await processB.resume(token, new Date(now.getTime() + 10 * 60_000));
    expect(await processA.resume(token, new Date(now.getTime() + 20 * 60_000))).not.toBeNull();
    expect(await processA.resume(token, new Date(now.getTime() + 40 * 60_000))).toBeNull();
    expect(await processB.resume(token, new Date(now.getTime() + 40 * 60_000))).toBeNull();
  });
});

describe('the session cache on a quiet store (docs/adr/0054)', () => {
  it('reads no epoch while nothing was written, and refuses at once what another connection revoked', async () => {
    // A second connection to the same file: another gateway process.
    let epochReads = 0;
    const other = await openReadStore(
      { DATA_DIR: dir },
      {
        observeStatements: ({ collection, sql }) => {
          if (collection === 'session_epochs' && sql.startsWith('SELECT')) epochReads += 1;
        },
      },
    );
    try {
      const here = await createSessionStore(other.db);
      // Gives the epochs' collection a row (reads of a collection that does not exist yet run no SQL).
      await processA.revoke(await signIn(8));
      const token = await signIn();
      const kept = await signIn();
      expect(await here.resume(token, now)).toMatchObject({ userId: 7 });
      expect(await here.resume(kept, now)).toMatchObject({ userId: 7 });
      const readsBefore = epochReads;

      for (let i = 1; i <= 5; i += 1) {
        expect(await here.resume(token, new Date(now.getTime() + i * 1000))).toMatchObject({ userId: 7 });
      }
      expect(readsBefore).toBeGreaterThan(0);
      expect(epochReads).toBe(readsBefore);

      await processA.revokeAllOf(7, { except: kept });
      expect(await here.resume(token, now)).toBeNull();
      expect(epochReads).toBeGreaterThan(readsBefore);
      expect(await here.resume(kept, now)).toMatchObject({ userId: 7 });
    } finally {
      await other.close();
    }
  });
});
