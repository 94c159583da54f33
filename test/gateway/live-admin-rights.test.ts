import { systemActor } from '../../domain/actor';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { userDecider } from '../../domain/user/user-decider';
import { tenantStream, userStream } from '../../contracts/stream-ids';
import { companyFor, platformAdmin, signUp } from './fixtures';
import { useGatewayWorld } from './gateway-world';
import { connectLive, type LiveClient } from './live-client';

// Heartbeats far apart: what the test sees comes from the user's change, not from a periodic recheck.
const world = useGatewayWorld(__filename, {}, { live: { heartbeatMs: 600_000 } });

beforeAll(async () => {
  await world.app.listen({ host: '127.0.0.1', port: 0 });
});

const open: LiveClient[] = [];
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});

const rename = (tenantId: number, name: string) =>
  world.run(tenantDecider, tenantStream(tenantId), {
    type: 'RenameTenant',
    data: { name },
    now: world.clock.now(),
    actor: systemActor,
  });

describe('live: platform-admin rights of an open socket (issue 12)', () => {
  it('stops a demoted admin’s socket receiving another tenant’s notices at once', async () => {
    const member = await signUp(world, { name: 'watched' });
    const tenantId = await companyFor(world, member, { name: 'Watched Co' });
    const admin = await platformAdmin(world);
    const live = await connectLive(world, admin.browser);
    open.push(live);
    await live.next('hello');
    live.send({ type: 'subscribe', tenantId });
    expect(await live.next('hello')).toMatchObject({ tenantId });
    const seen = await rename(tenantId, 'Seen By Admin');
    await live.next('invalidate', { where: (n) => n.position === seen.position });

    // The address that made them an admin is replaced: the rights go with it.
    await world.run(userDecider, userStream(admin.session.user.Id), {
      type: 'ChangeUserEmail',
      data: { email: `former.${admin.email}`, emailInUse: false },
      now: world.clock.now(),
      actor: systemActor,
    });
    expect(await live.next('hello')).toMatchObject({ tenantId: null });
    const unseen = await rename(tenantId, 'Not For Former Admin');
    // Pings until one is answered after the rename's notice went out: had the socket had it, it would be here.
    const head = await world.services.writeSide.store.headPosition();
    for (let caughtUp = false; !caughtUp;) {
      live.send({ type: 'ping' });
      caughtUp = (await live.next('heartbeat')).position >= head;
    }
    expect(live.messages.some((m) => m.type === 'invalidate' && m.position === unseen.position)).toBe(false);
    live.send({ type: 'subscribe', tenantId });
    expect(await live.next('error')).toMatchObject({ code: 'forbidden' });
  });
});
