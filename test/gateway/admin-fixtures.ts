import type { SessionResponse } from '../../contracts/auth';
import { systemActor } from '../../domain/actor';
import { userDecider } from '../../domain/user/user-decider';
import { signUp } from './fixtures';
import type { Browser, World } from './gateway-world';

/** A new user added to `tenantId` as a plain USER by the system, signed in and switched into it. */
export const plainUserOf = async (
  world: World,
  tenantId: number,
  name: string,
): Promise<{ browser: Browser; session: SessionResponse }> => {
  const user = await signUp(world, { name });
  await world.run(userDecider, `user-${user.session.user.Id}`, {
    type: 'JoinTenant',
    data: {
      tenantId,
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
  const switched = await user.browser.post('/api/auth/switchTenant', { tenantId });
  if (switched.statusCode !== 200) throw new Error(`switchTenant: ${switched.statusCode} ${switched.body}`);
  return user;
};
