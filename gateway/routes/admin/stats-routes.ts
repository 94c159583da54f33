import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { StatsResponse } from '../../../contracts/api/stats';
import { queryAdminStats } from '../../../projections/stats/query-admin-stats';

/** The admin dashboard's and statistics screen's counts (admin.md sections 2 and 7). */
export const statsRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.get(
    '/api/stats',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['admin'], response: { 200: StatsResponse } },
    },
    async (request) => {
      const { stale: _stale, ...stats } = await queryAdminStats(services.db, {
        now: services.now(),
        ...request.readAfter,
      });
      return { stats };
    },
  );

  return Promise.resolve();
};
