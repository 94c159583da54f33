import { buildCast } from '../gateway/route-cast';
import type { Browser, World } from '../gateway/gateway-world';
import type { Cast, Person } from '../gateway/route-examples/types';

/** The route-table cast, plus a signed-in user with no company (one step short of `member`). */
export type AttackCast = Cast & {
  loner: Person;
  /** Tenant names, unique to the run: none may appear in an answer to someone refused. */
  tenantNames: string[];
  /** Every cast member's address: none may appear in an answer to someone refused. */
  emails: string[];
};

/** The route-table cast (test/gateway/route-cast.ts) with tenant names unique to the run. */
export const buildAttackCast = async (world: World): Promise<AttackCast> => {
  const names = {
    a: `Tenant A ${world.runId}`,
    b: `Tenant B ${world.runId}`,
    f: `Firm F ${world.runId}`,
  };
  const cast = await buildCast(world, names);
  const people = [cast.a.admin, cast.a.user, cast.b.admin, cast.firm.advisor, cast.platformAdmin, cast.loner];
  return { ...cast, tenantNames: Object.values(names), emails: people.map((p) => p.email) };
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
