import { SessionResponse } from '../../contracts/auth';
import { ErrorResponse } from '../../contracts/errors';
import { liveCloseCodes } from '../../contracts/live';
import { jobDecider } from '../../domain/job/job-decider';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { userDecider } from '../../domain/user/user-decider';
import { TENANTS } from '../../projections/tenants/tenants-projection';
import { companyFor, platformAdmin, signUp } from './fixtures';
import { useGatewayWorld, type World } from './gateway-world';
import { connectLive, liveUrl, refusedUpgrade, type LiveClient } from './live-client';
import { jobStream, tenantStream, userStream } from '../../contracts/stream-ids';

const heartbeatMs = 400;
const world = useGatewayWorld(__filename, {}, { live: { heartbeatMs } });

beforeAll(async () => {
  await world.app.listen({ host: '127.0.0.1', port: 0 });
});

const open: LiveClient[] = [];
const connect = async (...args: Parameters<typeof connectLive>) => {
  const client = await connectLive(...args);
  open.push(client);
  return client;
};
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});

const owner = { userId: 0, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };
const rename = (tenantId: number, name: string) =>
  world.run(tenantDecider, tenantStream(tenantId), {
    type: 'RenameTenant',
    data: { name },
    now: world.clock.now(),
    actor: owner,
  });

const memberOfNewCompany = async (name: string) => {
  const member = await signUp(world, { name });
  const tenantId = await companyFor(world, member, { name: `${name} Co` });
  return { ...member, tenantId };
};

/** Waits until the socket has had every notice of the events so far, so later assertions see only new ones. */
const caughtUp = async (live: LiveClient) => {
  const head = await world.services.writeSide.store.headPosition();
  live.send({ type: 'ping' });
  return live.next('heartbeat', { where: (m) => m.position >= head });
};

let admin: Awaited<ReturnType<typeof platformAdmin>> | undefined;
const theAdmin = async (w: World) => (admin ??= await platformAdmin(w));

describe('live: /api/live before the upgrade', () => {
  it('refuses a guest with 401 and never upgrades', async () => {
    const refused = await refusedUpgrade(liveUrl(world), { origin: world.config.PUBLIC_URL });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'unauthorized' });
  });

  it('refuses a page of another origin with 403, and a bad cursor with 422', async () => {
    const { browser } = await signUp(world, { name: 'origin' });
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const foreign = await refusedUpgrade(liveUrl(world), { cookie, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const bad = await refusedUpgrade(liveUrl(world, '?after=soon'), {
      cookie,
      origin: world.config.PUBLIC_URL,
    });
    expect(bad.status).toBe(422);
    const problem = ErrorResponse.parse(JSON.parse(bad.body));
    expect(problem.code).toBe('validation');
    expect(problem.properties?.after).toBeTruthy();
  });
});

describe('live: invalidation notices', () => {
  it('tells a member about a change on their tenant once a query already returns it', async () => {
    const member = await memberOfNewCompany('notice');
    const live = await connect(world, member.browser);
    expect(await live.next('hello')).toMatchObject({ tenantId: member.tenantId });
    await caughtUp(live);
    const before = live.messages.length;

    // While the tenants read model lags, the notice waits for it.
    const lagging = await world.pauseProjection(TENANTS);
    await rename(member.tenantId, 'Renamed Live Co');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(live.messages.slice(before).filter((m) => m.type === 'invalidate')).toEqual([]);
    lagging.resume();
    const notice = await live.next('invalidate', { where: (n) => n.entity === 'tenant' });
    expect(notice).toMatchObject({ entity: 'tenant', id: member.tenantId, tenantId: member.tenantId });
    // The "done means": refetching on receipt shows the change, with no read-after cookie.
    const self = SessionResponse.parse((await member.browser.get('/api/auth/self')).json());
    expect(self.tenant?.Name).toBe('Renamed Live Co');
  });

  it('sends a user of another tenant nothing of it, and refuses their subscribing to it', async () => {
    const member = await memberOfNewCompany('insider');
    const outsider = await memberOfNewCompany('outsider');
    const theirs = await connect(world, outsider.browser);
    await theirs.next('hello');

    await rename(member.tenantId, 'Private Rename');
    const theirRename = await rename(outsider.tenantId, 'Outsider Rename');
    // Notices go out in event order: had the first reached this socket, it would come first.
    const first = await theirs.next('invalidate', {
      where: (n) => n.position >= theirRename.position,
    });
    expect(first).toMatchObject({ entity: 'tenant', id: outsider.tenantId });
    expect(theirs.messages.some((m) => 'tenantId' in m && m.tenantId === member.tenantId)).toBe(false);

    theirs.send({ type: 'subscribe', tenantId: member.tenantId });
    expect(await theirs.next('error')).toMatchObject({ code: 'forbidden' });
    theirs.send({ type: 'subscribe', tenantId: 'all' });
    expect(await theirs.next('error')).toMatchObject({ code: 'validation' });
  });

  it('lets a platform admin watch any tenant', async () => {
    const member = await memberOfNewCompany('watched');
    const { browser } = await theAdmin(world);
    const live = await connect(world, browser);
    expect(await live.next('hello')).toMatchObject({ tenantId: null });

    live.send({ type: 'subscribe', tenantId: member.tenantId });
    expect(await live.next('hello')).toMatchObject({ tenantId: member.tenantId });
    await live.next('refetch');
    const renamed = await rename(member.tenantId, 'Watched By Admin');
    const notice = await live.next('invalidate', { where: (n) => n.position === renamed.position });
    expect(notice).toMatchObject({ entity: 'tenant', id: member.tenantId });
  });
});

