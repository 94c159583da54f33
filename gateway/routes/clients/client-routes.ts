import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClientUsersResponse, ClientsQuery, ClientsResponse } from '../../../contracts/api/clients';
import { queryClientUsers } from '../../../projections/clients/query-client-users';
import { queryClients } from '../../../projections/clients/query-clients';
import { requireCaller } from '../../plugins/access';

/** The advisor's clients and the users across them (portal.md section 2.3; advisors only, section 6). */
export const clientRoutes: FastifyPluginAsyncZod = (app) => {
  const { db } = app.services;

  app.get(
    '/api/clients',
    {
      config: { access: 'advisor' },
      schema: { tags: ['clients'], querystring: ClientsQuery, response: { 200: ClientsResponse } },
    },
    async (request) => {
      const { userId } = requireCaller(request);
      const { search, hasPlatforms, platform, plan } = request.query;
      const { clients } = await queryClients(db, {
        userId,
        search,
        hasPlatforms,
        platform,
        plans: plan,
        ...request.readAfter,
      });
      return { clients };
    },
  );

  app.get(
    '/api/clients/users',
    {
      config: { access: 'advisor' },
      schema: { tags: ['clients'], response: { 200: ClientUsersResponse } },
    },
    async (request) => {
      const { userId } = requireCaller(request);
      const { rows } = await queryClientUsers(db, { userId, ...request.readAfter });
      return { users: rows };
    },
  );

  return Promise.resolve();
};
