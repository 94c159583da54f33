import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Access } from '../../gateway/plugins/access';
import { joinAsPlainUser } from './admin-fixtures';
import { fakeDns } from './fake-dns';
import { companyFor, platformAdmin } from './fixtures';
import type { World } from './gateway-world';
import type { Cast, Person, RouteExample } from './route-examples/types';
import { person as signedIn } from './team-fixtures';

/**
 * Every route group's examples (test/gateway/route-examples), each file picked up without a central
 * list that a new group would have to edit: the route table and the attack suite run the same ones.
 */
export const routeExamples = (): RouteExample[] => {
  const dir = join(__dirname, 'route-examples');
  return (
    readdirSync(dir)
      .filter((file) => file.endsWith('.ts') && file !== 'types.ts')
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      .flatMap((file) => (require(join(dir, file)) as { examples: RouteExample[] }).examples)
  );
};

/** The public host the examples connect an ActiveCampaign account to, as the fake DNS resolves it. */
export const exampleDns = fakeDns({ 'ex.api-us1.com': ['104.18.32.7'] });

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
 * The cast of route-examples/types.ts, plus a signed-in user with no company (one step short of
 * `member`); each browser switched into its own tenant. The examples' host resolves from here on.
 */
export const buildCast = async (
  world: World,
  names: { a: string; b: string; f: string },
): Promise<Cast & { loner: Person }> => {
  world.services.resolveHost = exampleDns;
  const aAdmin = await personOf(world, 'a-admin');
  const aTenant = await companyFor(world, aAdmin, { name: names.a });
  const aUser = await personOf(world, 'a-user');
  await joinAsPlainUser(world, aUser, aTenant);
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
  return {
    world,
    a: { tenantId: aTenant, admin: aAdmin, user: aUser },
    b: { tenantId: bTenant, admin: bAdmin },
    firm: { tenantId: firm, advisor },
    platformAdmin: adminPerson,
    loner,
  };
};

/**
 * The least privileged person an access level admits: whom each example's valid request is sent as
 * (plain USER for member, ADMIN for tenantAdmin, the firm advisor for advisor...).
 */
export const rightfulFor = (access: Access, cast: Cast): Person =>
  ({
    public: cast.a.user,
    session: cast.a.user,
    member: cast.a.user,
    tenantAdmin: cast.a.admin,
    advisor: cast.firm.advisor,
    platformAdmin: cast.platformAdmin,
  })[access];
