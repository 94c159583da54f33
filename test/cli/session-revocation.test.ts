import pino from 'pino';
import { demoUserEmail, seedDemo } from '../../cli/seed-demo';
import { startCluster, type LedgerwiseCluster, type RoleProcess } from '../harness/ledgerwise-cluster';
import { httpBrowser } from '../harness/http-browser';

/**
 * Issue 13: sessions are cached in each gateway process (ADR 29), yet a session ended through one
 * gateway is refused by another on its very next request: two gateway processes on one event store
 * and one read store, each with its own warm cache.
 */
jest.setTimeout(600_000);

let cluster: LedgerwiseCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

/** One browser: its own cookie jar and CSRF token, whichever gateway it reaches. */
const browser = () => {
  const { call, fetchCsrf } = httpBrowser();
  const signIn = async (base: string, password: string) => {
    await fetchCsrf(base);
    for (let tries = 0; tries < 240; tries += 1) {
      const response = await call(base, '/api/auth/login', {
        method: 'POST',
        body: { email: demoUserEmail, password },
      });
      if (response.status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 500)); // the seeded user is not projected yet
    }
    throw new Error('the seeded user never signed in');
  };
  const self = async (base: string) => (await call(base, '/api/auth/self')).status;
  return { call, signIn, self };
};

describe('a session ended through one gateway process', () => {
  it('is refused by the other gateway process on its next request', async () => {
    cluster = await startCluster(__filename, ['projector', 'gateway', 'gateway']);
    const [, gatewayA, gatewayB] = cluster.processes as [RoleProcess, RoleProcess, RoleProcess];
    await seedDemo(cluster.config, pino({ level: 'silent' }));
    const password = cluster.config.SEED_ADMIN_PASSWORD;

    // Two browsers of the same user, both known to gateway A (its cache is warm for both).
    const laptop = browser();
    const phone = browser();
    await laptop.signIn(gatewayA.base, password);
    await phone.signIn(gatewayB.base, password);
    for (let i = 0; i < 2; i += 1) {
      expect(await laptop.self(gatewayA.base)).toBe(200);
      expect(await phone.self(gatewayA.base)).toBe(200);
    }

    // A password change through B ends every other session of the user: A refuses the laptop at once.
    const change = await phone.call(gatewayB.base, '/api/auth/resetPassword', {
      method: 'POST',
      body: { password: 'Another-Long-Passphrase-2026!', currentPassword: password },
    });
    expect(change.status).toBe(200);
    expect(await laptop.self(gatewayA.base)).toBe(401);
    expect(await phone.self(gatewayA.base)).toBe(200);

    // Logging out through B ends the phone's session for A at once.
    expect(
      (await phone.call(gatewayB.base, '/api/auth/logout', { method: 'POST', body: {} })).status,
    ).toBeLessThan(400);
    expect(await phone.self(gatewayA.base)).toBe(401);
  });
});
