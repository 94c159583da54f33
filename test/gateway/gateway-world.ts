import { startActiveCampaignFake, type ActiveCampaignFake } from '../fakes/active-campaign-fake';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { handleCommand, type CommandResult } from '../../commands/command-handler';
import { decodeEvents } from '../../commands/event-codec';
import { eventRegistry } from '../../commands/event-registry';
import { SqliteEventStore } from '../../commands/event-store/sqlite-event-store';
import { createPersonalDataProtector } from '../../commands/personal-data';
import { InMemoryPersonalDataKeyStore } from '../../commands/personal-data-key-store';
import { runWithRequestContext } from '../../commands/request-context';
import type { Config } from '../../contracts/config';
import type { Decider, DomainEvent } from '../../domain/decider';
import { buildApp } from '../../gateway/app';
import { startLive } from '../../gateway/live/live-service';
import { createGatewayServices, type GatewayServices } from '../../gateway/services';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { projectionPositions } from '../../projections/framework/read-your-writes';
import { projections } from '../../projections/registry';
import { createMailer } from '../../workflows/email/smtp-mailer';
import { isolatedNames, testConfig } from '../harness/isolation';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import type { StatementObserver } from '../../projections/read-store/embedded/embedded-collection';

/**
 * The whole gateway on the real local servers, for one test file: the SQLite event store on a
 * temporary file, every projection processor running in-process against the file's own Mongo
 * database, email through MailDev, and a clock the test can move. Browsers are cookie jars that
 * drive the app with `inject`, fetching the CSRF token before their first write as the web app does.
 */
export type World = {
  app: FastifyInstance;
  services: GatewayServices;
  config: Config;
  /** Unique per test file run: put it in emails and names so MailDev and shared servers never mix runs. */
  runId: string;
  clock: { now: () => Date; set: (at: Date) => void; advance: (ms: number) => void; reset: () => void };
  /** A new browser; `remoteAddress` makes it a client of its own (rate limits count per address). */
  browser: (options?: { remoteAddress?: string }) => Browser;
  /** Runs a command as the system, for setting up what no route creates (a platform-only fixture). */
  run: <State, Command extends { now: Date }, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    streamId: string,
    command: Command,
  ) => Promise<CommandResult<Event>>;
  /** Waits until every read model has processed the store's last event. */
  settle: () => Promise<void>;
  /** Stops one read model's processor (a lagging projector) until `resume` is called. */
  pauseProjection: (name: string) => Promise<{ resume: () => void }>;
  /** A unique email address for this run. */
  email: (name: string) => string;
};

export type Browser = {
  request: (options: {
    method: InjectOptions['method'];
    url: string;
    body?: unknown;
    headers?: Record<string, string>;
    /** Leave out the CSRF header (to test that writes need it). */
    withoutCsrf?: boolean;
  }) => Promise<LightMyRequestResponse>;
  get: (url: string) => Promise<LightMyRequestResponse>;
  post: (url: string, body?: unknown) => Promise<LightMyRequestResponse>;
  put: (url: string, body?: unknown) => Promise<LightMyRequestResponse>;
  patch: (url: string, body?: unknown) => Promise<LightMyRequestResponse>;
  delete: (url: string, body?: unknown) => Promise<LightMyRequestResponse>;
  cookies: Map<string, string>;
};

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export type WorldOptions = {
  /** Runs the live notifier and serves /api/live (listen on a port to connect sockets). */
  live?: { heartbeatMs?: number; waitTimeoutMs?: number };
  /** Sees every query the embedded read store runs (tests of index use). */
  observeReadStore?: StatementObserver;
};

