import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AnalyticsStatsResponse } from '../../../contracts/api/analytics';
import { queryPlatformLedgerTotals } from '../../../projections/analytics/query-platform-totals';
import { queryAdminStats } from '../../../projections/stats/query-admin-stats';

/**
 * The admin dashboard's and statistics screen's counts (admin.md sections 2 and 7): tenants, sellers,
 * partners and subscriptions from their read models; customers, invoices and sales from the
 * analytics consumers' read models (docs/analytics.md).
 */
export const statsRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.get(
    '/api/stats',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['admin'], response: { 200: AnalyticsStatsResponse } },
    },
    async (request) => {
      const now = services.now();
      const [{ stale: _stale, ...stats }, ledger] = await Promise.all([
        queryAdminStats(services.db, { now, ...request.readAfter }),
        queryPlatformLedgerTotals(services.db, now),
      ]);
      return { stats: { ...stats, ...ledger } };
    },
  );

  return Promise.resolve();
};
