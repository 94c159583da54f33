import { registerUser } from '../../use-cases/auth/register-user';
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Done } from '../../../contracts/api/common';
import { InviteIdParam, InviteRequest, InviteResponse } from '../../../contracts/auth';
import { AppError, isAppError } from '../../../contracts/errors';
import { systemActor } from '../../../domain/actor';
import { inviteDecider } from '../../../domain/invite/invite-decider';
import { normaliseEmail } from '../../../domain/user/email';
import { userDecider } from '../../../domain/user/user-decider';
import { queryInvite } from '../../../projections/invites/query-invites';
import { tenantsCollection } from '../../../projections/tenants/tenant-view';
import { membershipsCollection } from '../../../projections/users/membership-counts';
import { userIdByEmail } from '../../../projections/users/user-facts';
import { usersCollection } from '../../../projections/users/user-view';
import { invitationEmail } from '../../../workflows/email/templates/auth-emails';
import { inviteStreamOf } from '../../auth/signed-links';
import { executeCommand, loadAggregate } from '../../execute-command';
import { currentTenantOf, requireCaller, requireSameTenant } from '../../plugins/access';
import { sessionCookie } from '../../plugins/session-auth';
import { publicLink, sendAuthEmail } from '../../use-cases/auth/send-auth-email';
import { startSession } from '../../use-cases/auth/start-session';

const alreadyMember = 'The user is already a member of this company.';

/** Splits an invitee's single name field into the account's given and family names. */
const namesOf = (name: string) => {
  const [givenName = name, ...rest] = name.trim().split(/\s+/);
  return { givenName, familyName: rest.join(' ') || givenName };
};

