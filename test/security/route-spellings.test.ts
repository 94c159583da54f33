import type { Access } from '../../gateway/plugins/access';
import type { Browser } from '../gateway/gateway-world';
import { useGatewayWorld } from '../gateway/gateway-world';
import type { ExampleRequest, Person, RouteExample } from '../gateway/route-examples/types';
import { rightfulFor, routeExamples } from '../gateway/route-cast';
import { buildAttackCast, cookieHeaderOf, csrfTokenOf, type AttackCast } from './attack-cast';
import { inPool, listen, type RawClient, type RawResponse } from './raw-http';
import { spellingsOf } from './spellings';

/**
 * The attack suite of issue 12 over real HTTP: every route of the route table, with every spelling of
 * its path (spellings.ts), requested by everyone its access level keeps out (no cookie, a guest holding
 * a CSRF token, a lesser role, another tenant's admin with tenant A's ids in the path) and, for writes,
 * by the rightful caller without the CSRF header. None may answer anything but a 4xx, and no refusal
 * may carry an address, a password or token hash, or a tenant's name.
 */
// The ordinary per-minute limit would answer 429 to the suite itself, hiding what the checks answer.
const world = useGatewayWorld(__filename, { RATE_LIMIT_PER_MINUTE: '1000000' });
const examples = routeExamples();
/** Public GETs are for anyone: nothing to refuse. */
const attacked = examples.filter((e) => e.access !== 'public' || e.method !== 'GET');
/** Requests in flight at once: enough to keep the gateway busy on two shared cores, no more. */
const concurrency = 6;

let cast: AttackCast;
let client: RawClient;
let guest: Browser;
const csrfTokens = new Map<Browser, string>();

/**
 * Each example's valid request, built ahead by a small pool while earlier routes are attacked: many
 * set-ups wait for read models, and waiting for them one route at a time would double the run.
 */
const prepared = new Map<RouteExample, Promise<ExampleRequest>>();
const prepareAhead = (list: readonly RouteExample[]) => {
  const pending = list.map((example) => {
    let settle: { resolve: (r: ExampleRequest) => void; reject: (e: unknown) => void } | undefined;
    const promise = new Promise<ExampleRequest>((resolve, reject) => {
      settle = { resolve, reject };
    });
    // A failed set-up is reported by its route's own test, not as an unhandled rejection.
    promise.catch(() => undefined);
    prepared.set(example, promise);
    return { example, settle };
  });
  void inPool(pending, 3, async ({ example, settle }) => {
    try {
      settle?.resolve(await example.happy(cast));
    } catch (error) {
      settle?.reject(error);
    }
  });
};

beforeAll(async () => {
  cast = await buildAttackCast(world);
  guest = world.browser();
  client = await listen(world.app, concurrency);
  prepareAhead(attacked);
}, 180_000);

afterAll(() => client?.close());

const tokenFor = async (browser: Browser): Promise<string> => {
  const known = csrfTokens.get(browser);
  if (known) return known;
  const token = await csrfTokenOf(browser);
  csrfTokens.set(browser, token);
  return token;
};

type Attacker = { who: string; headers: Record<string, string> };

const as = async (who: string, browser: Browser, withCsrf: boolean): Promise<Attacker> => {
  // The token first: fetching it may set the CSRF cookie the header below must carry.
  const csrf: Record<string, string> = withCsrf ? { 'x-csrf-token': await tokenFor(browser) } : {};
  return { who, headers: { cookie: cookieHeaderOf(browser), ...csrf } };
};

/** Someone one step short of the declared level (guests stand short of `session`). */
const lesserFor = (access: Access, c: AttackCast): { label: string; person: Person } | null =>
  ({
    public: null,
    session: null,
    member: { label: 'a user with no company', person: c.loner },
    tenantAdmin: { label: "tenant A's plain USER", person: c.a.user },
    advisor: { label: "tenant A's ADMIN, not an advisor", person: c.a.admin },
    platformAdmin: { label: "tenant A's ADMIN, not a platform admin", person: c.a.admin },
  })[access];

/**
 * When the example needs someone above the declared level (the handler checks more, say a tenant
 * ADMIN on a session-level route), the person one step below that one.
 */
const lesserThanNeeded = (
  request: ExampleRequest,
  c: AttackCast,
): { label: string; person: Person } | null => {
  if (request.as === c.a.admin.browser) return { label: "tenant A's plain USER", person: c.a.user };
  if (request.as === c.platformAdmin.browser)
    return { label: "tenant A's ADMIN, not a platform admin", person: c.a.admin };
  return null;
};

const attackersOf = async (example: RouteExample, request: ExampleRequest): Promise<Attacker[]> => {
  // The caller with no cookie comes first: the one every spelling is tried by.
  const attackers: Attacker[] = [];
  if (example.access !== 'public') {
    attackers.push({ who: 'no cookie', headers: {} });
    attackers.push(await as('a guest with a CSRF token', guest, true));
    for (const lesser of [lesserFor(example.access, cast), lesserThanNeeded(request, cast)]) {
      if (lesser && !attackers.some((a) => a.who === lesser.label))
        attackers.push(await as(lesser.label, lesser.person.browser, true));
    }
    if (!example.otherTenant) attackers.push(await as("tenant B's ADMIN", cast.b.admin.browser, true));
  }
  if (example.method !== 'GET') {
    // The example's own caller when it names one (logout, leaving a company), so the cast stays intact.
    const rightful = request.as ?? rightfulFor(example.access, cast).browser;
    attackers.push(await as('the rightful caller without the CSRF header', rightful, false));
  }
  return attackers;
};

