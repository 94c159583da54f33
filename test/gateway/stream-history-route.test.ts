import { runWithRequestContext } from '../../commands/request-context';
import { StreamHistoryResponse } from '../../contracts/stream-history';
import type { Actor } from '../../domain/actor';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { handleCommand } from '../../commands/command-handler';
import { platformAdmin, signUp } from './fixtures';
import { useGatewayWorld } from './gateway-world';

const world = useGatewayWorld(__filename);
const admin: Actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };
const now = new Date('2025-05-01T09:00:00.000Z');

let adminSignedIn: ReturnType<typeof platformAdmin> | undefined;

const setUp = async () => {
  await runWithRequestContext({ actor: 'user:1', ip: '10.1.1.1', method: 'POST', url: '/api/tenants' }, () =>
    handleCommand(
      tenantDecider,
      {
        streamId: 'tenant-8',
        commandId: 'create-8',
        command: {
          type: 'CreateTenant',
          data: { tenantId: 8, name: 'Acme', classification: 'BUSINESS' },
          now,
          actor: admin,
        },
      },
      world.services.writeSide,
    ),
  );
  const { app } = world;
  const cookieFor = async (isPlatformAdmin: boolean) => {
    const { browser } = isPlatformAdmin
      ? await (adminSignedIn ??= platformAdmin(world))
      : await signUp(world, { name: `member${Math.random()}` });
    return [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  };
  return { app, cookieFor };
};

describe('GET /api/admin/streams/{streamId}/history', () => {
  it('gives a platform admin every event with its request details and the state after it', async () => {
    const { app, cookieFor } = await setUp();
    const response = await app.inject({
      method: 'GET',
      url: '/api/admin/streams/tenant-8/history',
      headers: { cookie: await cookieFor(true) },
    });
    expect(response.statusCode).toBe(200);
    const history = StreamHistoryResponse.parse(response.json());
    expect(history.steps.map((s) => [s.event.type, s.event.metadata.ip, s.event.metadata.url])).toEqual([
      ['TenantCreated', '10.1.1.1', '/api/tenants'],
    ]);
    expect(history.steps[0]?.stateAfter).toMatchObject({ status: 'active', name: 'Acme' });
  });

  it('refuses guests with 401 and other users with 403', async () => {
    const { app, cookieFor } = await setUp();
    const guest = await app.inject({ method: 'GET', url: '/api/admin/streams/tenant-8/history' });
    expect(guest.statusCode).toBe(401);
    expect(guest.json()).toMatchObject({ message: 'Access Denied', code: 'unauthorized' });
    const member = await app.inject({
      method: 'GET',
      url: '/api/admin/streams/tenant-8/history',
      headers: { cookie: await cookieFor(false) },
    });
    expect(member.statusCode).toBe(403);
  });

  it('answers a bad stream id with 422 and an unknown stream with 404', async () => {
    const { app, cookieFor } = await setUp();
    const cookie = await cookieFor(true);
    const bad = await app.inject({
      method: 'GET',
      url: '/api/admin/streams/Tenant%208/history',
      headers: { cookie },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ properties: { streamId: 'not a stream id' } });
    const missing = await app.inject({
      method: 'GET',
      url: '/api/admin/streams/tenant-999/history',
      headers: { cookie },
    });
    expect(missing.statusCode).toBe(404);
  });
});