describe('live: connection upkeep', () => {
  it('sends heartbeats, answers pings, and ends a socket that stops answering pings', async () => {
    const { browser } = await signUp(world, { name: 'beat' });
    const live = await connect(world, browser);
    await live.next('heartbeat', { timeoutMs: heartbeatMs * 3 });
    live.send({ type: 'ping' });
    await live.next('heartbeat');

    const deaf = await connect(world, browser, { autoPong: false });
    const closedWithin = await Promise.race([
      deaf.closed.then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), heartbeatMs * 5)),
    ]);
    expect(closedWithin).toBe(true);
    expect(live.socket.readyState).toBe(live.socket.OPEN);
  });

  it('closes the socket at the next heartbeat once the session has ended', async () => {
    const { browser } = await signUp(world, { name: 'leaving' });
    const live = await connect(world, browser);
    await live.next('hello');
    await browser.post('/api/auth/logout');
    const closed = await live.closed;
    expect(closed.code).toBe(liveCloseCodes.sessionEnded);
  });

  it('asks a reconnecting client to refetch only when it missed a notice', async () => {
    const member = await memberOfNewCompany('resume');
    const first = await connect(world, member.browser);
    await first.next('hello');
    const cursor = await caughtUp(first);
    first.close();
    await first.closed;

    const quiet = await connect(world, member.browser, { after: cursor.position });
    await quiet.next('hello');
    quiet.send({ type: 'ping' });
    await quiet.next('heartbeat');
    expect(quiet.messages.some((m) => m.type === 'refetch')).toBe(false);

    // A change while this client is away; another socket shows when it has gone out.
    quiet.close();
    const witness = await connect(world, member.browser);
    const renamed = await rename(member.tenantId, 'Changed While Away');
    await witness.next('invalidate', { where: (n) => n.position === renamed.position });

    const back = await connect(world, member.browser, { after: cursor.position });
    await back.next('hello');
    await back.next('refetch');
  });
});

describe('live: membership and tenant changes', () => {
  it('stops a disabled member’s notices, and follows a switch of tenant on subscribe', async () => {
    const member = await memberOfNewCompany('disabled');
    const colleague = await signUp(world, { name: 'colleague' });
    await world.run(userDecider, userStream(colleague.session.user.Id), {
      type: 'JoinCreatedTenant',
      data: { tenantId: member.tenantId, tenantClassification: 'BUSINESS' },
      now: world.clock.now(),
      actor: {
        userId: colleague.session.user.Id,
        isPlatformAdmin: false,
        tenantRole: null,
        isAdvisor: false,
      },
    });
    await world.settle();
    expect(
      (await colleague.browser.post('/api/auth/switchTenant', { tenantId: member.tenantId })).statusCode,
    ).toBe(200);
    const live = await connect(world, colleague.browser);
    expect(await live.next('hello')).toMatchObject({ tenantId: member.tenantId });

    await world.run(userDecider, userStream(colleague.session.user.Id), {
      type: 'ChangeMembershipStatus',
      data: { tenantId: member.tenantId, status: 'INACTIVE', toggleReports: false },
      now: world.clock.now(),
      actor: {
        userId: member.session.user.Id,
        isPlatformAdmin: false,
        tenantRole: 'ADMIN',
        isAdvisor: false,
      },
    });
    // Its own membership notice triggers the recheck; a heartbeat that reads the read model first
    // may get there before it. Either way the socket then watches nothing.
    expect(await live.next('hello')).toMatchObject({ tenantId: null });
    const renamed = await rename(member.tenantId, 'After Disabling');
    // A heartbeat at the rename's position comes after any notice of it.
    await live.next('heartbeat', { where: (m) => m.position >= renamed.position });
    expect(live.messages.filter((m) => m.type === 'invalidate' && m.entity === 'tenant')).toEqual([]);

    const own = await companyFor(world, colleague, { name: 'Colleague Own Co' });
    live.send({ type: 'subscribe', tenantId: own });
    expect(await live.next('hello')).toMatchObject({ tenantId: own });
    await live.next('refetch');
  });
});

describe('live: job progress', () => {
  it('sends a job’s progress notices in order, with its tenant and status', async () => {
    const member = await memberOfNewCompany('jobs');
    const live = await connect(world, member.browser);
    await live.next('hello');

    const jobId = 700_000 + Math.floor(Math.random() * 100_000);
    const stream = jobStream(jobId);
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
    await world.run(jobDecider, stream, {
      type: 'CreateJob',
      data: {
        jobId,
        kind: 'sync',
        tenantId: member.tenantId,
        sellerId: 41,
        parameters: {},
        workflowId: `wf-${jobId}`,
      },
      now: at(0),
    });
    for (const [done, second] of [
      [1, 1],
      [2, 2],
      [3, 3],
    ] as const) {
      await world.run(jobDecider, stream, {
        type: 'RecordJobProgress',
        data: { stage: 'customers', done, total: 3 },
        now: at(second),
      });
    }
    await world.run(jobDecider, stream, { type: 'CompleteJob', data: { result: null }, now: at(4) });

    const progress = [];
    for (let i = 0; i < 6; i += 1) progress.push(await live.next('job-progress'));
    expect(progress.map((p) => [p.status, p.stage, p.done])).toEqual([
      ['queued', null, 0],
      ['running', null, 0],
      ['running', 'customers', 1],
      ['running', 'customers', 2],
      ['running', 'customers', 3],
      ['completed', 'customers', 3],
    ]);
    expect(progress[0]).toMatchObject({
      jobId,
      kind: 'sync',
      tenantId: member.tenantId,
      sellerId: 41,
      total: null,
    });
    const positions = progress.map((p) => p.position);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // Lifecycle changes also invalidate job lists; progress alone does not.
    const jobNotices = live.messages.filter((m) => m.type === 'invalidate' && m.entity === 'job');
    expect(jobNotices).toHaveLength(3);
  });
});
