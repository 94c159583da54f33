import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import type { GatewayServices } from '../services';
import type { SessionStore } from '../auth/session-store';
import { registerErrorHandler } from './error-handler';
import { isPlatformAdminBy, registerAccess } from './access';
import { registerSessionAuth } from './session-auth';

/**
 * The session and access hooks on their own, in a scope as app.ts registers them: they decide on the
 * matched route, so a route is guarded whatever its URL looks like (issue 12: the hooks used to skip
 * every request whose raw URL did not start with /api/).
 */
const build = async (): Promise<{ app: FastifyInstance; resumed: string[] }> => {
  const resumed: string[] = [];
  const sessions = {
    resume: (token: string) => {
      resumed.push(token);
      return Promise.resolve(null);
    },
  } as unknown as SessionStore;
  const app = Fastify();
  registerErrorHandler(app);
  await app.register(fastifyCookie);
  app.decorate('services', {} as GatewayServices);
  await app.register((scope, _options, done) => {
    registerSessionAuth(scope, { sessions });
    registerAccess(scope);
    scope.get('/anywhere/secret', { config: { access: 'session' } }, () => ({ leaked: true }));
    scope.get('/anywhere/undeclared', () => ({ leaked: true }));
    scope.get('/anywhere/public', { config: { access: 'public' } }, () => ({ ok: true }));
    done();
  });
  return { app, resumed };
};

describe('the access hook', () => {
  it('refuses a guest on a signed-in route whose URL is not under /api', async () => {
    const { app, resumed } = await build();
    const response = await app.inject({
      method: 'GET',
      url: '/anywhere/secret',
      headers: { cookie: 'lw_session=abc' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.body).not.toContain('leaked');
    // The session cookie was looked up although the URL is not /api/...
    expect(resumed).toEqual(['abc']);
  });

  it('refuses a route that declares no access level, whatever its URL', async () => {
    const { app } = await build();
    const response = await app.inject({ method: 'GET', url: '/anywhere/undeclared' });
    expect(response.statusCode).toBe(403);
    expect(response.body).not.toContain('leaked');
  });

  it('lets guests through to public routes', async () => {
    const { app } = await build();
    expect((await app.inject({ method: 'GET', url: '/anywhere/public' })).statusCode).toBe(200);
  });
});

describe('platform-admin rights', () => {
  const config = { PLATFORM_ADMIN_EMAILS: ['ops@example.com'] };
  const facts = { exists: true, email: 'ops@example.com', emailVerified: true };

  it('come from a listed address only once its holder verified it', () => {
    expect(isPlatformAdminBy(config, facts)).toBe(true);
    expect(isPlatformAdminBy(config, { ...facts, emailVerified: false })).toBe(false);
    expect(isPlatformAdminBy(config, { ...facts, email: 'someone@example.com' })).toBe(false);
    expect(isPlatformAdminBy(config, { ...facts, exists: false })).toBe(false);
    expect(isPlatformAdminBy(config, { ...facts, email: 'OPS@example.com' })).toBe(true);
  });
});
