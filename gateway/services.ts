import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../commands/command-handler';
import type { RecordedEvent } from '../contracts/events/envelope';
import type { Config } from '../contracts/config';
import type { ResolveHost } from '../workflows/connectors/connector-url';
import type { Mailer } from '../workflows/email/smtp-mailer';
import { createSessionStore, type SessionStore } from './auth/session-store';
import { createLoginThrottle, type LoginThrottle } from './auth/login-throttle';
import { createCallerFactsCache, type CachedCallerFacts } from './auth/caller-facts-cache';
import type { LiveService } from './live/live-service';

/**
 * Everything the signed-in routes reach: the write side (commands), the read models, sessions and
 * email. Built once per process (gateway-role.ts) or per test (test/gateway/gateway-world.ts).
 */
export type GatewayServices = {
  config: Config;
  /** Read models, sessions and login throttling. */
  db: Db;
  writeSide: CommandHandlerDeps;
  /** Events as readers see them (stream history for admins). */
  decode: (events: readonly RecordedEvent[]) => Promise<RecordedEvent[]>;
  sessions: SessionStore;
  /** The caller's facts for the access hook, cached in process (ADR 29). */
  callerFacts: CachedCallerFacts;
  loginThrottle: LoginThrottle;
  mailer: Mailer;
  /** The clock; tests move it to expire links and sessions. */
  now: () => Date;
  /** The live websocket's hub (gateway/live); without it /api/live is not served. */
  live?: LiveService;
  /** DNS for connector URL checks (workflows/connectors/connector-url.ts); the system resolver unless set. */
  resolveHost?: ResolveHost;
};

declare module 'fastify' {
  interface FastifyInstance {
    services: GatewayServices;
  }
}

/** The services over an open Mongo database and event source. */
export const createGatewayServices = async (deps: {
  config: Config;
  db: Db;
  source: { writeSide: CommandHandlerDeps; decode: GatewayServices['decode'] };
  mailer: Mailer;
}): Promise<GatewayServices> => {
  const services: GatewayServices = {
    config: deps.config,
    db: deps.db,
    writeSide: deps.source.writeSide,
    decode: deps.source.decode,
    sessions: await createSessionStore(deps.db),
    // Reads the clock through the services, so a test that moves `now` moves the cache's TTL too.
    callerFacts: createCallerFactsCache(deps.db, () => services.now()),
    loginThrottle: await createLoginThrottle(deps.db),
    mailer: deps.mailer,
    now: () => new Date(),
  };
  return services;
};