const hashLike = /scrypt|passwordhash|tokenhash|\$2[aby]\$|\$argon2/i;

/** Why an answer to someone who should be refused is wrong, or null when it is a clean refusal. */
const wrongIn = (response: RawResponse): string | null => {
  if (response.status < 400 || response.status >= 500) return `answered ${response.status}`;
  const leaked = [...cast.emails, ...cast.tenantNames].filter((secret) => response.body.includes(secret));
  if (hashLike.test(response.body)) leaked.push('a hash');
  return leaked.length > 0 ? `refused with ${response.status} but leaked ${leaked.join(', ')}` : null;
};

/** Sends the request with every spelling as every attacker; answers the wrong outcomes, described. */
const attack = async (example: RouteExample, request: ExampleRequest): Promise<string[]> => {
  const attackers = await attackersOf(example, request);
  const attempts = spellingsOf(request.url, client.origin).flatMap((spelling) =>
    attackers
      .filter((attacker) => spelling.core || attacker === attackers[0])
      .map((attacker) => ({ spelling, attacker })),
  );
  const outcomes = await inPool(attempts, concurrency, async ({ spelling, attacker }) => {
    const response = await client.send({
      method: example.method,
      target: spelling.target,
      headers: { ...request.headers, ...attacker.headers },
      body: request.body,
    });
    const wrong = wrongIn(response);
    return wrong === null
      ? null
      : `${attacker.who}: ${example.method} ${spelling.target} [${spelling.name}] ${wrong}: ${response.body.slice(0, 160)}`;
  });
  return outcomes.filter((outcome): outcome is string => outcome !== null);
};

const key = (e: { method: string; route: string }) => `${e.method} ${e.route}`;

/** The platform admin's own stream: the first finding read its email and password hash. */
const adminStreamHistory: RouteExample = {
  method: 'GET',
  route: '/api/admin/streams/:streamId/history',
  access: 'platformAdmin',
  happy: (c) => Promise.resolve({ url: `/api/admin/streams/user-${c.platformAdmin.userId}/history` }),
  badInput: { none: 'only the stream named' },
  otherTenant: { notTenantData: 'platform admins only' },
};

describe('every spelling of every route, by everyone its access level keeps out', () => {
  it.each(attacked.map((example) => [key(example), example] as const))('%s', async (_name, example) => {
    const request = prepared.get(example) ?? example.happy(cast);
    expect(await attack(example, await request)).toEqual([]);
  });

  it("GET /api/admin/streams/:streamId/history on the platform admin's own stream", async () => {
    expect(await attack(adminStreamHistory, await adminStreamHistory.happy(cast))).toEqual([]);
  });

  it('covers the routes of the table that have no example too', async () => {
    const exampled = new Set(examples.map(key));
    const others = world.app.routeTable.filter(
      (r) => !exampled.has(`${r.method} ${r.url}`) && !(r.access === 'public' && r.method === 'GET'),
    );
    const wrong: string[] = [];
    for (const route of others) {
      const example: RouteExample = {
        method: route.method as RouteExample['method'],
        route: route.url,
        // A route with no declared level must be refused to everyone: attack it as the strictest.
        access: route.access ?? 'platformAdmin',
        happy: () => Promise.resolve({ url: route.url.replace(/:\w+/g, '1') }),
        badInput: { none: 'no example' },
        otherTenant: { notTenantData: 'no example names tenant A data' },
      };
      wrong.push(...(await attack(example, await example.happy(cast))));
    }
    expect(wrong).toEqual([]);
  });
});

/** The request's path with every id in it (numbers, UUIDs) replaced by one that names nothing. */
const withMissingIds = (url: string): string => {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt);
  const missing = path
    .split('/')
    .map((segment) =>
      /^\d+$/.test(segment)
        ? '987654321'
        : /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(segment)
          ? '00000000-0000-4000-8000-000000000000'
          : segment,
    )
    .join('/');
  return `${missing}${query}`;
};

/** Routes with ids of tenant A's data in their path. */
const aboutTenantData = attacked.filter(
  (e) => e.access !== 'public' && !e.otherTenant && e.route.includes(':'),
);

describe("another tenant's ids answer exactly like ids that do not exist", () => {
  it.each(aboutTenantData.map((example) => [key(example), example] as const))(
    '%s',
    async (_name, example) => {
      const request = await (prepared.get(example) ?? example.happy(cast));
      const missingUrl = withMissingIds(request.url);
      expect(missingUrl).not.toBe(request.url);
      const outsider = await as("tenant B's ADMIN", cast.b.admin.browser, true);
      const [theirs, nobodys] = await Promise.all(
        [request.url, missingUrl].map((target) =>
          client.send({
            method: example.method,
            target,
            headers: { ...request.headers, ...outsider.headers },
            body: request.body,
          }),
        ),
      );
      expect({ status: theirs?.status, body: theirs?.body }).toEqual({
        status: nobodys?.status,
        body: nobodys?.body,
      });
    },
  );
});
