import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorResponse } from '../../contracts/errors';
import { userDecider } from '../../domain/user/user-decider';
import { systemActor } from '../../domain/actor';
import type { Access } from '../../gateway/plugins/access';
import { companyFor, platformAdmin } from './fixtures';
import { person as signedIn } from './team-fixtures';
import { useGatewayWorld, type Browser } from './gateway-world';
import type { Cast, ExampleRequest, Person, RouteExample } from './route-examples/types';
import { userStream } from '../../contracts/stream-ids';

/**
 * Tests generated from the route table (issue 4, "Done means"): for every API route, a happy path,
 * bad input answered 422 with field properties, a lesser role refused, a user of another tenant
 * refused, a write without the CSRF token refused, a guest refused. Each route group supplies only a
 * valid request (test/gateway/route-examples/<group>.ts); the checks are the same for all.
 */
const world = useGatewayWorld(__filename);
// The sandbox has no DNS: the connector URL check (SSRF) resolves the examples' public host here.
beforeAll(() => {
  world.services.resolveHost = (host) =>
    host === 'ex.api-us1.com'
      ? Promise.resolve(['104.18.32.7'])
      : Promise.reject(new Error(`ENOTFOUND ${host}`));
});

const examplesDir = join(__dirname, 'route-examples');
const examples: RouteExample[] = readdirSync(examplesDir)
  .filter((file) => file.endsWith('.ts') && file !== 'types.ts')
  // Every group's file is picked up without a central list that each new group would have to edit.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  .flatMap((file) => (require(join(examplesDir, file)) as { examples: RouteExample[] }).examples);

/** Routes checked elsewhere, each with the reason. */
const coveredElsewhere: Record<string, string> = {
  'GET /api/health': 'process health; test/gateway/app tests',
  'GET /api/auth/token': 'used by every write of every browser in these tests',
  'GET /api/industries': 'public reference data; gateway/app.test.ts',
  'GET /api/live': 'websocket; test/gateway/live-routes.test.ts',
  'GET /api/docs/openapi.json': 'the OpenAPI document; gateway/app.test.ts',
};

const key = (e: { method: string; route: string }) => `${e.method} ${e.route}`;
let cast: Cast;
let loner: Person;

const person = async (name: string, setup?: (p: Person) => Promise<void>): Promise<Person> => {
  const signed = await signedIn(world, { name });
  const p = {
    browser: signed.browser,
    session: signed.session,
    userId: signed.session.user.Id,
    email: signed.email,
  };
  await setup?.(p);
  return p;
};

beforeAll(async () => {
  const aAdmin = await person('a-admin');
  const aTenant = await companyFor(world, aAdmin, { name: 'Tenant A' });
  const aUser = await person('a-user', async (p) => {
    await world.run(userDecider, userStream(p.userId), {
      type: 'JoinTenant',
      data: {
        tenantId: aTenant,
        role: 'USER',
        classification: 'MEMBER',
        jobTitle: null,
        sendWeekly: false,
        sendMonthly: false,
        inviteId: null,
      },
      now: world.clock.now(),
      actor: systemActor,
    });
    await world.settle();
    await p.browser.post('/api/auth/switchTenant', { tenantId: aTenant });
  });
  const bAdmin = await person('b-admin');
  const bTenant = await companyFor(world, bAdmin, { name: 'Tenant B' });
  const advisor = await person('f-advisor');
  const firm = await companyFor(world, advisor, { name: 'Firm F', classification: 'FIRM' });
  const admin = await platformAdmin(world);
  const adminPerson = {
    browser: admin.browser,
    session: admin.session,
    userId: admin.session.user.Id,
    email: admin.email,
  };
  await admin.browser.post('/api/auth/switchTenant', { tenantId: aTenant });
  loner = await person('loner');
  cast = {
    world,
    a: { tenantId: aTenant, admin: aAdmin, user: aUser },
    b: { tenantId: bTenant, admin: bAdmin },
    firm: { tenantId: firm, advisor },
    platformAdmin: adminPerson,
  };
}, 120_000);

