import { allocateId } from '../../commands/id-allocator';
import type { SessionResponse } from '../../contracts/auth';
import type { TenantRole } from '../../contracts/events/user';
import { systemActor } from '../../domain/actor';
import { userDecider } from '../../domain/user/user-decider';
import { hashPassword } from '../../gateway/auth/password-hash';
import { sessionCookie } from '../../gateway/plugins/session-auth';
import type { Browser, World } from './gateway-world';
import { strongPassword } from './fixtures';
import { userStream } from '../../contracts/stream-ids';

/** Someone signed up and signed in, as the fixtures' signUp answers. */
export type Person = { browser: Browser; session: SessionResponse; email: string; password: string };

let made = 0;

/** A registered user (password strongPassword, email verified) made with the user command directly. */
export const registeredUser = async (
  world: World,
  who: { name: string; givenName?: string; familyName?: string },
): Promise<{ userId: number; email: string }> => {
  made += 1;
  const email = world.email(who.name);
  const now = world.clock.now();
  const userId = await allocateId(world.services.writeSide.store, {
    category: 'user',
    commandId: `fixture-${world.runId}-${made}`,
    now,
  });
  await world.run(userDecider, userStream(userId), {
    type: 'RegisterUser',
    data: {
      userId,
      email,
      givenName: who.givenName ?? who.name,
      familyName: who.familyName ?? 'Tester',
      authProvider: 'password',
      passwordHash: await hashPassword(strongPassword),
      emailVerified: true,
      emailInUse: false,
    },
    now,
    actor: { userId, isPlatformAdmin: false, tenantRole: null, isAdvisor: false },
  });
  await world.settle();
  return { userId, email };
};

/**
 * A registered, signed-in person made without the register and login routes, whose per-address rate
 * limit (20 a minute) a test of other routes would otherwise exhaust.
 */
export const person = async (
  world: World,
  who: { name: string; givenName?: string; familyName?: string },
): Promise<Person> => {
  const { userId, email } = await registeredUser(world, who);
  const now = world.clock.now();
  const { token } = await world.services.sessions.create(
    { userId, tenantId: null, resetPasswordRequired: false },
    now,
  );
  const browser = world.browser();
  browser.cookies.set(sessionCookie, token);
  const self = await browser.get('/api/auth/self');
  if (self.statusCode !== 200) throw new Error(`self: ${self.statusCode} ${self.body}`);
  return { browser, session: self.json<SessionResponse>(), email, password: strongPassword };
};

/** Adds the person to the tenant (as an admin would) and switches their browser into it. */
export const joinAs = async (
  world: World,
  person: Person,
  membership: { tenantId: number; role: TenantRole; advisor?: boolean },
): Promise<void> => {
  await world.run(userDecider, userStream(person.session.user.Id), {
    type: 'JoinTenant',
    data: {
      tenantId: membership.tenantId,
      role: membership.role,
      classification: membership.advisor ? 'ADVISOR' : 'MEMBER',
      jobTitle: null,
      sendWeekly: true,
      sendMonthly: false,
      inviteId: null,
    },
    now: world.clock.now(),
    actor: systemActor,
  });
  await world.settle();
  const switched = await person.browser.post('/api/auth/switchTenant', { tenantId: membership.tenantId });
  if (switched.statusCode !== 200) throw new Error(`switchTenant: ${switched.statusCode} ${switched.body}`);
};
