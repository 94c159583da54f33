import type { FastifyInstance } from 'fastify';

/** RFC 3986 section 2.3: characters a client never needs to percent-encode in a path. */
const unreserved = /^[A-Za-z0-9\-._~]$/;

/**
 * Why a request target is not in the one spelling the router and the web app use, or null when it is.
 * The router percent-decodes and accepts absolute-form targets before it matches, so `/%61pi/stats`
 * or `http://x/api/stats` reach /api/stats: any check that read the raw URL could be walked around
 * (issue 12). Refusing the other spellings outright leaves one spelling per route.
 */
export const nonCanonicalReason = (target: string): string | null => {
  // Absolute-form (`http://host/path`), authority-form and `*` targets; `//x` is a network-path reference.
  if (!target.startsWith('/') || target.startsWith('//')) return 'not origin-form';
  const path = target.split(/[?#]/, 1)[0] ?? '';
  if (path.includes('//')) return 'empty path segment';
  if (path.includes('\\')) return 'backslash';
  const segments = path.split('/');
  if (segments.some((segment) => segment === '.' || segment === '..')) return 'dot segment';
  for (const [escape] of path.matchAll(/%([0-9A-Fa-f]{2})/g)) {
    if (unreserved.test(String.fromCharCode(parseInt(escape.slice(1), 16))))
      return 'percent-encoded unreserved character';
  }
  if (/%(?![0-9A-Fa-f]{2})/.test(path)) return 'malformed percent-encoding';
  return null;
};

/** Whether a (canonical) target is under /api, whatever its case: `/API/x` is an API 404, not the web app. */
export const isApiTarget = (target: string): boolean => {
  const path = (target.split(/[?#]/, 1)[0] ?? '').toLowerCase();
  return path === '/api' || path.startsWith('/api/');
};

/**
 * Answers 400 to any request whose target is not canonical, before cookies, sessions or handlers
 * see it. Registered first, so it runs before every other onRequest hook.
 */
export const registerCanonicalTargets = (app: FastifyInstance): void => {
  app.addHook('onRequest', async (request, reply) => {
    const reason = nonCanonicalReason(request.raw.url ?? '');
    if (reason === null) return;
    request.log.info({ reason }, 'non-canonical request target refused');
    await reply.code(400).send({ message: 'Bad Request', code: 'validation' });
    return reply;
  });
};
