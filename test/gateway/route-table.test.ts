import { ErrorResponse } from '../../contracts/errors';
import type { Access } from '../../gateway/plugins/access';
import { useGatewayWorld, type Browser } from './gateway-world';
import { buildCast, rightfulFor, routeExamples } from './route-cast';
import type { Cast, ExampleRequest, Person, RouteExample } from './route-examples/types';

/**
 * Tests generated from the route table (issue 4, "Done means"): for every API route, a happy path,
 * bad input answered 422 with field properties, a lesser role refused, a user of another tenant
 * refused, a write without the CSRF token refused, a guest refused. Each route group supplies only a
 * valid request (test/gateway/route-examples/<group>.ts); the checks are the same for all.
 */
const world = useGatewayWorld(__filename);
const examples: RouteExample[] = routeExamples();

/** Routes checked elsewhere, each with the reason. */
const coveredElsewhere: Record<string, string> = {
  'GET /api/health': 'process health; test/gateway/app tests',
  'GET /api/auth/token': 'used by every write of every browser in these tests',
  'GET /api/industries': 'public reference data; gateway/app.test.ts',
  'GET /api/live': 'websocket; test/gateway/live-routes.test.ts',
  'GET /api/docs/openapi.json': 'the OpenAPI document; gateway/app.test.ts',
  'POST /api/billing/stripe/webhook':
    'machine route signed by the payment provider, CSRF-exempt; test/billing/stripe-webhook.test.ts',
  'POST /api/subscriptions/unsubscribe/one-click':
    "mail clients' one-click unsubscribe (RFC 8058), CSRF-exempt, the signed token is the credential; test/gateway/report-email-unsubscribe.test.ts",
  'POST /api/qbd/soap':
    'the Web Connector SOAP service, CSRF-exempt, its own session ticket; test/connectors/qbd-web-connector.test.ts',
};

const key = (e: { method: string; route: string }) => `${e.method} ${e.route}`;
let cast: Cast;
let loner: Person;

beforeAll(async () => {
  // buildCast also points the connector URL check at the fake DNS of the examples' public host.
  ({ loner, ...cast } = await buildCast(world, { a: 'Tenant A', b: 'Tenant B', f: 'Firm F' }));
}, 120_000);

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
    const request = await example.happy(cast);
    const response = await send(request.as ?? rightfulFor(example.access, cast).browser, example, request);
    expect([response.statusCode, response.statusCode >= 400 ? response.body : '']).toEqual([
      example.status ?? 200,
      '',
    ]);
  });

  if (!('none' in example.badInput)) {
    const badInput = example.badInput;
    it('answers bad input with 422 and field properties', async () => {
      const who = rightfulFor(example.access, cast);
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
      const who = rightfulFor(example.access, cast);
      const response = await send(who.browser, example, await example.happy(cast), true);
      expect(response.statusCode).toBe(403);
    });
  }
});