export const useGatewayWorld = (
  testFile: string,
  overrides: Record<string, string> = {},
  options: WorldOptions = {},
): World => {
  const names = isolatedNames(testFile);
  const config = testConfig(names, {
    PLATFORM_ADMIN_EMAILS: `admin.${names.runId}@example.test`,
    ...overrides,
  });
  let offsetMs = 0;
  let fixed: Date | null = null;
  const clock = {
    now: () => (fixed ? new Date(fixed) : new Date(Date.now() + offsetMs)),
    set: (at: Date) => {
      fixed = at;
    },
    advance: (ms: number) => {
      if (fixed) fixed = new Date(fixed.getTime() + ms);
      else offsetMs += ms;
    },
    reset: () => {
      fixed = null;
      offsetMs = 0;
    },
  };
  const world = { config, runId: names.runId, clock } as World;
  let readStore: ReadStore | undefined;
  let store: SqliteEventStore | undefined;
  let processors: ProjectionProcessor[] = [];
  let mailer: ReturnType<typeof createMailer> | undefined;
  let stopLive: (() => Promise<void>) | undefined;
  let activeCampaign: ActiveCampaignFake | undefined;
  let dir = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledgerwise-gateway-'));
    // Connecting ActiveCampaign tries the URL and key with a real call: every world has a local
    // ActiveCampaign that takes any key, unless the test file names its own.
    if (!config.ACTIVE_CAMPAIGN_API_URL) {
      activeCampaign = await startActiveCampaignFake();
      activeCampaign.acceptAnyKey(true);
      Object.assign(config, { ACTIVE_CAMPAIGN_API_URL: activeCampaign.url });
    }
    readStore = await openReadStore(config, { observeStatements: options.observeReadStore });
    const { db } = readStore;
    store = new SqliteEventStore({ path: join(dir, 'events.sqlite') });
    const keys = new InMemoryPersonalDataKeyStore();
    const writeSide = {
      store,
      registry: eventRegistry,
      personalData: createPersonalDataProtector({ keys, registry: eventRegistry }),
    };
    const decode = (events: Parameters<typeof decodeEvents>[1]) =>
      decodeEvents(writeSide, events, { lenient: true });
    const logger = pino({ level: 'silent' });
    processors = projections.map(
      (projection) => new ProjectionProcessor({ db, store: writeSide.store, decode, projection, logger }),
    );
    for (const processor of processors) processor.start();
    mailer = createMailer(config);
    const services = await createGatewayServices({ config, db, source: { writeSide, decode }, mailer });
    services.now = clock.now;
    if (options.live) {
      const live = await startLive({ store: writeSide.store, db, logger, ...options.live });
      services.live = live.service;
      stopLive = live.stop;
    }
    world.services = services;
    world.app = await buildApp({
      config,
      logger,
      health: () => Promise.resolve({ process: 'gateway', ok: true, checks: [] }),
      webRoot: '/nonexistent',
      services,
    });
    world.run = (decider, streamId, command) =>
      runWithRequestContext({ actor: 'system:test' }, () =>
        handleCommand(decider, { streamId, commandId: `test-${Math.random()}`, command }, writeSide),
      );
    world.settle = async () => {
      const head = await writeSide.store.headPosition();
      const positions = projectionPositions(db);
      await Promise.all(projections.map((p) => positions.waitForPosition(p.name, head, 10_000)));
    };
  });

  afterAll(async () => {
    await world.app?.close();
    await stopLive?.();
    await Promise.all(processors.map((processor) => processor.stop()));
    mailer?.close();
    await store?.close();
    await readStore?.db.dropDatabase();
    await readStore?.close();
    rmSync(dir, { recursive: true, force: true });
    await activeCampaign?.close();
  });

  world.pauseProjection = async (name) => {
    const processor = processors.find((candidate) => candidate.name === name);
    if (!processor) throw new Error(`no projection ${name}`);
    await processor.stop();
    return { resume: () => processor.start() };
  };
  world.email = (name) => `${name}.${names.runId}@example.test`;
  world.browser = (options) => newBrowser(() => world.app, options?.remoteAddress);
  return world;
};

const newBrowser = (app: () => FastifyInstance, remoteAddress?: string): Browser => {
  const cookies = new Map<string, string>();
  let csrfToken: string | null = null;

  const remember = (response: LightMyRequestResponse) => {
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      expires?: Date;
      maxAge?: number;
    }[]) {
      const expired = cookie.value === '' || (cookie.expires && cookie.expires.getTime() <= Date.now());
      if (expired) cookies.delete(cookie.name);
      else cookies.set(cookie.name, cookie.value);
    }
  };
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');

  const request: Browser['request'] = async ({ method, url, body, headers = {}, withoutCsrf }) => {
    const write = !safeMethods.has(String(method).toUpperCase());
    if (write && !withoutCsrf && csrfToken === null) {
      const tokenResponse = await app().inject({
        method: 'GET',
        url: '/api/auth/token',
        ...(remoteAddress ? { remoteAddress } : {}),
        headers: { cookie: cookieHeader() },
      });
      remember(tokenResponse);
      csrfToken = tokenResponse.json<{ csrfToken: string }>().csrfToken;
    }
    const response = await app().inject({
      method,
      url,
      ...(remoteAddress ? { remoteAddress } : {}),
      headers: {
        ...(cookies.size > 0 ? { cookie: cookieHeader() } : {}),
        ...(write && !withoutCsrf && csrfToken ? { 'x-csrf-token': csrfToken } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });
    remember(response);
    return response;
  };
  return {
    request,
    get: (url) => request({ method: 'GET', url }),
    post: (url, body) => request({ method: 'POST', url, body: body ?? {} }),
    put: (url, body) => request({ method: 'PUT', url, body: body ?? {} }),
    patch: (url, body) => request({ method: 'PATCH', url, body: body ?? {} }),
    delete: (url, body) => request({ method: 'DELETE', url, ...(body === undefined ? {} : { body }) }),
    cookies,
  };
};
