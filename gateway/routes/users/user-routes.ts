import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParam } from '../../../contracts/api/common';
import type { TeamMember } from '../../../contracts/api/users';
import { UserWithTenants, UsersQuery, UsersResponse } from '../../../contracts/api/users';
import { AppError } from '../../../contracts/errors';
import { queryPendingInvites } from '../../../projections/invites/query-invites';
import { queryTeam } from '../../../projections/users/query-team';
import { queryUserList } from '../../../projections/users/query-users';
import { currentTenantOf, requireCaller, requireTenantAccess } from '../../plugins/access';
import { userForCaller } from '../../use-cases/users/user-for-caller';

const platformAdminOnly = () =>
  new AppError('forbidden', 'Access Denied', { message: 'scope=all is for platform admins' });

/** The team page, pending invites, the admin users table and one user (portal.md and admin.md section 7). */
export const userRoutes: FastifyPluginAsyncZod = (app) => {
  const { db } = app.services;

  app.get(
    '/api/users',
    {
      config: { access: 'member' },
      schema: { tags: ['users'], querystring: UsersQuery, response: { 200: UsersResponse } },
    },
    async (request) => {
      const caller = requireCaller(request);
      const query = request.query;
      if (query.scope === 'all') {
        if (!caller.isPlatformAdmin) throw platformAdminOnly();
        const page = await queryUserList(db, {
          search: query.search,
          sort: query.sort ? { field: query.sort, direction: query.direction ?? 'asc' } : undefined,
          page: query.page,
          pageSize: query.pageSize,
          ...request.readAfter,
        });
        return { users: page.rows, total: page.total, page: page.page, pageSize: page.pageSize };
      }
      const tenantId = currentTenantOf(request);
      if (query.pending) {
        // Pending invites are the tenant admin's (portal.md section 6).
        await requireTenantAccess(request, tenantId, 'tenantAdmin');
        const { invites } = await queryPendingInvites(db, {
          tenantId,
          now: app.services.now(),
          ...request.readAfter,
        });
        return {
          invites: invites.map((invite) => ({
            Uuid: invite.Uuid,
            Email: invite.Email,
            Name: invite.Name,
            Role: invite.Role,
            JobTitle: invite.JobTitle,
            Workflow: invite.Workflow,
            status: invite.status === 'sent' ? ('sent' as const) : ('pending' as const),
            createdAt: invite.createdAt,
            lastSentAt: invite.lastSentAt,
          })),
        };
      }
      const { members } = await queryTeam(db, { tenantId, ...request.readAfter });
      return { members: members satisfies TeamMember[] };
    },
  );

  app.get(
    '/api/users/:id',
    {
      config: { access: 'session' },
      schema: { tags: ['users'], params: IdParam, response: { 200: UserWithTenants } },
    },
    (request) => userForCaller(request, request.params.id),
  );

  return Promise.resolve();
};
