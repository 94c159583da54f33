import type { FastifyReply } from 'fastify';
import type { RegisterUser } from '../../../domain/user/decide';
import { userDecider } from '../../../domain/user/user-decider';
import { allocateIdFor, executeCommand } from '../../execute-command';
import { userStream } from '../../../contracts/stream-ids';

/** What a new account starts with; the id is allocated here. */
export type NewAccount = Omit<RegisterUser['data'], 'userId' | 'emailInUse'>;

/**
 * Creates an account (registration form, provider sign-up, invitation link) under a fresh id. The
 * address was checked against the users read model by the caller; the request's next reads include
 * the new account.
 */
export const registerUser = async (reply: FastifyReply, account: NewAccount): Promise<number> => {
  const userId = await allocateIdFor(reply, 'user');
  const registered = await executeCommand(reply, userDecider, {
    streamId: userStream(userId),
    tenantId: null,
    command: {
      type: 'RegisterUser',
      data: { ...account, userId, emailInUse: false },
      now: reply.server.services.now(),
      actor: { userId, isPlatformAdmin: false, tenantRole: null, isAdvisor: false },
    },
  });
  reply.request.readAfter = { afterPosition: registered.position };
  return userId;
};