/** The least privileged person the access level admits. */
const rightful = (access: Access, c: Cast): Person | null =>
  ({
    public: c.a.user,
    session: c.a.user,
    member: c.a.user,
    tenantAdmin: c.a.admin,
    advisor: c.firm.advisor,
    platformAdmin: c.platformAdmin,
  })[access];

/** Someone one step short of the level, and the status they get (public routes have no lesser role). */
const lesserRoles: Record<Access, { who: (c: Cast) => Person | 'guest'; status: number } | null> = {
  public: null,
  session: { who: () => 'guest', status: 401 },
  member: { who: () => loner, status: 403 },
  tenantAdmin: { who: (c) => c.a.user, status: 403 },
  advisor: { who: (c) => c.a.admin, status: 403 },
  platformAdmin: { who: (c) => c.a.admin, status: 403 },
};

const send = (browser: Browser, example: RouteExample, request: ExampleRequest, withoutCsrf = false) =>
  browser.request({
    method: example.method,
    url: request.url,
    body: request.body,
    headers: request.headers,
    withoutCsrf,
  });

describe('the route table', () => {
  it('gives every API route an access level and an example (or a reason it is tested elsewhere)', () => {
    const withoutAccess = world.app.routeTable.filter((r) => !r.access).map((r) => `${r.method} ${r.url}`);
    expect(withoutAccess).toEqual([]);
    const exampled = new Set(examples.map(key));
    const missing = world.app.routeTable
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => !exampled.has(k) && !coveredElsewhere[k]);
    expect(missing).toEqual([]);
  });

  it('lists each example with the access level its route really has', () => {
    const registered = new Map(world.app.routeTable.map((r) => [`${r.method} ${r.url}`, r.access]));
    const mismatched = examples
      .filter((e) => registered.get(key(e)) !== e.access)
      .map((e) => `${key(e)}: example says ${e.access}, route has ${String(registered.get(key(e)))}`);
    expect(mismatched).toEqual([]);
  });
});

describe.each(examples.map((example) => [key(example), example] as const))('%s', (_name, example) => {
  const write = example.method !== 'GET';

  it('answers the happy path', async () => {
    const who = rightful(example.access, cast);
    const request = await example.happy(cast);
    const response = await send(request.as ?? (who ?? cast.a.user).browser, example, request);
    expect([response.statusCode, response.statusCode >= 400 ? response.body : '']).toEqual([
      example.status ?? 200,
      '',
    ]);
  });

  if (!('none' in example.badInput)) {
    const badInput = example.badInput;
    it('answers bad input with 422 and field properties', async () => {
      const who = rightful(example.access, cast) ?? cast.a.user;
      const response = await send(who.browser, example, await badInput(cast));
      expect(response.statusCode).toBe(422);
      const body = ErrorResponse.parse(response.json());
      expect(Object.keys(body.properties ?? {}).length).toBeGreaterThan(0);
    });
  }

  const refusal = lesserRoles[example.access];
  if (refusal) {
    it(`refuses a lesser role (${refusal.status})`, async () => {
      const who = refusal.who(cast);
      const request = await example.happy(cast);
      const browser = who === 'guest' ? world.browser() : who.browser;
      const response = await send(browser, example, request);
      expect(response.statusCode).toBe(refusal.status);
    });
  }

  if (!example.otherTenant) {
    it('refuses a user of another tenant', async () => {
      const request = await example.happy(cast);
      const response = await send(cast.b.admin.browser, example, request);
      expect([403, 404]).toContain(response.statusCode);
    });
  }

  if (example.access !== 'public') {
    it('refuses guests with 401', async () => {
      const response = await send(world.browser(), example, await example.happy(cast));
      expect(response.statusCode).toBe(401);
    });
  }

  if (write) {
    it('refuses a write without the CSRF token', async () => {
      const who = rightful(example.access, cast) ?? cast.a.user;
      const response = await send(who.browser, example, await example.happy(cast), true);
      expect(response.statusCode).toBe(403);
    });
  }
});
