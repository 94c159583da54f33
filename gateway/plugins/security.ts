import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../../contracts/config';
import { CsrfTokenResponse } from '../../contracts/auth';
import { derivedKey } from '../auth/derived-keys';
import { isApiTarget } from './canonical-targets';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Requests a client may make per minute by default, and on the routes attackers aim at. */
export const rateLimits = { default: 600, sensitive: 20, notFound: 60 } as const;

/**
 * Security headers on every answer, API and web app alike (OWASP ASVS 14.4). The built web app has no
 * inline script (Vite emits module scripts and stylesheet links only), so scripts come from 'self'.
 * Styles allow 'unsafe-inline' because Tremor and recharts set style attributes from script (chart
 * sizes, colours, positions); inline styles cannot run code, and no inline script is allowed.
 */
const helmetOptions = (production: boolean): FastifyHelmetOptions => ({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      // Tenant logos may be shown from data: URLs before upload; charts draw in SVG.
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      // 'self' covers the live websocket (ws: and wss: of the same host, CSP level 3).
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      ...(production ? { upgradeInsecureRequests: [] } : {}),
    },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  // Over plain http (local runs, tests) HSTS would pin the browser to https for 127.0.0.1.
  strictTransportSecurity: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  // Popups of the OAuth providers are full-page redirects, so the strictest opener policy fits.
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
});

/**
 * The headers helmet sets with these options, found once by asking helmet on a throw-away instance:
 * registered on the app, @fastify/helmet builds helmet's middleware, parsing every directive, anew
 * for every request (about 4% of a GET /api/users, issue 13). The headers depend on the options only.
 */
const headersOf = async (options: FastifyHelmetOptions): Promise<[string, string][]> => {
  const answer = async (withHelmet: boolean) => {
    const probe = Fastify();
    if (withHelmet) await probe.register(fastifyHelmet, options);
    probe.get('/', () => '');
    const { headers } = await probe.inject({ method: 'GET', url: '/' });
    await probe.close();
    return headers;
  };
  const plain = await answer(false);
  return Object.entries(await answer(true)).flatMap(([name, value]): [string, string][] =>
    name in plain || value === undefined ? [] : [[name, String(value)]],
  );
};

const registerSecurityHeaders = async (app: FastifyInstance, production: boolean): Promise<void> => {
  const headers = await headersOf(helmetOptions(production));
  if (!headers.some(([name]) => name === 'content-security-policy')) {
    throw new Error('helmet set no content-security-policy: the security headers would be missing');
  }
  // Set on the raw response before any handler runs, as helmet does: a route may still override one
  // (the tenant logo sets its own content-security-policy).
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
};

/**
 * Cookies, CSRF, rate limits and security headers (portal.md section 7: every write sends an
 * anti-forgery header). The token comes from GET /api/auth/token and must be echoed in
 * `x-csrf-token` on every write, whatever the path: the check does not depend on the URL's spelling.
 */
export const registerSecurity = async (app: FastifyInstance, config: Config): Promise<void> => {
  const secure = config.NODE_ENV === 'production';
  await registerSecurityHeaders(app, secure);
  // Cookie signatures get a key of their own, derived from the master secret (derived-keys.ts).
  await app.register(fastifyCookie, { secret: derivedKey(config.SESSION_SECRET, 'cookie-signing') });
  await app.register(fastifyCsrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: 'lw_csrf',
    cookieOpts: { httpOnly: true, sameSite: 'lax', secure, path: '/', signed: true },
    getToken: (request) => request.headers['x-csrf-token'] as string | undefined,
  });
  await app.register(fastifyRateLimit, {
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    // The web app's own files are not counted: one page load fetches dozens of chunks, so an office
    // behind one address (or a quick sequence of pages) would otherwise get 429 for the app's code
    // and a blank page. Decided on the matched route, not the raw URL (which may be spelled oddly):
    // every API route declares an access level, the app's files and pages do not.
    allowList: (request) =>
      (request.method === 'GET' || request.method === 'HEAD') &&
      (request.routeOptions.config as { access?: unknown } | undefined)?.access === undefined &&
      !isApiTarget(request.url),
    // Answered through the one error handler, with Retry-After set by the plugin.
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many requests. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
    }),
  });

  app.addHook('onRequest', (request, reply, done) => {
    // Every write of any path: the web app's pages and files are GETs only. A machine route that
    // authenticates each request by its own signature (the payment provider's webhook) declares
    // csrfExempt: no browser session is involved there.
    if (safeMethods.has(request.method)) return done();
    if ((request.routeOptions.config as { csrfExempt?: boolean } | undefined)?.csrfExempt === true)
      return done();
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
