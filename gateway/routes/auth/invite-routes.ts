import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Done } from '../../../contracts/api/common';
import {
  AcceptInvitationRequest,
  AcceptInvitationResponse,
  InviteIdParam,
  InviteRequest,
  InviteResponse,
} from '../../../contracts/auth';
import { AppError } from '../../../contracts/errors';
import { systemActor } from '../../../domain/actor';
import { inviteDecider } from '../../../domain/invite/invite-decider';
import { normaliseEmail } from '../../../domain/user/email';
import { queryInvite } from '../../../projections/invites/query-invites';
import { tenantsCollection } from '../../../projections/tenants/tenant-view';
import { membershipsCollection } from '../../../projections/users/membership-counts';
import { userIdByEmail } from '../../../projections/users/user-facts';
import { usersCollection } from '../../../projections/users/user-view';
import { invitationEmail } from '../../../workflows/email/templates/auth-emails';
import { inviteStreamOf, newInvitationToken } from '../../auth/signed-links';
import { executeCommand } from '../../execute-command';
import { currentTenantOf, requireCaller, requireSameTenant } from '../../plugins/access';
import { rateLimits } from '../../plugins/security';
import { acceptInvitation } from '../../use-cases/auth/accept-invitation';
import { publicLink, sendAuthEmail } from '../../use-cases/auth/send-auth-email';

const alreadyMember = 'The user is already a member of this company.';
const sensitive = { max: rateLimits.sensitive, timeWindow: '1 minute' };

/** Team invitations: invite, cancel, and accepting the invitation email's link (portal.md sections 4 and 7). */
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
      // The token goes into the email alone: this answer, the events and the pending list never hold it.
      const { token, tokenHash } = newInvitationToken();
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
            tokenHash,
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
          // In the fragment, so no server, log or Referer header ever sees the token.
          acceptUrl: publicLink(request, `/invitation#invite=${event.data.InviteId}&token=${token}`),
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
      // The same answer as another tenant's invitation (requireSameTenant), so ids cannot be probed.
      if (!invite) throw new AppError('not_found', 'Not Found');
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

  // The invitation page (/invitation, with the emailed token in its fragment) posts here when the
  // invitee presses Accept; no GET accepts (docs/adr/0020-invitation-tokens.md).
  app.post(
    '/api/auth/invitation/accept',
    {
      config: { access: 'public', rateLimit: sensitive },
      schema: {
        tags: ['auth'],
        body: AcceptInvitationRequest,
        response: { 200: AcceptInvitationResponse },
      },
    },
    (request, reply) => acceptInvitation(reply, request.body),
  );

  return Promise.resolve();
};
