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
import { measurePeakRss } from '../sync-bench-seller';
import type { BenchSuite, Figure } from '../harness';
import { userStream } from '../../contracts/stream-ids';
import { openReadStore } from '../../projections/read-store/open-read-store';
import { startLive } from '../../gateway/live/live-service';
import { currentCollection } from '../../projections/framework/read-model-versions';
import { tenantsProjection, type TenantDocument } from '../../projections/tenants/tenants-projection';
import {
  usersProjection,
  type MembershipDocument,
  type UserDocument,
} from '../../projections/users/users-projection';
import type { Db } from 'mongodb';

/**
 * The gateway under autocannon with a signed-in session (issue 4): a read endpoint (the team list,
 * GET /api/users: session, membership check and the users read model) and a command endpoint (a user
 * edit, PUT /api/users/:id: session, CSRF, load the user's stream, decide, append), each beside a bare
 * Fastify hello-world measured in the same run on the same machine.
 */

type Load = {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** Queries (SELECT) the embedded read store ran per request, projectors included; writes are not seen. */
  statementsPerRequest?: number;
};

const load = async (options: autocannon.Options, statements?: () => number): Promise<Load> => {
  const before = statements?.() ?? 0;
  const result = await autocannon(options);
  const errors = result.errors + result.timeouts + result.non2xx;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
    ...(statements && result.requests.total > 0
      ? { statementsPerRequest: (statements() - before) / result.requests.total }
      : {}),
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

/**
 * The whole gateway with its projectors in this process, on a throw-away database and event store;
 * with `live`, also the live notifier and /api/live (the live suite).
 */
export const startGateway = async (options: { live?: boolean } = {}) => {
  // The per-address rate limit would answer most of the load with 429: the bench measures the work behind it.
  const config = { ...benchConfig('gateway'), PLATFORM_ADMIN_EMAILS: [], RATE_LIMIT_PER_MINUTE: 100_000_000 };
  const dir = config.DATA_DIR;
  // Counted so that a run on a busy machine still shows the read store's work per request exactly.
  let statements = 0;
  const readStore = await openReadStore(config, {
    observeStatements: () => {
      statements += 1;
    },
  });
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
  const live = options.live ? await startLive({ store, db, logger }) : undefined;
  if (live) services.live = live.service;
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
    port: address.port,
    config,
    db,
    services,
    writeSide,
    processors,
    statements: () => statements,
    close: async () => {
      await app.close();
      await live?.stop();
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
export const signIn = async (gateway: Awaited<ReturnType<typeof startGateway>>) => {
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

const SEED_BATCH = 5000;
/** Seeded ids start far above the ones registration and the bench's own tenant take. */
const SEED_FIRST_ID = 1_000_000;

/**
 * Writes `tenants` tenants and `users` users (each a member of one tenant, round robin) straight into
 * the read models in batches through the read store, as the projectors would have left them: the
 * event store stays empty, so the figures measure reads and commands over large read models only.
 */
export const seedReadModels = async (
  db: Db,
  counts: { tenants: number; users: number },
  log: (m: string) => void,
) => {
  const tenants = await currentCollection<'tenants', TenantDocument>(db, tenantsProjection, 'tenants');
  const users = await currentCollection<'users' | 'memberships', UserDocument>(db, usersProjection, 'users');
  const memberships = await currentCollection<'users' | 'memberships', MembershipDocument>(
    db,
    usersProjection,
    'memberships',
  );
  const createdAt = new Date(Date.UTC(2025, 0, 1));
  const tenantDoc = (id: number): TenantDocument => ({
    _id: id,
    position: 0,
    Name: `Seeded Co ${id}`,
    sortName: `seeded co ${id}`,
    FriendlyName: null,
    Classification: 'BUSINESS',
    UsageType: 'NORMAL',
    BusinessModel: null,
    Industry: null,
    PartnerId: null,
    Referrer: null,
    ReferrerIdentifier: null,
    LandingPage: null,
    PlanIdentifier: null,
    // Queries fill missing reporting fields with the spec's defaults.
    Reporting: {} as TenantDocument['Reporting'],
    LogoURL: null,
    PendingLogoURL: null,
    PendingLogoContentType: null,
    LogoSubmittedAt: null,
    LastLogoDecision: null,
    LogoReviewedAt: null,
    CreatedBy: null,
    createdAt,
    status: 'active',
    deletedAt: null,
    disableReason: null,
    purged: false,
    purgedAt: null,
  });
  const userDoc = (id: number): UserDocument => ({
    _id: id,
    position: 0,
    Email: `seeded-${id}@example.test`,
    GivenName: 'Seeded',
    FamilyName: `User ${id}`,
    Name: `Seeded User ${id}`,
    sortName: `seeded user ${id}`,
    JobTitle: null,
    PrimaryClassification: 'MEMBER',
    signupProvider: null,
    hasPassword: true,
    Logins: 0,
    LastLogin: null,
    LastLoginMethod: null,
    createdAt,
    DefaultPartnerTenantId: null,
    EmailVerified: true,
    PasswordResetRequired: false,
    deleted: false,
    deletedAt: null,
  });
  const membershipDoc = (userId: number, tenantId: number): MembershipDocument => ({
    _id: `${userId}:${tenantId}`,
    position: 0,
    userId,
    tenantId,
    Status: 'ACTIVE',
    Role: 'USER',
    Classification: 'MEMBER',
    JobTitle: null,
    SendWeekly: false,
    SendMonthly: false,
    InviteId: null,
    joinedAt: createdAt,
    userDeleted: false,
  });
  const started = Date.now();
  const inBatches = async (count: number, write: (from: number, size: number) => Promise<unknown>) => {
    for (let from = 0; from < count; from += SEED_BATCH)
      await write(from, Math.min(SEED_BATCH, count - from));
  };
  await inBatches(counts.tenants, (from, size) =>
    tenants.insertMany(Array.from({ length: size }, (_, i) => tenantDoc(SEED_FIRST_ID + from + i))),
  );
  await inBatches(counts.users, async (from, size) => {
    const ids = Array.from({ length: size }, (_, i) => SEED_FIRST_ID + from + i);
    await users.insertMany(ids.map(userDoc));
    await memberships.insertMany(
      ids.map((id, i) => membershipDoc(id, SEED_FIRST_ID + ((from + i) % Math.max(1, counts.tenants)))),
    );
  });
  log(
    `seeded ${counts.tenants} tenants, ${counts.users} users in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
};

/** Issue 13's targets on an empty store: throughput against hello-world, and an absolute p99. */
type RouteTargets = { ratio: number; p99Ms: number };
const readTargets: RouteTargets = { ratio: 0.1, p99Ms: 15 };
const commandTargets: RouteTargets = { ratio: 0.02, p99Ms: 50 };

const figure = (name: string, measured: Load, baseline: Load, targets: RouteTargets): Figure[] => [
  {
    name: `${name} throughput`,
    unit: 'req/s',
    value: measured.requestsPerSecond,
    baseline: { name: 'bare Fastify hello-world', value: baseline.requestsPerSecond },
    higherIsBetter: true,
    target: { kind: 'ratio', op: '>=', value: targets.ratio, source: 'issue 13' },
  },
  {
    name: `${name} p50`,
    unit: 'ms',
    value: measured.p50,
    baseline: { name: 'hello-world p50', value: baseline.p50 },
    higherIsBetter: false,
  },
  ...(measured.statementsPerRequest === undefined
    ? []
    : [
        {
          name: `${name} read-store queries per request (projectors included)`,
          unit: 'queries',
          value: measured.statementsPerRequest,
          baseline: { name: 'hello-world', value: 0 },
          higherIsBetter: false,
        } satisfies Figure,
      ]),
  {
    name: `${name} p99`,
    unit: 'ms',
    value: measured.p99,
    baseline: { name: 'hello-world p99', value: baseline.p99 },
    higherIsBetter: false,
    target: { kind: 'absolute', op: '<=', value: targets.p99Ms, source: 'issue 13' },
  },
];

/**
 * autocannon options for the measured command: PUT /api/users/:id editing the signed-in user's job
 * title, a new title on every request (`next` numbers them) so each appends one event.
 */
const jobTitleEdits = (
  baseUrl: string,
  userId: number,
  next: () => number,
): Pick<autocannon.Options, 'url' | 'method' | 'requests'> => ({
  url: `${baseUrl}/api/users/${userId}`,
  method: 'PUT',
  requests: [
    {
      method: 'PUT',
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({ JobTitle: `Title ${next()}` }),
      }),
    },
  ],
});

type Measured = { read: Load; write: Load };

/** GET /api/users and PUT /api/users/:id under autocannon on one gateway, after a warm-up. */
const measureGateway = async (
  gateway: Awaited<ReturnType<typeof startGateway>>,
  options: { duration: number; connections: number; log: (m: string) => void },
): Promise<Measured> => {
  const { duration, connections, log } = options;
  const session = await signIn(gateway);
  const common = { connections, duration, headers: session.headers };
  await load({ ...common, url: `${gateway.url}/api/users`, duration: 2 });
  log('GET /api/users');
  const read = await load({ ...common, url: `${gateway.url}/api/users` }, gateway.statements);
  log('PUT /api/users/:id (a job title edit: one event appended per request)');
  let n = 0;
  const write = await load(
    { ...common, ...jobTitleEdits(gateway.url, session.userId, () => (n += 1)) },
    gateway.statements,
  );
  for (const [name, result] of [
    ['read', read],
    ['command', write],
  ] as const) {
    if (result.errors > 0) log(`${name}: ${result.errors} requests failed or were not 2xx`);
  }
  return { read, write };
};

/** One autocannon round of the interleaved comparison, with the process's CPU time around it. */
type Round = {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
  cpuMicros: number;
  queries: number;
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Rounds of one route on one gateway as one Load: requests over seconds, the rounds' median p50 and p99. */
const combineRounds = (rounds: Round[]): Load & { cpuPerRequestMicros: number } => {
  const requests = rounds.reduce((sum, round) => sum + round.requests, 0);
  const seconds = rounds.reduce((sum, round) => sum + round.seconds, 0);
  return {
    requestsPerSecond: requests / seconds,
    p50: median(rounds.map((round) => round.p50)),
    p99: median(rounds.map((round) => round.p99)),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    statementsPerRequest: rounds.reduce((sum, round) => sum + round.queries, 0) / requests,
    cpuPerRequestMicros: rounds.reduce((sum, round) => sum + round.cpuMicros, 0) / requests,
  };
};

type InterleavedSide = { read: ReturnType<typeof combineRounds>; write: ReturnType<typeof combineRounds> };

/**
 * GET and PUT on the full gateway and on a second, empty one in alternating rounds (full, empty,
 * empty, full, ...): both sides of the 0.8x comparison in the same minutes, so the machine's load
 * and its drift (other processes, a warmer JIT, the kernel) fall on both alike. Measured one after
 * the other, ten seconds each a minute and a half apart, the PUT's figure swung from 0.71x to 1.09x
 * between two empty stores (bench/README.md, 29th pass).
 */
const measureInterleaved = async (
  sides: { full: Awaited<ReturnType<typeof startGateway>>; empty: Awaited<ReturnType<typeof startGateway>> },
  options: { duration: number; connections: number; rounds: number; log: (m: string) => void },
): Promise<{ full: InterleavedSide; empty: InterleavedSide }> => {
  const { duration, connections, rounds, log } = options;
  const prepared = await Promise.all(
    (['full', 'empty'] as const).map(async (side) => {
      const gateway = sides[side];
      const session = await signIn(gateway);
      return { side, gateway, session, edits: 0, read: [] as Round[], write: [] as Round[] };
    }),
  );
  const seconds = duration / rounds;
  const round = async (
    side: (typeof prepared)[number],
    route: 'read' | 'write',
    length = seconds,
  ): Promise<Round> => {
    const { gateway, session } = side;
    const common = { connections, duration: length, headers: session.headers };
    const cpuBefore = process.cpuUsage();
    const queriesBefore = gateway.statements();
    const result = await autocannon(
      route === 'read'
        ? { ...common, url: `${gateway.url}/api/users` }
        : { ...common, ...jobTitleEdits(gateway.url, session.userId, () => (side.edits += 1)) },
    );
    const cpu = process.cpuUsage(cpuBefore);
    return {
      requests: result.requests.total,
      seconds: result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
      cpuMicros: cpu.user + cpu.system,
      queries: gateway.statements() - queriesBefore,
    };
  };
  // The same warm-up as the empty-store half: two seconds of GET on each side.
  for (const side of prepared) await round(side, 'read', 2);
  for (const route of ['read', 'write'] as const) {
    log(
      `${route === 'read' ? 'GET /api/users' : 'PUT /api/users/:id'}, ${rounds} rounds of ${seconds} s each side`,
    );
    for (let i = 0; i < rounds; i += 1) {
      const order = i % 2 === 0 ? prepared : [...prepared].reverse();
      for (const side of order) side[route].push(await round(side, route));
    }
  }
  for (const side of prepared) {
    for (const route of ['read', 'write'] as const) {
      const errors = side[route].reduce((sum, r) => sum + r.errors, 0);
      if (errors > 0) log(`${side.side} ${route}: ${errors} requests failed or were not 2xx`);
    }
  }
  const [full, empty] = prepared.map((side) => ({
    read: combineRounds(side.read),
    write: combineRounds(side.write),
  }));
  return { full: full!, empty: empty! };
};

/** The figures at scale, each against the same figure on an empty store (issue 13: at least 0.8x). */
const scaleFigures = (label: string, empty: InterleavedSide, full: InterleavedSide): Figure[] => {
  const target = { kind: 'ratio', op: '>=', value: 0.8, source: 'issue 13' } as const;
  const lowerTarget = {
    kind: 'ratio',
    op: '<=',
    value: 1.25,
    source: 'issue 13 (0.8x, inverted for latency)',
  } as const;
  const baselineName = 'empty store, interleaved rounds';
  return [
    ['GET /api/users', empty.read, full.read],
    ['PUT /api/users/:id', empty.write, full.write],
  ].flatMap(([name, before, after]) => {
    const [route, a, b] = [
      name as string,
      before as InterleavedSide['read'],
      after as InterleavedSide['read'],
    ];
    return [
      {
        name: `${route} throughput, ${label}`,
        unit: 'req/s',
        value: b.requestsPerSecond,
        baseline: { name: baselineName, value: a.requestsPerSecond },
        higherIsBetter: true,
        target,
      },
      {
        name: `${route} process CPU per request (gateway and autocannon), ${label}`,
        unit: 'µs',
        value: b.cpuPerRequestMicros,
        baseline: { name: baselineName, value: a.cpuPerRequestMicros },
        higherIsBetter: false,
      },
      {
        name: `${route} read-store queries per request, ${label}`,
        unit: 'queries',
        value: b.statementsPerRequest ?? 0,
        baseline: { name: baselineName, value: a.statementsPerRequest ?? 0 },
        higherIsBetter: false,
      },
      {
        name: `${route} p50, ${label}`,
        unit: 'ms',
        value: b.p50,
        baseline: { name: `${baselineName}, p50`, value: a.p50 },
        higherIsBetter: false,
      },
      {
        name: `${route} p99, ${label}`,
        unit: 'ms',
        value: b.p99,
        baseline: { name: `${baselineName}, p99`, value: a.p99 },
        higherIsBetter: false,
        target: lowerTarget,
      },
    ];
  });
};

export const suite: BenchSuite = {
  name: 'gateway',
  description:
    'autocannon on GET /api/users and PUT /api/users/:id with a signed-in session, beside a bare Fastify hello-world; with --tenants/--users, again over read models holding that many, beside a second empty store in alternating rounds (--rounds, even)',
  params: { seconds: 10, connections: 10, tenants: 0, users: 0, rounds: 4 },
  run: async (params, { log }) => {
    const duration = params.seconds ?? 10;
    const connections = params.connections ?? 10;
    const tenants = params.tenants ?? 0;
    const users = params.users ?? 0;
    const hello = await startHelloWorld();
    const gateway = await startGateway();
    let empty: Measured;
    let emptyPeakMiB: number;
    let helloGet: Load;
    let helloPut: Load;
    try {
      // Warm the hello-world server (JIT) before measuring.
      await load({ url: hello.url, connections, duration: 2 });
      log(`hello-world GET, ${duration}s x ${connections} connections`);
      helloGet = await load({ url: hello.url, connections, duration });
      log('hello-world PUT');
      helloPut = await load({
        url: hello.url,
        method: 'PUT',
        connections,
        duration,
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      log('empty store');
      ({ result: empty, peakMiB: emptyPeakMiB } = await measurePeakRss(() =>
        measureGateway(gateway, { duration, connections, log }),
      ));
    } finally {
      await gateway.close();
      if (tenants === 0 && users === 0) await hello.close();
    }
    const restingMiB = process.memoryUsage().rss / 2 ** 20;
    // The gateway and autocannon share this process, as they share the hello-world baseline.
    const peakFigure = (label: string, peakMiB: number): Figure => ({
      name: `peak RSS of the bench process (gateway and autocannon), ${label}`,
      unit: 'MiB',
      value: peakMiB,
      baseline: { name: 'RSS after the empty-store run', value: restingMiB },
      higherIsBetter: false,
    });
    const figures = [
      ...figure('GET /api/users', empty.read, helloGet, readTargets),
      ...figure('PUT /api/users/:id', empty.write, helloPut, commandTargets),
      peakFigure('empty store', emptyPeakMiB),
    ];
    if (tenants === 0 && users === 0) return figures;
    await hello.close();
    const full = await startGateway();
    let empty2: Awaited<ReturnType<typeof startGateway>> | undefined;
    try {
      // The projectors create the current collections as they start; seed once they have.
      while (full.processors.some((processor) => processor.status().version === null))
        await new Promise((resolve) => setTimeout(resolve, 50));
      await seedReadModels(full.db, { tenants, users }, log);
      log(`${tenants} tenants, ${users} users, beside an empty store in alternating rounds`);
      // A second empty store, started after the seeding like the full one's measurement: the 0.8x
      // comparison is measured against it in the same minutes (measureInterleaved).
      empty2 = await startGateway();
      const emptySide = empty2;
      const { result: atScale, peakMiB } = await measurePeakRss(() =>
        measureInterleaved(
          { full, empty: emptySide },
          { duration, connections, rounds: Math.max(1, params.rounds ?? 4), log },
        ),
      );
      const label = `${tenants} tenants, ${users} users`;
      return [
        ...figures,
        ...scaleFigures(label, atScale.empty, atScale.full),
        peakFigure(`${label} and the interleaved empty store`, peakMiB),
      ];
    } finally {
      await empty2?.close();
      await full.close();
    }
  },
};
