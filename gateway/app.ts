import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config } from '../contracts/config';
import type { HealthReport } from '../contracts/health';
import { catalogue, registerErrorHandler } from './plugins/error-handler';
import { registerOpenApi } from './plugins/openapi';
import { rateLimits, registerSecurity } from './plugins/security';
import { registerSessionAuth } from './plugins/session-auth';
import { randomUUID } from 'node:crypto';
import { registerAccess } from './plugins/access';
import { isApiTarget, registerCanonicalTargets } from './plugins/canonical-targets';
import { registerRouteTable } from './plugins/route-table';
import { registerReadYourWrites } from './plugins/read-your-writes';
import { industryRoutes } from './routes/industries';
import { apiRoutes } from './routes/api-routes';
import type { GatewayServices } from './services';

export type HealthProbe = () => Promise<HealthReport>;

export type AppOptions = {
  config: Config;
  logger: Logger;
  health: HealthProbe;
  /** The built web app (web/dist); served with a single-page-app fallback when present. */
  webRoot?: string;
  /** What the API routes need; without it the app serves only the public, stateless routes (unit tests). */
  services?: GatewayServices;
};

/** Builds the gateway's Fastify instance without listening, so tests drive it with `inject`. */
export const buildApp = async ({
  config,
  logger,
  health,
  webRoot,
  services,
}: AppOptions): Promise<FastifyInstance> => {
  // Typed with the base logger so the instance is the plain FastifyInstance that plugins expect.
  const app = Fastify<Server, IncomingMessage, ServerResponse, FastifyBaseLogger>({
    loggerInstance: logger,
    bodyLimit: 1024 * 1024,
    // Only the configured proxies' X-Forwarded-For is believed (TRUSTED_PROXIES, none by default): with
    // `true`, any client could pick its own address and reset rate limits, lockout and the audit IP.
    trustProxy: config.TRUSTED_PROXIES.length > 0 ? config.TRUSTED_PROXIES : false,
    // One spelling per route: `/API/x`, `/api//x` and `/api/x/` are not /api/x (canonical-targets.ts).
    routerOptions: { caseSensitive: true, ignoreDuplicateSlashes: false, ignoreTrailingSlash: false },
    // Request ids seed command ids (execute-command.ts), so they must be unique across restarts.
    genReqId: () => randomUUID(),
  });

  // Every request and response is checked against its zod schema from contracts/.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // First, so no other hook and no handler ever sees a request target in another spelling.
  registerCanonicalTargets(app);
  registerErrorHandler(app);
  registerRouteTable(app);
  await registerOpenApi(app);
  await registerSecurity(app, config);
  await app.register(industryRoutes);
  if (services) {
    app.decorate('services', services);
    registerReadYourWrites(app);
    // The session and access hooks live in the scope of the API routes (encapsulation): they run for
    // every route registered there, whatever URL spelling the router matched, and for nothing else.
    await app.register(async (api) => {
      registerSessionAuth(api, { sessions: services.sessions });
      registerAccess(api);
      await api.register(apiRoutes);
    });
  }

  app.get('/api/health', { config: { access: 'public' } }, async (_request, reply) => {
    const report = await health();
    return reply.code(report.ok ? 200 : 503).send(report);
  });

  const root = webRoot ?? join(__dirname, '..', 'web', 'dist');
  const hasWebApp = existsSync(join(root, 'index.html'));
  if (hasWebApp) await app.register(fastifyStatic, { root, wildcard: false });
  // Client-side routes (/overview, /platforms...) get the app; unknown API paths are JSON 404s, and so
  // are missing chunks of the app (a tab opened before a release asks for old ones): the import then
  // fails as such instead of parsing the app's HTML as a script.
  // Probing the API for paths is rate limited; client-side routes of the web app are not 404s.
  // Targets are canonical by now (canonical-targets.ts) but may differ in case: /API/x is an API 404.
  const limitNotFound = app.rateLimit({ max: rateLimits.notFound, timeWindow: '1 minute' });
  const preHandler = (request: FastifyRequest, reply: FastifyReply) =>
    isApiTarget(request.url) ? limitNotFound.call(app, request, reply) : Promise.resolve();
  app.setNotFoundHandler({ preHandler }, (request, reply) => {
    const isAppRoute = !isApiTarget(request.url) && !request.url.toLowerCase().startsWith('/assets/');
    if (hasWebApp && request.method === 'GET' && isAppRoute) return reply.sendFile('index.html');
    return reply.code(404).send({ message: catalogue.notFound, code: 'not_found' });
  });
  return app;
};
