import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  LeaveTenantRequest,
  LoginRequest,
  LogoutQuery,
  LogoutRequest,
  LogoutResponse,
  SessionResponse,
  SwitchTenantRequest,
  loginMessages,
} from '../../../contracts/auth';
import { AppError } from '../../../contracts/errors';
import { userDecider } from '../../../domain/user/user-decider';
import type { UserState } from '../../../domain/user/user';
import { tenantsCollection } from '../../../projections/tenants/tenant-view';
import { otherActiveAdvisorsOrAdmins, userIdByEmail } from '../../../projections/users/user-facts';
import { needsRehash, verifyPassword } from '../../auth/password-hash';
import { executeCommand, loadAggregate } from '../../execute-command';
import { requireCaller, requireTenantAccess } from '../../plugins/access';
import { rateLimits } from '../../plugins/security';
import { sessionCookie } from '../../plugins/session-auth';
import { sessionView } from '../../use-cases/auth/session-view';
import { startSession } from '../../use-cases/auth/start-session';
import { userStream } from '../../../contracts/stream-ids';

const sensitive = { max: rateLimits.sensitive, timeWindow: '1 minute' };

const switchFailed = 'There was an error while switching to a different tenant.';

/** Login, the current session, tenant switching and leaving, logout (portal.md section 7, Auth). */
export const sessionRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.post(
    '/api/auth/login',
    {
      config: { access: 'public', rateLimit: sensitive },
      schema: { tags: ['auth'], body: LoginRequest, response: { 200: SessionResponse } },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const now = services.now();
      const who = { email, ip: request.ip };
      const lockedUntil = await services.loginThrottle.lockedUntil(who, now);
      if (lockedUntil) {
        void reply.header('retry-after', Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
        throw new AppError('rate_limited', loginMessages.tooManyAttempts);
      }
      const { userId } = await userIdByEmail(services.db, { email, ...request.readAfter });
      const user = userId === null ? null : await loadAggregate(request, userDecider, userStream(userId));
      const state: UserState | undefined = user?.state;
      const hash = state?.status === 'registered' ? state.passwordHash : null;
      // The same work and the same answer whether or not the account exists.
      const valid = hash
        ? await verifyPassword(password, hash)
        : (await verifyPassword(password, dummyHash), false);
      if (!valid || userId === null || state?.status !== 'registered') {
        await services.loginThrottle.recordFailure(who, now);
        throw new AppError('unauthorized', loginMessages.invalidCredentials);
      }
      await services.loginThrottle.recordSuccess(who);
      if (hash && needsRehash(hash)) request.log.info({ userId }, 'password hash parameters are out of date');
      return startSession(
        reply,
        { userId, email: state.email },
        { method: 'password', resetPasswordRequired: state.passwordResetRequired },
      );
    },
  );

  app.get(
    '/api/auth/self',
    {
      config: { access: 'session', duringPasswordReset: true },
      schema: { tags: ['auth'], response: { 200: SessionResponse } },
    },
    (request) => sessionView(request, requireCaller(request).session),
  );

  const logout = async (request: FastifyRequest, reply: FastifyReply, reason: string | undefined) => {
    const token = request.cookies[sessionCookie];
    if (token) await services.sessions.revoke(token);
    void reply.clearCookie(sessionCookie, { path: '/' });
    return { loggedOut: true as const, reason: reason ?? null };
  };

  // The spec's GET (portal.md section 7) answers only with the anti-forgery header, which a cross-site
  // <img> or link cannot send, so no other site can sign a user out; the web app uses the POST.
  app.get(
    '/api/auth/logout',
    {
      config: { access: 'public' },
      onRequest: (request, reply, done) => app.csrfProtection(request, reply, done),
      schema: { tags: ['auth'], querystring: LogoutQuery, response: { 200: LogoutResponse } },
    },
    (request, reply) => logout(request, reply, request.query.reason),
  );

  app.post(
    '/api/auth/logout',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], body: LogoutRequest, response: { 200: LogoutResponse } },
    },
    (request, reply) => logout(request, reply, request.body.reason),
  );

  app.post(
    '/api/auth/switchTenant',
    {
      config: { access: 'session' },
      schema: { tags: ['auth'], body: SwitchTenantRequest, response: { 200: SessionResponse } },
    },
    async (request) => {
      const caller = requireCaller(request);
      const { tenantId } = request.body;
      const tenant = await (
        await tenantsCollection(services.db)
      ).findOne({ _id: tenantId, status: 'active' }, { projection: { _id: 1 } });
      if (!tenant)
        throw new AppError('not_found', switchFailed, { message: `tenant ${tenantId} is not active` });
      // A platform admin may switch into any tenant; everyone else into their active memberships.
      if (!caller.isPlatformAdmin) await requireTenantAccess(request, tenantId);
      const token = request.cookies[sessionCookie] ?? '';
      await services.sessions.update(token, { tenantId });
      return sessionView(request, { ...caller.session, tenantId });
    },
  );

  app.post(
    '/api/auth/leaveTenant',
    {
      config: { access: 'session' },
      schema: { tags: ['auth'], body: LeaveTenantRequest, response: { 200: SessionResponse } },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const tenantId = request.body.tenantId ?? caller.tenantId;
      if (tenantId === null) throw new AppError('validation', 'There is no company to leave.');
      const tenant = await (await tenantsCollection(services.db)).findOne({ _id: tenantId });
      if (!tenant) throw new AppError('not_found', 'Not Found');
      const others = await otherActiveAdvisorsOrAdmins(services.db, {
        tenantId,
        userId: caller.userId,
        ...request.readAfter,
      });
      const left = await executeCommand(reply, userDecider, {
        streamId: userStream(caller.userId),
        tenantId,
        command: {
          type: 'LeaveTenant',
          data: {
            tenantId,
            tenantClassification: tenant.Classification,
            otherActiveAdvisorsOrAdmins: others.count,
          },
          now: services.now(),
          actor: { ...caller.actor, userId: caller.userId },
        },
      });
      // The session moves to another of the user's companies, or to none.
      const after = { afterPosition: left.position };
      const view = await sessionView(request, { ...caller.session, tenantId: null }, after);
      const next = view.tenants.find((t) => t.Id === view.user.DefaultPartnerTenantId) ?? view.tenants[0];
      const token = request.cookies[sessionCookie] ?? '';
      await services.sessions.update(token, { tenantId: next?.Id ?? null });
      return sessionView(request, { ...caller.session, tenantId: next?.Id ?? null }, after);
    },
  );

  return Promise.resolve();
};

/** A well-formed hash of a random password (salt and key of the real sizes), so a login for an unknown email costs what a real check costs. */
const dummyHash = [
  'scrypt',
  2 ** 16,
  8,
  1,
  randomBytes(16).toString('base64'),
  randomBytes(32).toString('base64'),
].join('$');
