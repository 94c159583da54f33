import { MongoClient } from 'mongodb';
import { createLoginThrottle, limits } from '../../gateway/auth/login-throttle';
import { isolatedNames, testConfig } from '../harness/isolation';

const config = testConfig(isolatedNames(__filename));
const client = new MongoClient(config.MONGO_URL);
const minutes = (n: number) => new Date(Date.UTC(2025, 5, 1, 12, n));

afterAll(async () => {
  await client.db().dropDatabase();
  await client.close();
});

describe('login lockout', () => {
  it('locks an account for 30 minutes after repeated failures, from any address', async () => {
    const throttle = await createLoginThrottle(client.db());
    const who = { email: 'Owner@Acme.test', ip: '10.0.0.1' };
    for (let i = 0; i < limits.account - 1; i += 1) await throttle.recordFailure(who, minutes(i));
    expect(await throttle.lockedUntil(who, minutes(4))).toBeNull();

    await throttle.recordFailure(who, minutes(5));
    expect(await throttle.lockedUntil({ email: 'owner@acme.test', ip: '10.9.9.9' }, minutes(6))).toEqual(
      minutes(35),
    );
    expect(await throttle.lockedUntil(who, minutes(35))).toBeNull();
  });

  it('forgets failures older than the window and clears an account on success', async () => {
    const throttle = await createLoginThrottle(client.db());
    const who = { email: 'staff@acme.test', ip: '10.0.0.2' };
    for (let i = 0; i < limits.account - 1; i += 1) await throttle.recordFailure(who, minutes(i));
    await throttle.recordFailure(who, minutes(45)); // a new window: count starts again
    expect(await throttle.lockedUntil(who, minutes(46))).toBeNull();

    for (let i = 0; i < limits.account - 2; i += 1) await throttle.recordFailure(who, minutes(46));
    await throttle.recordSuccess(who);
    await throttle.recordFailure(who, minutes(47));
    expect(await throttle.lockedUntil(who, minutes(47))).toBeNull();
  });

  it('locks a client address that guesses across many accounts', async () => {
    const throttle = await createLoginThrottle(client.db());
    for (let i = 0; i < limits.address; i += 1) {
      await throttle.recordFailure({ email: `user${i}@acme.test`, ip: '10.6.6.6' }, minutes(10));
    }
    expect(
      await throttle.lockedUntil({ email: 'someone-new@acme.test', ip: '10.6.6.6' }, minutes(11)),
    ).toEqual(minutes(40));
    expect(
      await throttle.lockedUntil({ email: 'someone-new@acme.test', ip: '10.0.0.9' }, minutes(11)),
    ).toBeNull();
  });
});
