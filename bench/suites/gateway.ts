import { rmSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pino from 'pino';
import { decodeEvents } from '../../commands/event-codec';
import { eventRegistry } from '../../commands/event-registry';
import { SqliteEventStore } from '../../commands/event-store/sqlite-event-store';
import { createPersonalDataProtector } from '../../commands/personal-data';
import { InMemoryPersonalDataKeyStore } from '../../commands/personal-data-key-store';
import { systemActor } from '../../domain/actor';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { userDecider } from '../../domain/user/user-decider';
import { buildApp } from '../../gateway/app';
import { createGatewayServices } from '../../gateway/services';
import { handleCommand } from '../../commands/command-handler';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { projections } from '../../projections/registry';
import { createMailer } from '../../workflows/email/smtp-mailer';
import { benchConfig } from '../bench-config';
import type { BenchSuite, Figure } from '../harness';
import { userStream } from '../../contracts/stream-ids';
import { openReadStore } from '../../projections/read-store/open-read-store';

/**
 * The gateway under autocannon with a signed-in session (issue 4): a read endpoint (the team list,
 * GET /api/users: session, membership check and the users read model) and a command endpoint (a user
 * edit, PUT /api/users/:id: session, CSRF, load the user's stream, decide, append), each beside a bare
 * Fastify hello-world measured in the same run on the same machine.
 */

type Load = { requestsPerSecond: number; p50: number; p99: number; errors: number };

const load = async (options: autocannon.Options): Promise<Load> => {
  const result = await autocannon(options);
  const errors = result.errors + result.timeouts + result.non2xx;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
  };
};

