import type { FastifyReply } from 'fastify';
import type { SessionResponse } from '../../../contracts/auth';
import type { LoginMethod } from '../../../contracts/events/user';
import { userDecider } from '../../../domain/user/user-decider';
import { queryUserTenants } from '../../../projections/tenants/query-user-tenants';
import { usersCollection } from '../../../projections/users/user-view';
import { executeCommand } from '../../execute-command';
import { setSessionCookie } from '../../plugins/session-auth';
import { sessionView } from './session-view';
import { userStream } from '../../../contracts/stream-ids';

/**
 * The tenant a new session starts in: an advisor's firm (DefaultPartnerTenantId) when they still
 * belong to it, else the first of their companies by name; none before the welcome modal.
 */
const startingTenant = async (reply: FastifyReply, userId: number, afterPosition: number) => {
  const { db } = reply.server.services;
  const [{ tenants }, user] = await Promise.all([
    queryUserTenants(db, { userId, afterPosition }),
    usersCollection(db).then((users) => users.findOne({ _id: userId })),
  ]);
  const preferred = tenants.find((tenant) => tenant.Id === user?.DefaultPartnerTenantId);
  return (preferred ?? tenants[0])?.Id ?? null;
};

/**
 * Signs a user in after their credentials were checked (password, OIDC, invitation or recovery link):
 * records the login, opens a server-side session and sets its cookie.
 */
export const startSession = async (
  reply: FastifyReply,
  user: { userId: number; email: string },
  options: {
    method: LoginMethod | null;
    resetPasswordRequired?: boolean;
    recoveryTokenHash?: string;
    /** The tenant to open (an accepted invitation's); by default the user's firm or first company. */
    tenantId?: number;
  },
): Promise<SessionResponse> => {
  const { services } = reply.server;
  const now = services.now();
  const self = { userId: user.userId, isPlatformAdmin: false, tenantRole: null, isAdvisor: false };
  let position = reply.request.readAfter.afterPosition ?? -1;
  if (options.method) {
    const recorded = await executeCommand(reply, userDecider, {
      streamId: userStream(user.userId),
      command: { type: 'RecordLogin', data: { method: options.method }, now, actor: self },
      tenantId: null,
      part: 'login',
    });
    position = Math.max(position, recorded.position);
  }
  const { token, session } = await services.sessions.create(
    {
      userId: user.userId,
      tenantId: options.tenantId ?? (await startingTenant(reply, user.userId, position)),
      resetPasswordRequired: options.resetPasswordRequired ?? false,
      recoveryTokenHash: options.recoveryTokenHash ?? null,
    },
    now,
  );
  setSessionCookie(reply, token, services.config);
  return sessionView(reply.request, session, { afterPosition: position });
};
