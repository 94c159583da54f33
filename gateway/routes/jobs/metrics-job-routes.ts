import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { JobsResponse, MetricsJobQuery, MetricsJobRequest } from '../../../contracts/api/jobs';
import { requestSellerMetrics } from '../../use-cases/jobs/request-seller-metrics';

/** The admin sellers table's metric and forecast buttons (admin.md sections 2 and 7). */
export const metricsJobRoutes: FastifyPluginAsyncZod = (app) => {
  app.post(
    '/api/metrics/sellers',
    {
      config: { access: 'platformAdmin' },
      schema: {
        tags: ['jobs'],
        querystring: MetricsJobQuery,
        body: MetricsJobRequest,
        response: { 200: JobsResponse },
      },
    },
    async (request, reply) => ({
      jobs: await requestSellerMetrics(reply, {
        sellerId: request.body.id,
        jobType: request.query.jobType,
        onlyMissing: request.body.onlyMissing,
      }),
    }),
  );
  return Promise.resolve();
};
