import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Done, IdParam } from '../../../contracts/api/common';
import {
  TeamMember,
  UpdateUserRequest,
  UserStatusRequest,
  UserWithTenants,
} from '../../../contracts/api/users';
import { AppError } from '../../../contracts/errors';
import { userSubject } from '../../../commands/personal-data';
import { recipientDecider } from '../../../domain/recipient/recipient-decider';
import { listTenantRecipients } from '../../../projections/recipients/query-recipients';
import { userDecider } from '../../../domain/user/user-decider';
import { queryTeam } from '../../../projections/users/query-team';
import { executeCommand, ifMatchOf, loadAggregate } from '../../execute-command';
import { currentTenantOf, requireCaller } from '../../plugins/access';
import { runCommands } from '../../use-cases/run-commands';
import { userEditCommands } from '../../use-cases/users/user-edit-commands';
import { userForCaller } from '../../use-cases/users/user-for-caller';
import { recipientStream, userStream } from '../../../contracts/stream-ids';

const notFound = () => new AppError('not_found', 'User not found.');

/** User edits, access status, deletion and auth reset (portal.md sections 4-7, admin.md section 4). */
export const userEditRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/users/:id',
      config: { access: 'member' },
      schema: {
        tags: ['users'],
        params: IdParam,
        body: UpdateUserRequest,
        response: { 200: UserWithTenants },
      },
      handler: async (request, reply) => {
        const caller = requireCaller(request);
        const userId = request.params.id;
        const streamId = userStream(userId);
        const { state } = await loadAggregate(request, userDecider, streamId);
        if (state.status !== 'registered') throw notFound();
        // Others than platform admins edit only people of their current company (and themselves there).
        const tenantId = caller.tenantId;
        if (!caller.isPlatformAdmin && (tenantId === null || !state.memberships[tenantId])) throw notFound();
        const commands = await userEditCommands(request, { caller, user: state, body: request.body });
        const done = await runCommands(reply, userDecider, {
          streamId,
          commands,
          ifMatch: ifMatchOf(request),
          tenantId,
        });
        void reply.header('etag', `"${done.revision}"`);
        const readAfter = done.position === null ? request.readAfter : { afterPosition: done.position };
        return userForCaller(request, userId, readAfter);
      },
    });
  }

  app.put(
    '/api/users/:id/status',
    {
      config: { access: 'tenantAdmin' },
      schema: {
        tags: ['users'],
        params: IdParam,
        body: UserStatusRequest,
        response: { 200: TeamMember },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const tenantId = currentTenantOf(request);
      const userId = request.params.id;
      const { state } = await loadAggregate(request, userDecider, userStream(userId));
      if (state.status !== 'registered' || !state.memberships[tenantId]) throw notFound();
      // A disabled member keeps their sessions; the access hook refuses them in this company (INACTIVE).
      const changed = await executeCommand(reply, userDecider, {
        streamId: userStream(userId),
        tenantId,
        command: {
          type: 'ChangeMembershipStatus',
          data: { tenantId, status: request.body.Status, toggleReports: request.body.ToggleReports },
          now: services.now(),
          actor: caller.actor,
        },
      });
      // ToggleReports: disabling takes the member's report subscriptions in this company with it
      // (DEACTIVATED); enabling again restores exactly those.
      let position = changed.position;
      if (request.body.ToggleReports) {
        const { recipients } = await listTenantRecipients(services.db, {
          tenantId,
          readAfter: { afterPosition: changed.position },
        });
        for (const recipient of recipients.filter((r) => r.SubscriberId === userId)) {
          const toggled = await executeCommand(reply, recipientDecider, {
            streamId: recipientStream(recipient.Id),
            tenantId,
            command:
              request.body.Status === 'INACTIVE'
                ? {
                    type: 'DeactivateRecipient',
                    data: { actor: caller.actor, cause: 'member_access_disabled' },
                    now: services.now(),
                  }
                : {
                    type: 'ActivateRecipient',
                    data: { actor: caller.actor, cause: 'member_access_enabled' },
                    now: services.now(),
                  },
          });
          position = Math.max(position, toggled.position);
        }
      }
      const { members } = await queryTeam(services.db, { tenantId, afterPosition: position });
      const member = members.find((m) => m.Id === userId);
      if (!member) throw notFound();
      return member;
    },
  );

  app.delete(
    '/api/users/:id',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['users'], params: IdParam, response: { 200: Done } },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const userId = request.params.id;
      await executeCommand(reply, userDecider, {
        streamId: userStream(userId),
        tenantId: null,
        command: { type: 'DeleteUser', data: {}, now: services.now(), actor: caller.actor },
      });
      // Crypto-shredding (docs/adr/0005): the user's name, email and job titles become unreadable.
      await services.writeSide.personalData.erase(userSubject(userId));
      await services.sessions.revokeAllOf(userId);
      return { ok: true as const };
    },
  );

  app.delete(
    '/api/users/:id/auth',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['users'], params: IdParam, response: { 200: Done } },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const userId = request.params.id;
      await executeCommand(reply, userDecider, {
        streamId: userStream(userId),
        tenantId: null,
        command: { type: 'ResetUserAuth', data: {}, now: services.now(), actor: caller.actor },
      });
      // Whoever signed in with the old password or provider is signed out.
      await services.sessions.revokeAllOf(userId);
      return { ok: true as const };
    },
  );

  return Promise.resolve();
};
