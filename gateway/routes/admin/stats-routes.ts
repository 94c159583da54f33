import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AnalyticsStatsResponse } from '../../../contracts/api/analytics';
import { queryPlatformLedgerTotals } from '../../../projections/analytics/query-platform-totals';
import { queryAdminStats } from '../../../projections/stats/query-admin-stats';
import type { ReadAfter } from '../../../projections/read-after';
import { keyMetricsWorkbook } from '../../use-cases/stats/key-metrics-workbook';
import { attachmentDisposition } from '../reports/report-routes';

/**
 * The admin dashboard's and statistics screen's counts (admin.md sections 2 and 7): tenants, sellers,
 * partners and subscriptions from their read models; customers, invoices and sales from the
 * analytics consumers' read models (docs/analytics.md).
 */
export const statsRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;
  const platformStats = async (now: Date, readAfter: ReadAfter | undefined) => {
    const [{ stale: _stale, ...stats }, ledger] = await Promise.all([
      queryAdminStats(services.db, { now, ...readAfter }),
      queryPlatformLedgerTotals(services.db, now),
    ]);
    return { ...stats, ...ledger };
  };

  app.get(
    '/api/stats',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['admin'], response: { 200: AnalyticsStatsResponse } },
    },
    async (request) => ({ stats: await platformStats(services.now(), request.readAfter) }),
  );

  // The overview's Key Metrics card: the cards' figures and the 36 months behind them, as a workbook.
  app.get(
    '/api/stats/key-metrics',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['admin'] },
    },
    async (request, reply) => {
      const now = services.now();
      const stats = await platformStats(now, request.readAfter);
      const file = await keyMetricsWorkbook(services.db, { stats, now });
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachmentDisposition(file.fileName))
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(file.bytes));
    },
  );

  return Promise.resolve();
};
