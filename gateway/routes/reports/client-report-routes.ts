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

  /** One route per subject: who may read it, and what is reported on (a firm or one advisor). */
  const clientReportRoute = (
    path: string,
    subject: {
      mayRead: (caller: ReturnType<typeof requireCaller>, id: number) => boolean;
      of: (id: number) => { tenantId: number } | { advisorUserId: number };
      notFound: string;
    },
  ) =>
    app.get(
      path,
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
        if (!caller.isPlatformAdmin && !subject.mayRead(caller, request.params.id))
          throw new AppError('not_found', subject.notFound);
        const report = await renderClientPerformance(services.db, {
          ...subject.of(request.params.id),
          asOf: services.now(),
          format: request.query.format,
        }).catch(noClients);
        if (!report) throw new AppError('not_found', subject.notFound);
        return asFileContent(report);
      },
    );

  // An advisor reports on the firm they work in; platform admins on any (the admin partners table).
  clientReportRoute('/api/tenants/:id/reports/client', {
    mayRead: (caller, id) => caller.tenantId === id,
    of: (tenantId) => ({ tenantId }),
    notFound: 'Company not found.',
  });
  // Advisors download their own summary; platform admins any advisor's (the admin users table).
  clientReportRoute('/api/users/:id/reports/client', {
    mayRead: (caller, id) => caller.userId === id,
    of: (advisorUserId) => ({ advisorUserId }),
    notFound: 'User not found.',
  });

  return Promise.resolve();
};
