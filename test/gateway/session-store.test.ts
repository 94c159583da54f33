import { createSessionStore, idleMinutes } from '../../gateway/auth/session-store';
import { isolatedNames, testConfig } from '../harness/isolation';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';

const config = testConfig(isolatedNames(__filename));
let readStore: ReadStore;
beforeAll(async () => {
  readStore = await openReadStore(config);
});
const client = { db: () => readStore.db };
const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 9, 0) + minute * 60_000);
const owner = { userId: 7, tenantId: 3, resetPasswordRequired: false };

afterAll(async () => {
  await client.db().dropDatabase();
  await readStore.close();
});

describe('sessions', () => {
  it('resumes a session from its token and keeps it alive while the user is active', async () => {
    const store = await createSessionStore(client.db());
    const { token, session } = await store.create(owner, at(0));
    expect(session.idleExpiresAt).toEqual(at(idleMinutes));

    expect(await store.resume(token, at(10))).toMatchObject({ userId: 7, tenantId: 3 });
    // Without the activity at minute 10 the session would have ended at minute 15; each resume moves the deadline.
    expect(await store.resume(token, at(24))).toMatchObject({
      userId: 7,
      idleExpiresAt: at(24 + idleMinutes),
    });
    expect(await store.resume('not-a-token', at(24))).toBeNull();
  });

  it('ends a session after 15 idle minutes (900 s, portal.md and admin.md)', async () => {
    const store = await createSessionStore(client.db());
    const { token } = await store.create(owner, at(0));
    expect(idleMinutes * 60).toBe(900);
    expect(await store.resume(token, at(14))).not.toBeNull();
    const { token: idle } = await store.create(owner, at(0));
    expect(await store.resume(idle, at(15))).toBeNull();
  });

  it('forgets a platform-admin flag stored by an earlier release', async () => {
    const store = await createSessionStore(client.db());
    const { token } = await store.create(owner, at(0));
    await client
      .db()
      .collection('sessions')
      .updateMany({ userId: 7 }, { $set: { isPlatformAdmin: true } });
    expect(await store.resume(token, at(1))).not.toHaveProperty('isPlatformAdmin');
  });

  it('deletes a session that passed its idle deadline, so it stays ended', async () => {
    const store = await createSessionStore(client.db());
    const { token } = await store.create(owner, at(0));
    expect(await store.resume(token, at(idleMinutes))).toBeNull();
    expect(await store.resume(token, at(1))).toBeNull(); // gone for good, not merely expired
  });

  it('never stores the token itself', async () => {
    const store = await createSessionStore(client.db());
    const { token } = await store.create(owner, at(0));
    const raw = JSON.stringify(await client.db().collection('sessions').find().toArray());
    expect(raw).not.toContain(token);
  });

  it('revokes every session of a user except the one making the change', async () => {
    const store = await createSessionStore(client.db());
    const laptop = await store.create({ ...owner, userId: 9 }, at(0));
    const phone = await store.create({ ...owner, userId: 9 }, at(0));
    const other = await store.create({ ...owner, userId: 10 }, at(0));

    expect(await store.revokeAllOf(9, { except: laptop.token })).toBe(1);
    expect(await store.resume(phone.token, at(1))).toBeNull();
    expect(await store.resume(laptop.token, at(1))).not.toBeNull();
    expect(await store.resume(other.token, at(1))).not.toBeNull();

    await store.revoke(laptop.token);
    expect(await store.resume(laptop.token, at(2))).toBeNull();
  });

  it('switches tenant and clears the reset flag in place', async () => {
    const store = await createSessionStore(client.db());
    const { token } = await store.create({ ...owner, resetPasswordRequired: true }, at(0));
    await store.update(token, { tenantId: 12, resetPasswordRequired: false });
    expect(await store.resume(token, at(1))).toMatchObject({ tenantId: 12, resetPasswordRequired: false });
  });
});