const startHelloWorld = async () => {
  const app = Fastify();
  app.get('/', () => ({ hello: 'world' }));
  app.put('/', () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}`, close: () => app.close() };
};

/** The whole gateway with its projectors in this process, on a throw-away database and event store. */
const startGateway = async () => {
  // The per-address rate limit would answer most of the load with 429: the bench measures the work behind it.
  const config = { ...benchConfig('gateway'), PLATFORM_ADMIN_EMAILS: [], RATE_LIMIT_PER_MINUTE: 100_000_000 };
  const dir = config.DATA_DIR;
  const readStore = await openReadStore(config);
  const { db } = readStore;
  const store = new SqliteEventStore({ path: join(dir, 'events.sqlite') });
  const writeSide = {
    store,
    registry: eventRegistry,
    personalData: createPersonalDataProtector({
      keys: new InMemoryPersonalDataKeyStore(),
      registry: eventRegistry,
    }),
  };
  const decode = (events: Parameters<typeof decodeEvents>[1]) =>
    decodeEvents(writeSide, events, { lenient: true });
  const logger = pino({ level: 'silent' });
  const processors = projections.map(
    (projection) => new ProjectionProcessor({ db, store, decode, projection, logger }),
  );
  for (const processor of processors) processor.start();
  const mailer = createMailer(config);
  const services = await createGatewayServices({ config, db, source: { writeSide, decode }, mailer });
  const app = await buildApp({
    config,
    logger,
    health: () => Promise.resolve({ process: 'gateway', ok: true, checks: [] }),
    webRoot: '/nonexistent',
    services,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    writeSide,
    close: async () => {
      await app.close();
      await Promise.all(processors.map((processor) => processor.stop()));
      mailer.close();
      await store.close();
      await db.dropDatabase();
      await readStore.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** Registers a user over HTTP, gives them a company, and returns the headers of their session. */
const signIn = async (gateway: Awaited<ReturnType<typeof startGateway>>) => {
  const cookies = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      cookies.set(name, value);
    }
  };
  const cookie = () => [...cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  const tokenResponse = await fetch(`${gateway.url}/api/auth/token`);
  remember(tokenResponse);
  const { csrfToken } = (await tokenResponse.json()) as { csrfToken: string };
  const headers = () => ({ cookie: cookie(), 'x-csrf-token': csrfToken, 'content-type': 'application/json' });
  const registered = await fetch(`${gateway.url}/api/auth/register`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({
      givenName: 'Bench',
      familyName: 'Mark',
      email: 'bench@example.test',
      password: 'Bench-mark-42',
    }),
  });
  remember(registered);
  const { user } = (await registered.json()) as { user: { Id: number } };
  const now = new Date();
  const actor = { ...systemActor };
  await handleCommand(
    tenantDecider,
    {
      streamId: 'tenant-1',
      commandId: 'bench-tenant',
      command: {
        type: 'CreateTenant',
        data: { tenantId: 1, name: 'Bench Co', classification: 'BUSINESS' },
        now,
        actor,
      },
    },
    gateway.writeSide,
  );
  const joined = await handleCommand(
    userDecider,
    {
      streamId: userStream(user.Id),
      commandId: 'bench-join',
      command: {
        type: 'JoinCreatedTenant',
        data: { tenantId: 1, tenantClassification: 'BUSINESS' },
        now,
        actor,
      },
    },
    gateway.writeSide,
  );
  const switched = await fetch(`${gateway.url}/api/auth/switchTenant`, {
    method: 'POST',
    headers: { ...headers(), 'x-read-after': String(joined.position) },
    body: JSON.stringify({ tenantId: 1 }),
  });
  if (!switched.ok) throw new Error(`switchTenant: ${switched.status} ${await switched.text()}`);
  remember(switched);
  // The position cookie would make every request wait for a projector; the bench measures steady state.
  cookies.delete('lw_pos');
  return { userId: user.Id, headers: headers() };
};

const figure = (name: string, measured: Load, baseline: Load): Figure[] => [
  {
    name: `${name} throughput`,
    unit: 'req/s',
    value: measured.requestsPerSecond,
    baseline: { name: 'bare Fastify hello-world', value: baseline.requestsPerSecond },
    higherIsBetter: true,
  },
  {
    name: `${name} p50`,
    unit: 'ms',
    value: measured.p50,
    baseline: { name: 'hello-world p50', value: baseline.p50 },
    higherIsBetter: false,
  },
  {
    name: `${name} p99`,
    unit: 'ms',
    value: measured.p99,
    baseline: { name: 'hello-world p99', value: baseline.p99 },
    higherIsBetter: false,
  },
];

export const suite: BenchSuite = {
  name: 'gateway',
  description:
    'autocannon on GET /api/users and PUT /api/users/:id with a signed-in session, beside a bare Fastify hello-world',
  params: { seconds: 10, connections: 10 },
  run: async (params, { log }) => {
    const duration = params.seconds ?? 10;
    const connections = params.connections ?? 10;
    const hello = await startHelloWorld();
    const gateway = await startGateway();
    try {
      const session = await signIn(gateway);
      const common = { connections, duration, headers: session.headers };
      // Warm both servers (JIT, connection pools) before measuring.
      await load({ url: hello.url, connections, duration: 2 });
      await load({ ...common, url: `${gateway.url}/api/users`, duration: 2 });

      log(`hello-world GET, ${duration}s x ${connections} connections`);
      const helloGet = await load({ url: hello.url, connections, duration });
      log('GET /api/users');
      const read = await load({ ...common, url: `${gateway.url}/api/users` });
      log('hello-world PUT');
      const helloPut = await load({
        url: hello.url,
        method: 'PUT',
        connections,
        duration,
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      log('PUT /api/users/:id (a job title edit: one event appended per request)');
      let n = 0;
      const write = await load({
        ...common,
        url: `${gateway.url}/api/users/${session.userId}`,
        method: 'PUT',
        requests: [
          {
            method: 'PUT',
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({ JobTitle: `Title ${(n += 1)}` }),
            }),
          },
        ],
      });
      for (const [name, result] of [
        ['read', read],
        ['command', write],
      ] as const) {
        if (result.errors > 0) log(`${name}: ${result.errors} requests failed or were not 2xx`);
      }
      return [...figure('GET /api/users', read, helloGet), ...figure('PUT /api/users/:id', write, helloPut)];
    } finally {
      await gateway.close();
      await hello.close();
    }
  },
};
