import { registerUser } from '../../use-cases/auth/register-user';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  RecoverPasswordRequest,
  RecoverPasswordResponse,
  RegisterRequest,
  ResetPasswordRequest,
  SessionResponse,
  loginMessages,
  passwordChangedMessage,
  recoverySentMessage,
} from '../../../contracts/auth';
import { Done, EmptyBody } from '../../../contracts/api/common';
import { AppError, isAppError } from '../../../contracts/errors';
import { userDecider } from '../../../domain/user/user-decider';
import { normaliseEmail } from '../../../domain/user/email';
import { emailInUse, userIdByEmail } from '../../../projections/users/user-facts';
import { usersCollection } from '../../../projections/users/user-view';
import { recoveryEmail, verificationEmail } from '../../../workflows/email/templates/auth-emails';
import { hashPassword, verifyPassword } from '../../auth/password-hash';
import {
  newRecoveryToken,
  readVerificationToken,
  recoveryTokenHash,
  signVerificationToken,
  userIdOfRecoveryToken,
} from '../../auth/signed-links';
import { executeCommand, loadAggregate } from '../../execute-command';
import { requireCaller } from '../../plugins/access';
import { rateLimits } from '../../plugins/security';
import { sessionCookie } from '../../plugins/session-auth';
import { publicLink, sendAuthEmail } from '../../use-cases/auth/send-auth-email';
import { startSession } from '../../use-cases/auth/start-session';
import { userStream } from '../../../contracts/stream-ids';

const sensitive = { max: rateLimits.sensitive, timeWindow: '1 minute' };
/** Verification links stay valid for a week; the address they verify must still be the account's. */
const verificationValidityMs = 7 * 24 * 3_600_000;
const TokenQuery = z.object({ token: z.string().min(10).max(2000) }).strict();

const selfActor = (userId: number) => ({
  userId,
  isPlatformAdmin: false,
  tenantRole: null,
  isAdvisor: false,
});

