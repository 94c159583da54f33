import pino from 'pino';
import { SessionResponse } from '../../contracts/auth';
import { demoUserEmail, seedDemo } from '../../cli/seed-demo';
import { startCluster, type LedgerwiseCluster, type RoleProcess } from '../harness/ledgerwise-cluster';
import { httpBrowser } from '../harness/http-browser';

/**
 * Issue 13, beyond one machine: two gateways, two workers and two projectors as separate processes on
 * one event store and one read-model database. A journey passes through both gateways; each projection
 * is processed by exactly one projector, and the other takes over when that one is killed.
 */
jest.setTimeout(600_000);

let cluster: LedgerwiseCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

const until = async <T>(what: string, probe: () => Promise<T | undefined>, tries = 240): Promise<T> => {
  for (let i = 0; i < tries; i += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`gave up waiting for ${what}`);
};

/** For each projection, which of the projectors process it ('active' in their health report). */
const activeProjectors = async (projectors: RoleProcess[]) => {
  const active = new Map<string, string[]>();
  for (const projector of projectors) {
    const report = await projector.health();
    for (const check of report?.checks ?? []) {
      if (!check.name.startsWith('projection:')) continue;
      const holders = active.get(check.name) ?? [];
      if (check.detail?.startsWith('active')) holders.push(projector.base);
      active.set(check.name, holders);
    }
  }
  return active;
};

const browser = httpBrowser;

describe('several processes of each role', () => {
  it('pass a journey through two gateways, with one projector per projection and takeover', async () => {
    cluster = await startCluster(__filename, [
      'projector',
      'projector',
      'worker',
      'worker',
      'gateway',
      'gateway',
    ]);
    const [projectorA, projectorB, workerA, workerB, gatewayA, gatewayB] = cluster.processes as [
      RoleProcess,
      RoleProcess,
      RoleProcess,
      RoleProcess,
      RoleProcess,
      RoleProcess,
    ];
    const projectors = [projectorA, projectorB];
    await seedDemo(cluster.config, pino({ level: 'silent' }));

    // Exactly one projector processes each projection.
    const settled = await until('one active projector per projection', async () => {
      const active = await activeProjectors(projectors);
      return active.size > 0 && [...active.values()].every((holders) => holders.length === 1)
        ? active
        : undefined;
    });
    expect(settled.size).toBeGreaterThan(5);

    // Sign in through gateway A; gateway B knows the session.
    const user = browser();
    await user.fetchCsrf(gatewayA.base);
    const login = await until('the seeded user to be projected', async () => {
      const response = await user.call(gatewayA.base, '/api/auth/login', {
        method: 'POST',
        body: { email: demoUserEmail, password: cluster!.config.SEED_ADMIN_PASSWORD },
      });
      return response.status === 200 ? response : undefined;
    });
    const session = SessionResponse.parse(await login.json());
    const self = await user.call(gatewayB.base, '/api/auth/self');
    expect(self.status).toBe(200);
    expect(((await self.json()) as { user: { Email: string } }).user.Email).toBe(demoUserEmail);

    // A write through B is read through A at once (read-your-writes across processes).
    const edit = await user.call(gatewayB.base, `/api/users/${session.user.Id}`, {
      method: 'PUT',
      body: { JobTitle: 'Controller' },
    });
    expect(edit.status).toBe(200);
    const read = await user.call(gatewayA.base, `/api/users/${session.user.Id}`);
    expect(((await read.json()) as { JobTitle: string | null }).JobTitle).toBe('Controller');

    // Both workers run, and the seeded DEMO seller is synced by them.
    for (const worker of [workerA, workerB]) expect((await worker.health())?.ok).toBe(true);
    await until('the DEMO seller to be synced', async () => {
      const sellers = (await (await user.call(gatewayA.base, '/api/sellers')).json()) as {
        rows: { Provider: string; Progress?: string }[];
      };
      return sellers.rows.find((s) => s.Provider === 'DEMO')?.Progress === 'completed' ? true : undefined;
    });

    // Kill the projector that holds the most projections without letting it clean up: the other takes
    // every projection over once the leases expire, and the journey goes on.
    const held = (base: string) => [...settled.values()].filter((holders) => holders[0] === base).length;
    const [victim, survivor] =
      held(projectorA.base) >= held(projectorB.base) ? [projectorA, projectorB] : [projectorB, projectorA];
    await victim.kill('SIGKILL');
    await until('the surviving projector to hold every projection', async () => {
      const active = await activeProjectors([survivor]);
      return [...active.values()].every((holders) => holders.length === 1) ? true : undefined;
    });
    const again = await user.call(gatewayA.base, `/api/users/${session.user.Id}`, {
      method: 'PUT',
      body: { JobTitle: 'Chief Financial Officer' },
    });
    expect(again.status).toBe(200);
    const reread = await user.call(gatewayB.base, `/api/users/${session.user.Id}`);
    expect(((await reread.json()) as { JobTitle: string | null }).JobTitle).toBe('Chief Financial Officer');

    // Signing out through B ends the session for A at once.
    expect(
      (await user.call(gatewayB.base, '/api/auth/logout', { method: 'POST', body: {} })).status,
    ).toBeLessThan(400);
    expect((await user.call(gatewayA.base, '/api/auth/self')).status).toBe(401);
  });
});
