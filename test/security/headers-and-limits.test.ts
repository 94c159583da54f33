import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../gateway/app';
import { useGatewayWorld } from '../gateway/gateway-world';
import { person } from '../gateway/team-fixtures';
import { cookieHeaderOf } from './attack-cast';
import { httpBrowser } from './http-browser';
import { listen, type RawClient, type RawResponse } from './raw-http';

/**
 * Issue 12's points that an outsider sees on the wire, against a gateway configured for production (so
 * HSTS applies and the proxy setting is the production one), over real HTTP: security headers on every
 * kind of answer, a forged X-Forwarded-For that cannot buy a fresh rate limit, and a forged read
 * position that cannot hold a request.
 */
const world = useGatewayWorld(__filename, {
  NODE_ENV: 'production',
  SESSION_SECRET: randomBytes(32).toString('hex'),
});
let client: RawClient;
/** The same gateway serving a built web app (an index page and one asset), without the API services. */
let webApp: FastifyInstance;
let webClient: RawClient;
let webRoot = '';

beforeAll(async () => {
  client = await listen(world.app, 4);
  webRoot = mkdtempSync(join(tmpdir(), 'ledgerwise-security-web-'));
  mkdirSync(join(webRoot, 'assets'));
  writeFileSync(
    join(webRoot, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(webRoot, 'assets', 'app.js'), 'document.title = "Ledgerwise";\n');
  webApp = await buildApp({
    config: world.config,
    logger: pino({ level: 'silent' }),
    health: () => Promise.resolve({ process: 'gateway', ok: true, checks: [] }),
    webRoot,
  });
  webClient = await listen(webApp, 2);
});

afterAll(async () => {
  client?.close();
  webClient?.close();
  await webApp?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy header, by name. */
const directivesOf = (policy: string): Map<string, string[]> =>
  new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name = '', ...values]) => [name.toLowerCase(), values]),
  );

/** What is missing or wrong among the headers OWASP ASVS 14.4 asks of every answer (none: an empty list). */
const headerProblems = (response: RawResponse): string[] => {
  const problems: string[] = [];
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value.join(', ') : (value ?? '');
  };
  const csp = directivesOf(header('content-security-policy'));
  const scripts = csp.get('script-src') ?? csp.get('default-src');
  if (!scripts) problems.push('no script-src or default-src in the Content-Security-Policy');
  else if (scripts.some((source) => ["'unsafe-inline'", "'unsafe-eval'", '*'].includes(source)))
    problems.push(`script-src allows ${scripts.join(' ')}`);
  const ancestors = csp.get('frame-ancestors');
  const frameOptions = header('x-frame-options').toUpperCase();
  if (
    !(ancestors?.join(' ') === "'none'" || ancestors?.join(' ') === "'self'") &&
    !/DENY|SAMEORIGIN/.test(frameOptions)
  )
    problems.push('framing not refused (frame-ancestors / X-Frame-Options)');
  if (header('x-content-type-options') !== 'nosniff') problems.push('no X-Content-Type-Options: nosniff');
  if (
    !/^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/.test(
      header('referrer-policy'),
    )
  )
    problems.push(`Referrer-Policy is "${header('referrer-policy')}"`);
  const hsts = /max-age=(\d+)/.exec(header('strict-transport-security'));
  // Six months is the least the HSTS preload list and the ASVS accept.
  if (!hsts || Number(hsts[1]) < 15_552_000)
    problems.push('no Strict-Transport-Security of at least 180 days');
  return problems;
};

describe('security headers', () => {
  it('are on an API answer, an API refusal and an API 404', async () => {
    const answers = {
      token: await client.send({ method: 'GET', target: '/api/auth/token' }),
      refusal: await client.send({ method: 'GET', target: '/api/auth/self' }),
      notFound: await client.send({ method: 'GET', target: '/api/no-such-route' }),
    };
    expect([answers.token.status, answers.refusal.status, answers.notFound.status]).toEqual([200, 401, 404]);
    expect({
      token: headerProblems(answers.token),
      refusal: headerProblems(answers.refusal),
      notFound: headerProblems(answers.notFound),
    }).toEqual({ token: [], refusal: [], notFound: [] });
  });

  it('are on the web app page, its static files and a missing file', async () => {
    const answers = {
      page: await webClient.send({ method: 'GET', target: '/' }),
      appRoute: await webClient.send({ method: 'GET', target: '/overview' }),
      asset: await webClient.send({ method: 'GET', target: '/assets/app.js' }),
      missingAsset: await webClient.send({ method: 'GET', target: '/assets/gone.js' }),
    };
    expect(Object.values(answers).map((a) => a.status)).toEqual([200, 200, 200, 404]);
    expect(answers.page.body).toContain('id="root"');
    expect(Object.fromEntries(Object.entries(answers).map(([name, a]) => [name, headerProblems(a)]))).toEqual(
      {
        page: [],
        appRoute: [],
        asset: [],
        missingAsset: [],
      },
    );
  });
});

describe('a forged X-Forwarded-For', () => {
  it('does not give a fresh rate limit to each address it claims', async () => {
    const browser = httpBrowser(client);
    const statuses: number[] = [];
    // The recovery request's limit (20 a minute); each request claims to come from another address.
    for (let attempt = 1; attempt <= 25; attempt += 1) {
      const response = await browser.post(
        '/api/auth/recoverPassword',
        { email: world.email(`nobody${attempt}`) },
        { 'x-forwarded-for': `203.0.113.${attempt}` },
      );
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 20).filter((s) => s === 429)).toEqual([]);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
  });
});

describe('a forged read position', () => {
  // Each request would wait for read models to reach a position the store never will: ten requests
  // would take minutes. They must all answer before the test's own timeout.
  it('does not hold the requests that carry it', async () => {
    const someone = await person(world, { name: 'reader' });
    const headers = { cookie: cookieHeaderOf(someone.browser), 'x-read-after': '999999999999999' };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await client.send({ method: 'GET', target: '/api/auth/self', headers });
      statuses.push(response.status);
    }
    expect(statuses).toEqual(Array.from({ length: 10 }, () => 200));
  }, 20_000);
});