/** Registration, email verification, password recovery and change (portal.md sections 4, 5 and 7). */
export const accountRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  const sendVerification = (
    request: Parameters<typeof sendAuthEmail>[0],
    user: { userId: number; email: string; givenName: string },
  ) => {
    const token = signVerificationToken(services.config.SESSION_SECRET, {
      userId: user.userId,
      email: user.email,
      expiresAt: new Date(services.now().getTime() + verificationValidityMs),
    });
    const verifyUrl = publicLink(request, `/api/auth/verify?token=${encodeURIComponent(token)}`);
    return sendAuthEmail(request, user.email, verificationEmail({ givenName: user.givenName, verifyUrl }));
  };

  app.post(
    '/api/auth/register',
    {
      config: { access: 'public', rateLimit: sensitive },
      schema: { tags: ['auth'], body: RegisterRequest, response: { 200: SessionResponse } },
    },
    async (request, reply) => {
      const body = request.body;
      const email = normaliseEmail(body.email);
      const inUse = await emailInUse(services.db, { email, ...request.readAfter });
      // Refused before the id and the expensive hash are spent; the decider checks it again.
      if (inUse.inUse)
        throw new AppError('validation', 'The email is already in use.', {
          properties: { email: 'not_unique' },
        });
      const userId = await registerUser(reply, {
        email,
        givenName: body.givenName,
        familyName: body.familyName,
        authProvider: 'password',
        passwordHash: await hashPassword(body.password),
        emailVerified: false,
        referrer: body.referrer ?? null,
        referrerIdentifier: body.referrerIdentifier ?? null,
        landingPage: body.landingPage ?? null,
        planIdentifier: body.planIdentifier ?? null,
      });
      await sendVerification(request, { userId, email, givenName: body.givenName });
      return startSession(reply, { userId, email }, { method: 'password' });
    },
  );

  app.post(
    '/api/auth/verify/resend',
    {
      config: { access: 'session', rateLimit: sensitive },
      schema: { tags: ['auth'], body: EmptyBody, response: { 200: Done } },
    },
    async (request) => {
      const { userId } = requireCaller(request);
      const user = await (await usersCollection(services.db)).findOne({ _id: userId });
      if (!user) throw new AppError('not_found', 'User not found.');
      if (!user.EmailVerified) {
        const sent = await sendVerification(request, {
          userId,
          email: user.Email,
          givenName: user.GivenName,
        });
        if (!sent) throw new AppError('unavailable', 'The operation failed. Please try again.');
      }
      return { ok: true as const };
    },
  );

  // The link in the verification email: the browser lands on /email-verified or /verification-failed.
  app.get(
    '/api/auth/verify',
    { config: { access: 'public' }, schema: { tags: ['auth'], querystring: TokenQuery } },
    async (request, reply) => {
      const claim = readVerificationToken(
        services.config.SESSION_SECRET,
        request.query.token,
        services.now(),
      );
      if (!claim) return reply.redirect('/verification-failed');
      try {
        await executeCommand(reply, userDecider, {
          streamId: userStream(claim.userId),
          tenantId: null,
          command: {
            type: 'VerifyUserEmail',
            data: { email: claim.email },
            now: services.now(),
            actor: selfActor(claim.userId),
          },
        });
      } catch (error) {
        if (isAppError(error)) return reply.redirect('/verification-failed');
        throw error;
      }
      return reply.redirect('/email-verified');
    },
  );

  app.post(
    '/api/auth/recoverPassword',
    {
      config: {
        access: 'public',
        rateLimit: {
          ...sensitive,
          errorResponseBuilder: () => ({ statusCode: 429, message: loginMessages.tooManyRecoveries }),
        },
      },
      schema: { tags: ['auth'], body: RecoverPasswordRequest, response: { 200: RecoverPasswordResponse } },
    },
    async (request, reply) => {
      const { userId } = await userIdByEmail(services.db, {
        email: request.body.email,
        ...request.readAfter,
      });
      // The same answer whether or not the address has an account, so the form reveals no accounts.
      if (userId !== null) {
        const { state } = await loadAggregate(request, userDecider, userStream(userId));
        if (state.status === 'registered') {
          const { token, tokenHash } = newRecoveryToken(userId);
          await executeCommand(reply, userDecider, {
            streamId: userStream(userId),
            tenantId: null,
            command: {
              type: 'RequestPasswordRecovery',
              data: { tokenHash },
              now: services.now(),
              actor: selfActor(userId),
            },
          });
          const resetUrl = publicLink(request, `/api/auth/recover?token=${encodeURIComponent(token)}`);
          await sendAuthEmail(request, state.email, recoveryEmail({ givenName: state.givenName, resetUrl }));
        }
      }
      return { message: recoverySentMessage };
    },
  );

  // The link in the recovery email: opens a session that may only set a new password (/reset-password).
  app.get(
    '/api/auth/recover',
    {
      config: { access: 'public', rateLimit: sensitive },
      schema: { tags: ['auth'], querystring: TokenQuery },
    },
    async (request, reply) => {
      const { token } = request.query;
      const userId = userIdOfRecoveryToken(token);
      const tokenHash = recoveryTokenHash(token);
      const { state } =
        userId === null ? { state: null } : await loadAggregate(request, userDecider, userStream(userId));
      // Checked here to send the browser to the right page; RecoverPassword checks again when it is spent.
      const usable =
        state?.status === 'registered' &&
        state.recovery?.tokenHash === tokenHash &&
        new Date(state.recovery.expiresAt).getTime() > services.now().getTime();
      if (usable) {
        await startSession(
          reply,
          { userId: state.userId, email: state.email },
          { method: null, resetPasswordRequired: true, recoveryTokenHash: tokenHash },
        );
        return reply.redirect('/reset-password');
      }
      return reply.redirect('/recovery-failed');
    },
  );

  app.post(
    '/api/auth/resetPassword',
    {
      config: { access: 'session', duringPasswordReset: true, rateLimit: sensitive },
      schema: { tags: ['auth'], body: ResetPasswordRequest, response: { 200: RecoverPasswordResponse } },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const { session } = caller;
      const { password, currentPassword } = request.body;
      const passwordHash = await hashPassword(password);
      const now = services.now();
      const actor = selfActor(caller.userId);
      if (session.recoveryTokenHash) {
        await executeCommand(reply, userDecider, {
          streamId: userStream(caller.userId),
          tenantId: null,
          command: {
            type: 'RecoverPassword',
            data: { tokenHash: session.recoveryTokenHash, passwordHash },
            now,
            actor,
          },
        });
      } else {
        const { state } = await loadAggregate(request, userDecider, userStream(caller.userId));
        const stored = state.status === 'registered' ? state.passwordHash : null;
        const check =
          currentPassword === undefined || currentPassword === ''
            ? 'not_given'
            : stored && (await verifyPassword(currentPassword, stored))
              ? 'verified'
              : 'wrong';
        await executeCommand(reply, userDecider, {
          streamId: userStream(caller.userId),
          tenantId: null,
          command: { type: 'ChangePassword', data: { passwordHash, currentPassword: check }, now, actor },
        });
      }
      // A new password ends every other session of the user (a stolen session must not survive it).
      const token = request.cookies[sessionCookie] ?? '';
      await services.sessions.revokeAllOf(caller.userId, { except: token });
      await services.sessions.update(token, { resetPasswordRequired: false, recoveryTokenHash: null });
      return { message: passwordChangedMessage };
    },
  );

  return Promise.resolve();
};