/** Team invitations: invite, cancel, and the link in the invitation email (portal.md sections 4 and 7). */
export const inviteRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;
  const secret = services.config.SESSION_SECRET;

  app.post(
    '/api/auth/invite',
    {
      config: { access: 'tenantAdmin' },
      schema: { tags: ['auth'], body: InviteRequest, response: { 200: InviteResponse } },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const tenantId = currentTenantOf(request);
      const body = request.body;
      const email = normaliseEmail(body.email);
      const tenant = await (await tenantsCollection(services.db)).findOne({ _id: tenantId });
      if (!tenant) throw new AppError('not_found', 'Not Found');
      const existing = await userIdByEmail(services.db, { email, ...request.readAfter });
      if (existing.userId !== null) {
        const membership = await (
          await membershipsCollection(services.db)
        ).findOne({ userId: existing.userId, tenantId, userDeleted: false });
        if (membership)
          throw new AppError('conflict', alreadyMember, { properties: { email: 'already_member' } });
      }
      const streamId = inviteStreamOf(secret, tenantId, email);
      const created = await executeCommand(reply, inviteDecider, {
        streamId,
        tenantId,
        command: {
          type: 'CreateInvite',
          data: {
            inviteId: randomUUID(),
            tenantId,
            email,
            name: body.name,
            role: body.role ?? null,
            jobTitle: body.jobTitle ?? null,
            subscribeToReports: body.subscribeToReports,
            classifyAsAdvisor: body.classifyAsAdvisor,
            workflow: body.workflow,
            tenantClassification: tenant.Classification,
          },
          now: services.now(),
          actor: caller.actor,
        },
      });
      const event = created.events.find((e) => e.type === 'InviteCreated');
      if (event?.type !== 'InviteCreated') throw new Error('CreateInvite appended no InviteCreated');
      const inviter = await (await usersCollection(services.db)).findOne({ _id: caller.userId });
      const sent = await sendAuthEmail(
        request,
        email,
        invitationEmail({
          inviterName: inviter?.Name ?? 'A colleague',
          tenantName: tenant.Name,
          inviteeName: event.data.Name,
          acceptUrl: publicLink(request, `/api/auth/invitation/${event.data.InviteId}`),
          withConnectionInstructions: body.workflow === 'ACCOUNTING_ADMIN',
        }),
      );
      if (sent) {
        await executeCommand(reply, inviteDecider, {
          streamId,
          tenantId,
          part: 'sent',
          command: {
            type: 'MarkInviteSent',
            data: { inviteId: event.data.InviteId },
            now: services.now(),
            actor: systemActor,
          },
        });
      }
      return {
        Uuid: event.data.InviteId,
        Email: email,
        Name: event.data.Name,
        status: sent ? ('sent' as const) : ('pending' as const),
      };
    },
  );

  app.delete(
    '/api/auth/invite/:id',
    {
      config: { access: 'tenantAdmin' },
      schema: { tags: ['auth'], params: InviteIdParam, response: { 200: Done } },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const { invite } = await queryInvite(services.db, {
        inviteId: request.params.id,
        ...request.readAfter,
      });
      if (!invite) throw new AppError('not_found', 'Invitation not found.');
      requireSameTenant(request, invite.TenantId);
      await executeCommand(reply, inviteDecider, {
        streamId: invite.streamId,
        tenantId: invite.TenantId,
        command: {
          type: 'CancelInvite',
          data: { inviteId: invite.Uuid },
          now: services.now(),
          actor: caller.actor,
        },
      });
      return { ok: true as const };
    },
  );

  // The link in the invitation email. Following it proves control of the address, as a recovery link
  // does: the invitee joins the company and is signed in; someone without an account yet gets one and
  // chooses a password on /reset-password. A cancelled or used link lands on /invite-cancelled.
  app.get(
    '/api/auth/invitation/:id',
    { config: { access: 'public' }, schema: { tags: ['auth'], params: InviteIdParam } },
    async (request, reply) => {
      const { invite } = await queryInvite(services.db, {
        inviteId: request.params.id,
        ...request.readAfter,
      });
      if (!invite || (invite.status !== 'pending' && invite.status !== 'sent'))
        return reply.redirect('/invite-cancelled');
      const now = services.now();
      let { userId } = await userIdByEmail(services.db, { email: invite.Email, ...request.readAfter });
      if (userId === null) {
        userId = await registerUser(reply, {
          email: invite.Email,
          ...namesOf(invite.Name),
          authProvider: null,
          passwordHash: null,
          emailVerified: true,
        });
      }
      const self = { userId, isPlatformAdmin: false, tenantRole: null, isAdvisor: false };
      try {
        const accepted = await executeCommand(reply, inviteDecider, {
          streamId: invite.streamId,
          tenantId: invite.TenantId,
          command: {
            type: 'AcceptInvite',
            data: { inviteId: invite.Uuid, userId, userEmail: invite.Email },
            now,
            actor: self,
          },
        });
        const joined = accepted.events.find((e) => e.type === 'InviteJoined');
        if (joined?.type !== 'InviteJoined') throw new Error('AcceptInvite appended no InviteJoined');
        await executeCommand(reply, userDecider, {
          streamId: `user-${userId}`,
          tenantId: invite.TenantId,
          command: {
            type: 'JoinTenant',
            data: {
              tenantId: invite.TenantId,
              role: joined.data.MembershipRole,
              classification: joined.data.MembershipClassification,
              jobTitle: joined.data.JobTitle,
              sendWeekly: joined.data.SendWeekly,
              sendMonthly: joined.data.SendMonthly,
              inviteId: invite.Uuid,
            },
            now,
            actor: self,
          },
        });
      } catch (error) {
        if (isAppError(error) && error.code !== 'internal') {
          request.log.info({ err: error, inviteId: invite.Uuid }, 'invitation link refused');
          return reply.redirect('/invite-cancelled');
        }
        throw error;
      }
      const { state } = await loadAggregate(request, userDecider, `user-${userId}`);
      const needsPassword = state.status === 'registered' && state.passwordHash === null;
      // Any session of someone else in this browser ends: the link signs in the invitee.
      const previous = request.cookies[sessionCookie];
      if (previous) await services.sessions.revoke(previous);
      await startSession(
        reply,
        { userId, email: invite.Email },
        { method: null, resetPasswordRequired: needsPassword, tenantId: invite.TenantId },
      );
      return reply.redirect(needsPassword ? '/reset-password' : '/overview');
    },
  );

  return Promise.resolve();
};
