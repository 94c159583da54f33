import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  JobsResponse,
  ReportsRequest,
  SellerReportParams,
  SellerReportRequest,
  SellerReportStatus,
} from '../../../contracts/api/jobs';
import { AppError } from '../../../contracts/errors';
import { latestJob } from '../../../projections/jobs/query-jobs';
import { getSeller } from '../../../projections/sellers/query-sellers';
import { visibleToCaller } from '../../use-cases/visible-to-caller';
import { toJob } from '../../use-cases/jobs/job-view';
import { requestAdminReports } from '../../use-cases/jobs/request-admin-reports';
import { requestSellerReport } from '../../use-cases/jobs/request-seller-report';

/** Report sends: the admin send-reports page and a seller's on-demand report (both spec files, section 7). */
export const reportRequestRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.post(
    '/api/reports',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['jobs'], body: ReportsRequest, response: { 200: JobsResponse } },
    },
    async (request, reply) => ({ jobs: await requestAdminReports(reply, request.body) }),
  );

  /** The caller's tenant's seller; another tenant's is not found. */
  const sellerOf = async (request: FastifyRequest, sellerId: number) => {
    const seller = await getSeller(services.db, { sellerId, now: services.now() });
    if (!seller || !visibleToCaller(request, seller.TenantId))
      throw new AppError('not_found', 'Seller not found.');
    return seller;
  };

  app.get(
    '/api/sellers/:id/reports/:type',
    {
      config: { access: 'member' },
      schema: { tags: ['jobs'], params: SellerReportParams, response: { 200: SellerReportStatus } },
    },
    async (request) => {
      const seller = await sellerOf(request, request.params.id);
      const job = await latestJob(services.db, {
        kind: 'report',
        type: request.params.type,
        sellerId: seller.Id,
        readAfter: request.readAfter,
      });
      return {
        processing: job !== null && (job.status === 'created' || job.status === 'running'),
        job: job && toJob(job),
      };
    },
  );

  app.post(
    '/api/sellers/:id/reports/:type',
    {
      config: { access: 'member' },
      schema: {
        tags: ['jobs'],
        params: SellerReportParams,
        body: SellerReportRequest,
        response: { 200: JobsResponse },
      },
    },
    async (request, reply) => {
      const seller = await sellerOf(request, request.params.id);
      return {
        jobs: await requestSellerReport(reply, {
          tenantId: seller.TenantId,
          sellerId: seller.Id,
          type: request.params.type,
          recipientIds: request.body.recipientIds,
        }),
      };
    },
  );

  return Promise.resolve();
};
