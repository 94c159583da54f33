import type { SessionResponse } from '../../contracts/auth';
import type { TenantClassification } from '../../contracts/events/tenant';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { systemActor } from '../../domain/actor';
import { userDecider } from '../../domain/user/user-decider';
import type { Browser, World } from './gateway-world';
import { tenantStream, userStream } from '../../contracts/stream-ids';

export const strongPassword = 'Ledger-wise-42';

let signUps = 0;
const nextSignUpAddress = () => {
  signUps += 1;
  return `10.77.${Math.floor(signUps / 250) % 250}.${(signUps % 250) + 1}`;
};

/** Registers through the API; the browser is signed in afterwards. */
export const signUp = async (
  world: World,
  who: { name: string; givenName?: string; familyName?: string; password?: string },
): Promise<{ browser: Browser; session: SessionResponse; email: string; password: string }> => {
  // Each sign-up is a person at their own address, as in life: registration is rate limited per address.
  const browser = world.browser({ remoteAddress: nextSignUpAddress() });
  const email = world.email(who.name);
  const password = who.password ?? strongPassword;
  const response = await browser.post('/api/auth/register', {
    givenName: who.givenName ?? who.name,
    familyName: who.familyName ?? 'Tester',
    email,
    password,
  });
  if (response.statusCode !== 200)
    throw new Error(`register ${email}: ${response.statusCode} ${response.body}`);
  return { browser, session: response.json<SessionResponse>(), email, password };
};

let nextTenantId = 900_000;

/**
 * A company with `userId` as its admin, made with the tenant and user commands directly (the tenants
 * routes have their own tests); the browser is switched into it.
 */
export const companyFor = async (
  world: World,
  owner: { browser: Browser; session: SessionResponse },
  company: { name: string; classification?: TenantClassification },
): Promise<number> => {
  const tenantId = (nextTenantId += 1);
  const classification = company.classification ?? 'BUSINESS';
  const actor = { userId: owner.session.user.Id, isPlatformAdmin: false, tenantRole: null, isAdvisor: false };
  const now = world.clock.now();
  await world.run(tenantDecider, tenantStream(tenantId), {
    type: 'CreateTenant',
    data: { tenantId, name: company.name, classification },
    now,
    actor,
  });
  await world.run(userDecider, userStream(owner.session.user.Id), {
    type: 'JoinCreatedTenant',
    data: { tenantId, tenantClassification: classification },
    now,
    actor,
  });
  await world.settle();
  const switched = await owner.browser.post('/api/auth/switchTenant', { tenantId });
  if (switched.statusCode !== 200) throw new Error(`switchTenant: ${switched.statusCode} ${switched.body}`);
  return tenantId;
};

/**
 * A signed-in platform administrator: the world's PLATFORM_ADMIN_EMAILS address, registered and then
 * verified (a listed address gives platform-admin rights only once its holder has proved it).
 */
export const platformAdmin = async (world: World) => {
  const signed = await signUp(world, { name: 'admin' });
  await world.run(userDecider, userStream(signed.session.user.Id), {
    type: 'VerifyUserEmail',
    data: { email: signed.email },
    now: world.clock.now(),
    actor: systemActor,
  });
  await world.settle();
  const self = await signed.browser.get('/api/auth/self');
  if (self.statusCode !== 200) throw new Error(`self: ${self.statusCode} ${self.body}`);
  return { ...signed, session: self.json<SessionResponse>() };
};
