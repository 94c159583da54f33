import type { SessionResponse } from '../../../contracts/auth';
import type { Access } from '../../../gateway/plugins/access';
import type { Browser, World } from '../gateway-world';

/** A signed-in person of the route-table test. */
export type Person = { browser: Browser; session: SessionResponse; userId: number; email: string };

/**
 * The cast every example runs against (built once per run by test/gateway/route-table.test.ts):
 * tenant A (a BUSINESS) with an ADMIN and a plain USER, tenant B (another BUSINESS) with its ADMIN,
 * firm F (an advisory FIRM) whose ADMIN is an advisor, and a platform administrator. Every browser is
 * switched into its own tenant.
 */
export type Cast = {
  world: World;
  a: { tenantId: number; admin: Person; user: Person };
  b: { tenantId: number; admin: Person };
  firm: { tenantId: number; advisor: Person };
  platformAdmin: Person;
};

export type ExampleRequest = {
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Who makes the happy request when it must not be one of the cast (logout, leaving a company). */
  as?: Browser;
};

/**
 * One route's example for the generated checks. `happy` builds a valid request about tenant A's data
 * (creating, through the API or world.run, whatever it needs; it is called once per check, so a
 * route that deletes gets a fresh entity each time). The caller of the happy path is the least
 * privileged person the route's access level admits (plain USER for member, ADMIN for tenantAdmin,
 * the firm advisor for advisor, the platform admin for platformAdmin).
 */
export type RouteExample = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route exactly as registered, e.g. '/api/sellers/:id'. */
  route: string;
  /** The route's `config.access`, repeated here so the checks are generated before the app starts (checked equal). */
  access: Access;
  happy: (cast: Cast) => Promise<ExampleRequest>;
  /** Expected status of the happy path (default 200; 302 for browser redirects). */
  status?: number;
  /** A request whose input must be refused with 422 and field `properties`; or why the route takes no input. */
  badInput: ((cast: Cast) => Promise<ExampleRequest>) | { none: string };
  /**
   * The happy request made by tenant B's admin must be refused (403 or 404) unless the route is not
   * about tenant data (say why); for routes on the caller's current tenant, B's admin acts on B, so
   * give `otherTenant: { sameForEveryTenant: '...' }` explaining that the route cannot reach A's data.
   */
  otherTenant?: { notTenantData: string } | { sameForEveryTenant: string };
};
