import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../contracts/config';
import { CsrfTokenResponse } from '../../contracts/auth';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Requests a client may make per minute by default, and on the routes attackers aim at. */
export const rateLimits = { default: 600, sensitive: 20, notFound: 60 } as const;

/**
 * Cookies, CSRF and rate limits (portal.md section 7: every write sends an anti-forgery header). The
 * token comes from GET /api/auth/token and must be echoed in `x-csrf-token` on every write under /api.
 */
export const registerSecurity = async (app: FastifyInstance, config: Config): Promise<void> => {
  const secure = config.NODE_ENV === 'production';
  await app.register(fastifyCookie, { secret: config.SESSION_SECRET });
  await app.register(fastifyCsrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: 'lw_csrf',
    cookieOpts: { httpOnly: true, sameSite: 'lax', secure, path: '/', signed: true },
    getToken: (request) => request.headers['x-csrf-token'] as string | undefined,
  });
  await app.register(fastifyRateLimit, {
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    // Answered through the one error handler, with Retry-After set by the plugin.
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many requests. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
    }),
  });

  app.addHook('onRequest', (request, reply, done) => {
    if (safeMethods.has(request.method) || !request.url.startsWith('/api/')) return done();
    app.csrfProtection(request, reply, done);
  });

  app.get(
    '/api/auth/token',
    { config: { access: 'public' }, schema: { tags: ['auth'], response: { 200: CsrfTokenResponse } } },
    (_request, reply) => ({
      csrfToken: reply.generateCsrf(),
    }),
  );
};
