import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { systemActor } from '../../domain/actor';
import { userDecider } from '../../domain/user/user-decider';
import { companyFor, platformAdmin } from '../gateway/fixtures';
import type { Browser, World } from '../gateway/gateway-world';
import type { Cast, Person, RouteExample } from '../gateway/route-examples/types';
import { person as signedIn } from '../gateway/team-fixtures';
import { userStream } from '../../contracts/stream-ids';

/** Every route group's examples (test/gateway/route-examples): a valid request about tenant A's data. */
export const routeExamples = (): RouteExample[] => {
  const dir = join(__dirname, '..', 'gateway', 'route-examples');
  return (
    readdirSync(dir)
      .filter((file) => file.endsWith('.ts') && file !== 'types.ts')
      // The same discovery as the route-table test, so a new group is attacked without a list to edit.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      .flatMap((file) => (require(join(dir, file)) as { examples: RouteExample[] }).examples)
  );
};

/** The route-table cast, plus a signed-in user with no company (one step short of `member`). */
export type AttackCast = Cast & {
  loner: Person;
  /** Tenant names, unique to the run: none may appear in an answer to someone refused. */
  tenantNames: string[];
  /** Every cast member's address: none may appear in an answer to someone refused. */
  emails: string[];
};

const personOf = async (world: World, name: string): Promise<Person> => {
  const signed = await signedIn(world, { name });
  return {
    browser: signed.browser,
    session: signed.session,
    userId: signed.session.user.Id,
    email: signed.email,
  };
};

/**
 * Tenant A (BUSINESS) with an ADMIN and a plain USER, tenant B with its ADMIN, firm F with an advisor,
 * a platform admin working in tenant A, and a loner without a company; each browser switched into its
 * own tenant, as test/gateway/route-table.test.ts builds it.
 */
export const buildAttackCast = async (world: World): Promise<AttackCast> => {
  const names = {
    a: `Tenant A ${world.runId}`,
    b: `Tenant B ${world.runId}`,
    f: `Firm F ${world.runId}`,
  };
  const aAdmin = await personOf(world, 'a-admin');
  const aTenant = await companyFor(world, aAdmin, { name: names.a });
  const aUser = await personOf(world, 'a-user');
  await world.run(userDecider, userStream(aUser.userId), {
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
  await aUser.browser.post('/api/auth/switchTenant', { tenantId: aTenant });
  const bAdmin = await personOf(world, 'b-admin');
  const bTenant = await companyFor(world, bAdmin, { name: names.b });
  const advisor = await personOf(world, 'f-advisor');
  const firm = await companyFor(world, advisor, { name: names.f, classification: 'FIRM' });
  const admin = await platformAdmin(world);
  const adminPerson = {
    browser: admin.browser,
    session: admin.session,
    userId: admin.session.user.Id,
    email: admin.email,
  };
  await admin.browser.post('/api/auth/switchTenant', { tenantId: aTenant });
  const loner = await personOf(world, 'loner');
  const people = [aAdmin, aUser, bAdmin, advisor, adminPerson, loner];
  return {
    world,
    a: { tenantId: aTenant, admin: aAdmin, user: aUser },
    b: { tenantId: bTenant, admin: bAdmin },
    firm: { tenantId: firm, advisor },
    platformAdmin: adminPerson,
    loner,
    tenantNames: Object.values(names),
    emails: people.map((p) => p.email),
  };
};

/** The cookie header a browser would send. */
export const cookieHeaderOf = (browser: Browser): string =>
  [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

/** A CSRF token for the browser's own CSRF cookie, fetched as the web app does before its first write. */
export const csrfTokenOf = async (browser: Browser): Promise<string> => {
  const response = await browser.get('/api/auth/token');
  if (response.statusCode !== 200) throw new Error(`token: ${response.statusCode} ${response.body}`);
  return response.json<{ csrfToken: string }>().csrfToken;
};
