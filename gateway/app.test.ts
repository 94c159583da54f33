import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { z } from 'zod';
import { loadConfig } from '../contracts/config';
import { AppError, ErrorResponse } from '../contracts/errors';
import { Industry } from '../contracts/industries';
import { buildApp } from './app';

const build = () =>
  buildApp({
    config: loadConfig({ NODE_ENV: 'test' }),
    logger: pino({ level: 'silent' }),
    health: () => Promise.resolve({ process: 'gateway', ok: true, checks: [] }),
    webRoot: '/nonexistent',
  });

describe('gateway app', () => {
  it('answers GET /api/industries with NAICS 2017 by default, cacheable for an hour', async () => {
    const app = await build();
    const response = await app.inject({ method: 'GET', url: '/api/industries' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    const industries = z.array(Industry).parse(response.json());
    expect(industries.find((i) => i.Code === '511210')?.Title).toBe('Software Publishers');
    const sic = z
      .array(Industry)
      .parse((await app.inject({ method: 'GET', url: '/api/industries?source=SIC' })).json());
    expect(sic.find((i) => i.Code === '7372')?.Title).toBe('Prepackaged Software');
  });

  it('answers bad input with 422 and field errors, including unknown fields', async () => {
    const app = await build();
    const badSource = await app.inject({ method: 'GET', url: '/api/industries?source=ISIC' });
    expect(badSource.statusCode).toBe(422);
    const body = ErrorResponse.parse(badSource.json());
    expect(body.code).toBe('validation');
    expect(Object.keys(body.properties ?? {})).toEqual(['source']);

    const unknown = ErrorResponse.parse(
      (await app.inject({ method: 'GET', url: '/api/industries?limit=5' })).json(),
    );
    expect(unknown.properties).toEqual({ limit: 'unknown field' });
  });

  it('maps AppErrors to their status with the user text, and hides internal details', async () => {
    const app = await build();
    app.get('/api/test/conflict', () => {
      throw new AppError('conflict', 'A previous request to send the report is still processing.');
    });
    app.get('/api/test/crash', () => {
      throw new Error('connection string mongodb://secret@host leaked?');
    });
    const conflict = await app.inject({ method: 'GET', url: '/api/test/conflict' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toEqual({
      message: 'A previous request to send the report is still processing.',
      code: 'conflict',
    });

    const crash = await app.inject({ method: 'GET', url: '/api/test/crash' });
    expect(crash.statusCode).toBe(500);
    expect(crash.body).not.toContain('secret');
    expect(crash.json()).toEqual({
      message: "The operation failed. It's our fault, not yours. We're actively looking into the problem.",
      code: 'internal',
    });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const app = await build();
    const response = await app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not Found', code: 'not_found' });
  });

  it('publishes an OpenAPI document generated from the zod schemas', async () => {
    const app = await build();
    const response = await app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain('/api/industries');
  });
});

describe('gateway security', () => {
  const cookieHeader = (setCookie: string | string[] | undefined) =>
    [setCookie ?? []]
      .flat()
      .map((c) => c.split(';')[0])
      .join('; ');

  it('requires the anti-forgery token from GET /api/auth/token on every API write', async () => {
    const app = await build();
    app.post('/api/test/write', () => ({ ok: true }));

    const refused = await app.inject({ method: 'POST', url: '/api/test/write', payload: {} });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden' });

    const tokenResponse = await app.inject({ method: 'GET', url: '/api/auth/token' });
    const { csrfToken } = tokenResponse.json<{ csrfToken: string }>();
    expect(tokenResponse.headers['set-cookie']).toEqual(expect.stringContaining('HttpOnly'));
    const cookie = cookieHeader(tokenResponse.headers['set-cookie']);

    const forged = await app.inject({
      method: 'POST',
      url: '/api/test/write',
      payload: {},
      headers: { cookie, 'x-csrf-token': `${csrfToken}x` },
    });
    expect(forged.statusCode).toBe(403);
    const allowed = await app.inject({
      method: 'POST',
      url: '/api/test/write',
      payload: {},
      headers: { cookie, 'x-csrf-token': csrfToken },
    });
    expect(allowed.statusCode).toBe(200);
  });

  it('rate limits probing of unknown API paths with 429 and Retry-After, but not web-app routes', async () => {
    const app = await build();
    let last = await app.inject({ method: 'GET', url: '/api/probe-0' });
    for (let i = 1; i <= 60; i += 1) last = await app.inject({ method: 'GET', url: `/api/probe-${i}` });
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.json()).toMatchObject({ code: 'rate_limited' });
  });
});

describe('the web app build', () => {
  // A split build: the page, its entry script and a page chunk loaded on demand.
  const webRoot = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(webRoot, 'assets'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(webRoot, 'assets', 'index-a1.js'), 'import("./login-page-b2.js");');
  writeFileSync(join(webRoot, 'assets', 'login-page-b2.js'), 'export const LoginPage = 1;');
  afterAll(() => rmSync(webRoot, { recursive: true, force: true }));

  const buildServing = () =>
    buildApp({
      config: loadConfig({ NODE_ENV: 'test' }),
      logger: pino({ level: 'silent' }),
      health: () => Promise.resolve({ process: 'gateway', ok: true, checks: [] }),
      webRoot,
    });

  it('serves every chunk as a script and client-side routes as the app', async () => {
    const app = await buildServing();
    const chunk = await app.inject({ method: 'GET', url: '/assets/login-page-b2.js' });
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['content-type']).toMatch(/javascript/);
    expect(chunk.body).toContain('LoginPage');
    const route = await app.inject({ method: 'GET', url: '/platforms' });
    expect(route.statusCode).toBe(200);
    expect(route.body).toContain('<div id="root">');
  });

  it('never rate limits the app itself: a page load fetches many chunks, an office shares one address', async () => {
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', RATE_LIMIT_PER_MINUTE: '5' }),
      logger: pino({ level: 'silent' }),
      health: () => Promise.resolve({ process: 'gateway', ok: true, checks: [] }),
      webRoot,
    });
    const files = [];
    for (let n = 0; n < 12; n += 1) {
      files.push(await app.inject({ method: 'GET', url: n % 2 ? '/assets/login-page-b2.js' : '/platforms' }));
    }
    expect(files.map((answer) => answer.statusCode)).toEqual(Array(12).fill(200));
    // The API keeps its limit.
    const api = [];
    for (let n = 0; n < 6; n += 1) api.push(await app.inject({ method: 'GET', url: '/api/industries' }));
    expect(api.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('answers a chunk of an older release with 404, not with the app', async () => {
    const app = await buildServing();
    const missing = await app.inject({ method: 'GET', url: '/assets/login-page-old.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('<div id="root">');
  });
});

describe('security headers and client addresses', () => {
  const webRoot = mkdtempSync(join(tmpdir(), 'web-dist-'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
  afterAll(() => rmSync(webRoot, { recursive: true, force: true }));

  const buildWith = (env: Record<string, string>) =>
    buildApp({
      config: loadConfig({ NODE_ENV: 'test', ...env }),
      logger: pino({ level: 'silent' }),
      health: () => Promise.resolve({ process: 'gateway', ok: true, checks: [] }),
      webRoot,
    });

  it('sends the security headers with the web app, API answers and errors', async () => {
    const app = await buildWith({});
    const answers = [
      await app.inject({ method: 'GET', url: '/' }),
      await app.inject({ method: 'GET', url: '/platforms' }),
      await app.inject({ method: 'GET', url: '/api/industries' }),
      await app.inject({ method: 'GET', url: '/api/no-such-thing' }),
      await app.inject({ method: 'POST', url: '/api/industries', payload: {} }),
    ];
    for (const { headers } of answers) {
      const csp = String(headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      // Plain http locally: HSTS would pin the browser to https for the host.
      expect(headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('asks browsers for https only in production', async () => {
    const app = await buildWith({
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      PLATFORM_ADMIN_EMAILS: 'ops@example.com',
      SEED_DEMO: 'false',
    });
    const response = await app.inject({ method: 'GET', url: '/api/industries' });
    expect(response.headers['strict-transport-security']).toMatch(/max-age=31536000/);
  });

  const ipSeen = async (env: Record<string, string>) => {
    const app = await buildWith(env);
    app.get('/api/test/ip', { config: { access: 'public' } }, (request) => ({ ip: request.ip }));
    const response = await app.inject({
      method: 'GET',
      url: '/api/test/ip',
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-for': '198.51.100.1' },
    });
    return response.json<{ ip: string }>().ip;
  };

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    expect(await ipSeen({})).toBe('203.0.113.7');
    expect(await ipSeen({ TRUSTED_PROXIES: '10.0.0.0/8' })).toBe('203.0.113.7');
  });

  it('believes X-Forwarded-For from a configured proxy', async () => {
    expect(await ipSeen({ TRUSTED_PROXIES: '203.0.113.0/24' })).toBe('198.51.100.1');
  });
});
