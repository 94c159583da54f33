import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClientReportParams, ClientReportQuery } from '../../../contracts/api/client-reports';
import { FileContent } from '../../../contracts/api/reports';
import { AppError } from '../../../contracts/errors';
import { NoClientsToReportError } from '../../../workflows/reports/report-data/client-performance-data';
import { renderClientPerformance } from '../../../workflows/reports/pdf/render-client-performance';
import type { RenderedReport } from '../../../workflows/reports/rendered-report';
import { requireCaller } from '../../plugins/access';

const asFileContent = (report: RenderedReport): FileContent => ({
  encoding: 'base64',
  data: Buffer.from(report.bytes).toString('base64'),
  contentType: report.contentType,
  fileName: report.fileName,
});

/** No client qualifies: the dialog of portal.md section 8 shows this. */
const noClients = (error: unknown) => {
  if (error instanceof NoClientsToReportError) throw new AppError('conflict', error.message);
  throw error;
};

/**
 * The advisors' Client Performance Summary (portal.md section 9): a firm's clients (the firm's own
 * advisors, the admin partners table) or one advisor's clients (the advisor, the admin users
 * table). Rendered on request, as of now; not archived.
 */
export const clientReportRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.get(
    '/api/tenants/:id/reports/client',
    {
      config: { access: 'advisor' },
      schema: {
        tags: ['reports'],
        params: ClientReportParams,
        querystring: ClientReportQuery,
        response: { 200: FileContent },
      },
    },
    async (request) => {
      const caller = requireCaller(request);
      // An advisor reports on the firm they work in; platform admins on any.
      if (!caller.isPlatformAdmin && caller.tenantId !== request.params.id)
        throw new AppError('not_found', 'Company not found.');
      const report = await renderClientPerformance(services.db, {
        tenantId: request.params.id,
        asOf: services.now(),
        format: request.query.format,
      }).catch(noClients);
      if (!report) throw new AppError('not_found', 'Company not found.');
      return asFileContent(report);
    },
  );

  app.get(
    '/api/users/:id/reports/client',
    {
      config: { access: 'advisor' },
      schema: {
        tags: ['reports'],
        params: ClientReportParams,
        querystring: ClientReportQuery,
        response: { 200: FileContent },
      },
    },
    async (request) => {
      const caller = requireCaller(request);
      // Advisors download their own summary; platform admins any advisor's (admin users table).
      if (!caller.isPlatformAdmin && caller.userId !== request.params.id)
        throw new AppError('not_found', 'User not found.');
      const report = await renderClientPerformance(services.db, {
        advisorUserId: request.params.id,
        asOf: services.now(),
        format: request.query.format,
      }).catch(noClients);
      if (!report) throw new AppError('not_found', 'User not found.');
      return asFileContent(report);
    },
  );

  return Promise.resolve();
};
