import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SessionResponse } from '../../contracts/auth';
import { StreamHistoryResponse } from '../../contracts/stream-history';
import { systemActor } from '../../domain/actor';
import { userDecider } from '../../domain/user/user-decider';
import { signUp } from './fixtures';
import { useGatewayWorld } from './gateway-world';
import { userStream } from '../../contracts/stream-ids';

/**
 * Issue 12, defect 1 and the admin flag, on the real gateway over HTTP (inject would normalise the
 * very spellings under test): no spelling of an API path reaches a handler without the checks of the
 * canonical one, and platform-admin rights follow the user's verified address at every request.
 */
const world = useGatewayWorld(__filename);
let port = 0;
/** Whoever registered the world's PLATFORM_ADMIN_EMAILS address (one per world); verified by the tests that need it. */
let listed: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  await world.app.listen({ host: '127.0.0.1', port: 0 });
  port = (world.app.server.address() as AddressInfo).port;
  listed = await signUp(world, { name: 'admin' });
});

const run = async (type: 'VerifyUserEmail' | 'ChangeUserEmail', email: string) => {
  const now = world.clock.now();
  const streamId = userStream(listed.session.user.Id);
  await (type === 'VerifyUserEmail'
    ? world.run(userDecider, streamId, { type, data: { email }, now, actor: systemActor })
    : world.run(userDecider, streamId, {
        type,
        data: { email, emailInUse: false },
        now,
        actor: systemActor,
      }));
  await world.settle();
};

const raw = (target: string, options: { method?: string; body?: unknown; cookie?: string } = {}) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: target,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(options.cookie ? { cookie: options.cookie } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

const cookieOf = (browser: { cookies: Map<string, string> }) =>
  [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

describe('API paths in other spellings', () => {
  const spellingsOf = (path: string) => {
    const rest = path.slice('/api/'.length);
    return [
      `/%61pi/${rest}`,
      `/api/%${rest.charCodeAt(0).toString(16)}${rest.slice(1)}`,
      `//api/${rest}`,
      `/api//${rest}`,
      `/API/${rest}`,
      `/Api/${rest}`,
      `/api/./${rest}`,
      `/assets/../api/${rest}`,
      `${path}/`,
      `http://x${path}`,
    ];
  };

  it('never reach the admin replay of a user stream: no email, no password hash (the issue’s attack)', async () => {
    const admin = listed;
    const member = await signUp(world, { name: 'member' });
    const target = `/api/admin/streams/user-${admin.session.user.Id}/history`;
    for (const cookie of [undefined, cookieOf(member.browser)]) {
      for (const spelling of spellingsOf(target)) {
        const response = await raw(spelling, { cookie });
        expect([spelling, response.status < 300]).toEqual([spelling, false]);
        expect(response.body).not.toContain(admin.email);
        expect(response.body).not.toContain('scrypt');
      }
    }
    // The canonical spelling is what decides, and it refuses guests and members.
    expect((await raw(target)).status).toBe(401);
    expect((await raw(target, { cookie: cookieOf(member.browser) })).status).toBe(403);
  });

  it('never run a write without a session and an anti-forgery token (POST /%61pi/tasks)', async () => {
    const before = await world.services.writeSide.store.headPosition();
    for (const spelling of spellingsOf('/api/tasks')) {
      const response = await raw(spelling, { method: 'POST', body: { name: 'update_demo_seller' } });
      expect([spelling, response.status < 300]).toEqual([spelling, false]);
    }
    // No job, no event of any kind.
    expect(await world.services.writeSide.store.headPosition()).toBe(before);
  });

  it('are refused for what they are: 400 for encodings, dot segments and absolute-form, 404 for case and slashes', async () => {
    const statuses = await Promise.all(
      spellingsOf('/api/stats').map(async (spelling) => [spelling, (await raw(spelling)).status]),
    );
    expect(statuses).toEqual([
      ['/%61pi/stats', 400],
      ['/api/%73tats', 400],
      ['//api/stats', 400],
      ['/api//stats', 400],
      ['/API/stats', 404],
      ['/Api/stats', 404],
      ['/api/./stats', 400],
      ['/assets/../api/stats', 400],
      ['/api/stats/', 404],
      ['http://x/api/stats', 400],
    ]);
  });
});

describe('platform-admin rights', () => {
  const self = async (browser: { get: (url: string) => Promise<{ json: () => unknown }> }) =>
    SessionResponse.parse((await browser.get('/api/auth/self')).json()).user;

  it('need the listed address verified, and follow it within the same session', async () => {
    // Anyone may register the listed address; until they prove they hold it, it gives nothing.
    const claimant = listed;
    expect(claimant.session.user.isPlatformAdmin).toBe(false);
    const replay = `/api/admin/streams/user-${claimant.session.user.Id}/history`;
    expect((await claimant.browser.get(replay)).statusCode).toBe(403);

    await run('VerifyUserEmail', claimant.email);
    // The same session, not a new sign-in: the flag is read again at each request.
    expect(await self(claimant.browser)).toMatchObject({ isPlatformAdmin: true, Role: 'PLATFORM_ADMIN' });
    expect((await claimant.browser.get(replay)).statusCode).toBe(200);

    await run('ChangeUserEmail', world.email('moved-on'));
    expect(await self(claimant.browser)).toMatchObject({ isPlatformAdmin: false });
    expect((await claimant.browser.get(replay)).statusCode).toBe(403);

    // Back on the listed address: unverified again until proved.
    await run('ChangeUserEmail', claimant.email);
    expect((await claimant.browser.get(replay)).statusCode).toBe(403);
    await run('VerifyUserEmail', claimant.email);
    expect((await claimant.browser.get(replay)).statusCode).toBe(200);
  });
});

describe('the admin replay of a stream', () => {
  it('shows no password hash, in the events or in the states', async () => {
    await run('VerifyUserEmail', listed.email);
    const admin = listed;
    const user = await signUp(world, { name: 'hashed' });
    const [registered] = await world.services.decode(
      await world.services.writeSide.store.readStream(userStream(user.session.user.Id), { maxCount: 1 }),
    );
    const hash = (registered?.data as { PasswordHash?: string } | undefined)?.PasswordHash;
    expect(hash).toBeTruthy();

    const response = await admin.browser.get(`/api/admin/streams/user-${user.session.user.Id}/history`);
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(String(hash));
    const history = StreamHistoryResponse.parse(response.json());
    expect(history.steps[0]?.event.data).toMatchObject({ PasswordHash: '[redacted]' });
    expect(history.steps[0]?.stateAfter).toMatchObject({ passwordHash: '[redacted]' });
    // What an admin does need is still there.
    expect(response.body).toContain(user.email);
  });
});
