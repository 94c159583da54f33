import { MongoClient } from 'mongodb';
import { createSessionStore, idleMinutes } from '../../gateway/auth/session-store';
import { isolatedNames, testConfig } from '../harness/isolation';

const config = testConfig(isolatedNames(__filename));
const client = new MongoClient(config.MONGO_URL);
const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 9, 0) + minute * 60_000);
const owner = { userId: 7, tenantId: 3, isPlatformAdmin: false, resetPasswordRequired: false };

afterAll(async () => {
  await client.db().dropDatabase();
  await client.close();
});

describe('sessions', () => {
  it('resumes a session from its token and keeps it alive while the user is active', async () => {
    const store = await createSessionStore(client.db());
    const { token, session } = await store.create(owner, at(0));
    expect(session.idleExpiresAt).toEqual(at(idleMinutes));

    expect(await store.resume(token, at(20))).toMatchObject({ userId: 7, tenantId: 3 });
    // Without the activity at minute 20 the session would have ended at minute 30; each resume moves the deadline.
    expect(await store.resume(token, at(45))).toMatchObject({
      userId: 7,
      idleExpiresAt: at(45 + idleMinutes),
    });
    expect(await store.resume('not-a-token', at(45))).toBeNull();
  });

  it('ends a session after 30 idle minutes', async () => {
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
