import { MongoClient } from 'mongodb';
import pino from 'pino';
import { handleCommand, type CommandHandlerDeps } from '../../commands/command-handler';
import { decodeEvents } from '../../commands/event-codec';
import { eventRegistry } from '../../commands/event-registry';
import { createPersonalDataProtector } from '../../commands/personal-data';
import { InMemoryPersonalDataKeyStore } from '../../commands/personal-data-key-store';
import { runWithRequestContext } from '../../commands/request-context';
import { useTempSqliteFiles } from '../../commands/testing/temp-sqlite-files';
import { StreamHistoryResponse } from '../../contracts/stream-history';
import type { Actor } from '../../domain/actor';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { buildApp } from '../../gateway/app';
import { createSessionStore } from '../../gateway/auth/session-store';
import { isolatedNames, testConfig } from '../harness/isolation';

const config = testConfig(isolatedNames(__filename));
const client = new MongoClient(config.MONGO_URL);
const files = useTempSqliteFiles();
const admin: Actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };
const now = new Date('2025-05-01T09:00:00.000Z');

afterAll(async () => {
  await client.db().dropDatabase();
  await client.close();
});

const setUp = async () => {
  const store = files.openStore();
  const deps: CommandHandlerDeps = {
    store,
    registry: eventRegistry,
    personalData: createPersonalDataProtector({
      keys: new InMemoryPersonalDataKeyStore(),
      registry: eventRegistry,
    }),
  };
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
      deps,
    ),
  );
  const sessions = await createSessionStore(client.db());
  const app = await buildApp({
    config,
    logger: pino({ level: 'silent' }),
    health: () => Promise.resolve({ process: 'gateway', ok: true, checks: [] }),
    webRoot: '/nonexistent',
    services: { sessions, events: { store, decode: (events) => decodeEvents(deps, events) } },
  });
  const cookieFor = async (isPlatformAdmin: boolean) => {
    const { token } = await sessions.create(
      { userId: isPlatformAdmin ? 1 : 2, tenantId: 8, isPlatformAdmin, resetPasswordRequired: false },
      new Date(),
    );
    return `lw_session=${token}`;
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
