import { loginMessages } from '../../contracts/auth';
import { limits } from '../../gateway/auth/login-throttle';
import { signUp } from './fixtures';
import { useGatewayWorld, type World } from './gateway-world';

const world = useGatewayWorld(__filename);
const minutes = (n: number) => new Date(Date.UTC(2025, 5, 1, 12, n));

/** A login from a given client address (the socket's, as trustProxy is off in tests), with its CSRF token. */
const loginFrom = async (w: World, ip: string, credentials: { email: string; password: string }) => {
  const token = await w.app.inject({ method: 'GET', url: '/api/auth/token', remoteAddress: ip });
  const csrfCookie = token.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return w.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    headers: { cookie: csrfCookie, 'x-csrf-token': token.json<{ csrfToken: string }>().csrfToken },
    payload: credentials,
  });
};

describe('login lockout an attacker cannot aim at an account', () => {
  it('locks the guessing address out of the account while its owner still signs in from elsewhere', async () => {
    const { email, password } = await signUp(world, { name: 'owner' });
    for (let i = 0; i < limits.pair; i += 1) {
      const wrong = await loginFrom(world, '203.0.113.10', { email, password: `Wrong-${i}-Guess` });
      expect(wrong.statusCode).toBe(401);
    }
    const attacker = await loginFrom(world, '203.0.113.10', { email, password });
    expect(attacker.statusCode).toBe(429);
    expect(attacker.json()).toMatchObject({ message: loginMessages.tooManyAttempts });
    expect(Number(attacker.headers['retry-after'])).toBeGreaterThan(29 * 60);

    const owner = await loginFrom(world, '198.51.100.7', { email, password });
    expect(owner.statusCode).toBe(200);
  });

  it('counts every one of 20 parallel wrong attempts', async () => {
    const ip = '203.0.113.20';
    // Twenty accounts, one guess each: no pair lock can stop an attempt before it is counted.
    const answers = await Promise.all(
      Array.from({ length: limits.address }, (_, i) =>
        loginFrom(world, ip, { email: world.email(`parallel${i}`), password: `Wrong-${i}-Guess` }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 401));
    const who = { email: world.email('parallel0'), ip };
    expect(await world.services.loginThrottle.failureCounts(who, world.clock.now())).toEqual({
      pair: 1,
      address: limits.address,
      account: 1,
    });
  });

  it('locks an address that guesses across many accounts, not the accounts from other addresses', async () => {
    const throttle = world.services.loginThrottle;
    const ip = '203.0.113.30';
    for (let i = 0; i < limits.address; i += 1) {
      await throttle.recordFailure({ email: `user${i}@acme.test`, ip }, minutes(10));
    }
    expect(await throttle.lockedUntil({ email: 'someone-new@acme.test', ip }, minutes(11))).toEqual(
      minutes(40),
    );
    expect(await throttle.lockedUntil({ email: 'user1@acme.test', ip: '10.0.0.9' }, minutes(11))).toBeNull();
  });

  it('delays an account progressively only when many addresses fail against it', async () => {
    const throttle = world.services.loginThrottle;
    const email = 'target@acme.test';
    // Each address stops at the pair limit: reaching the account limit takes ten of them.
    for (let a = 0; a < limits.account / limits.pair; a += 1) {
      for (let i = 0; i < limits.pair; i += 1)
        await throttle.recordFailure({ email, ip: `10.1.0.${a}` }, minutes(0));
    }
    const fresh = { email, ip: '10.2.0.1' };
    const first = await throttle.lockedUntil(fresh, minutes(0));
    expect(first).toEqual(new Date(minutes(0).getTime() + 1000));
    await throttle.recordFailure({ email, ip: '10.2.0.2' }, minutes(1));
    await throttle.recordFailure({ email, ip: '10.2.0.3' }, minutes(1));
    expect(await throttle.lockedUntil(fresh, minutes(1))).toEqual(new Date(minutes(1).getTime() + 4000));
    // The delay ends long before the full lockout at this count.
    expect(await throttle.lockedUntil(fresh, minutes(31))).toBeNull();
  });

  it('forgets failures older than the window, and a success clears only its own address', async () => {
    const throttle = world.services.loginThrottle;
    const who = { email: 'staff@acme.test', ip: '10.0.0.2' };
    for (let i = 0; i < limits.pair - 1; i += 1) await throttle.recordFailure(who, minutes(i));
    await throttle.recordFailure(who, minutes(45)); // a new window: the count starts again
    expect(await throttle.lockedUntil(who, minutes(46))).toBeNull();
    expect(await throttle.failureCounts(who, minutes(46))).toEqual({ pair: 1, address: 1, account: 1 });

    await throttle.recordSuccess(who);
    expect(await throttle.failureCounts(who, minutes(46))).toEqual({ pair: 0, address: 1, account: 1 });
  });
});
