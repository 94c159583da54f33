import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ArchivedReportParams,
  ArchivedReportsQuery,
  ArchivedReportsResponse,
  FileContent,
  ManagedReportsQuery,
  ManagedReportsResponse,
  maxContentBytes,
} from '../../../contracts/api/reports';
import { AppError } from '../../../contracts/errors';
import {
  getArchivedReport,
  listArchivedReports,
  listManagedReports,
} from '../../../projections/reports/query-reports';
import type { ArchivedReportDoc } from '../../../projections/reports/reports-projection';
import { getSeller } from '../../../projections/sellers/query-sellers';
import { currentTenantOf, requireCaller } from '../../plugins/access';
import { visibleToCaller } from '../../use-cases/visible-to-caller';
import { closeReportObjectStore, reportObjectStoreOf } from './report-object-store-of';

const reportNotFound = () => new AppError('not_found', 'Report not found.');

/** `attachment` with an ASCII fallback name and the exact name in RFC 5987 form. */
export const attachmentDisposition = (fileName: string): string => {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
};

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The report archive (portal.md Reports page, admin.md sellers' archived reports): lists of archived
 * and managed reports, an archived file as JSON (base64, up to 20 MB), and a streamed download for
 * any size. Another tenant's report answers exactly as one that does not exist.
 */
export const reportRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;
  app.addHook('onClose', () => {
    closeReportObjectStore(services);
    return Promise.resolve();
  });

  const findArchived = async (request: FastifyRequest, id: number): Promise<ArchivedReportDoc> => {
    const doc = await getArchivedReport(services.db, { archivedReportId: id, readAfter: request.readAfter });
    if (!doc || !visibleToCaller(request, doc.tenantId)) throw reportNotFound();
    return doc;
  };

  app.get(
    '/api/reports/archived',
    {
      config: { access: 'member' },
      schema: {
        tags: ['reports'],
        querystring: ArchivedReportsQuery,
        response: { 200: ArchivedReportsResponse },
      },
    },
    async (request) => {
      const { sellerId, limit, offset } = request.query;
      const caller = requireCaller(request);
      if (sellerId !== undefined) {
        const seller = await getSeller(services.db, { sellerId, now: services.now() });
        if (!seller || !visibleToCaller(request, seller.TenantId))
          throw new AppError('not_found', 'Seller not found.');
      }
      // Members see their current tenant's; platform admins any seller's, their tenant's, or everyone's.
      const everyTenant = caller.isPlatformAdmin && (sellerId !== undefined || caller.tenantId === null);
      const { rows } = await listArchivedReports(services.db, {
        tenantId: everyTenant ? undefined : currentTenantOf(request),
        sellerId,
        limit,
        offset,
        readAfter: request.readAfter,
      });
      return { rows };
    },
  );

  app.get(
    '/api/reports/archived/:id/content',
    {
      config: { access: 'member' },
      schema: { tags: ['reports'], params: ArchivedReportParams, response: { 200: FileContent } },
    },
    async (request) => {
      const doc = await findArchived(request, request.params.id);
      const tooLarge = (size: number) =>
        new AppError(
          'conflict',
          `This report is too large to open here (${megabytes(size)}; the limit is ${megabytes(maxContentBytes)}). Download it instead.`,
          { message: `use GET /api/reports/archived/${doc._id}/download` },
        );
      if (doc.size > maxContentBytes) throw tooLarge(doc.size);
      const stored = await reportObjectStoreOf(services).get(doc.objectKey);
      if (stored.contentLength > maxContentBytes) {
        stored.body.destroy();
        throw tooLarge(stored.contentLength);
      }
      const chunks: Buffer[] = [];
      for await (const chunk of stored.body) chunks.push(Buffer.from(chunk as Uint8Array));
      return {
        encoding: 'base64' as const,
        data: Buffer.concat(chunks).toString('base64'),
        contentType: doc.contentType,
        fileName: doc.fileName,
      };
    },
  );

  app.get(
    '/api/reports/archived/:id/download',
    {
      config: { access: 'member' },
      schema: { tags: ['reports'], params: ArchivedReportParams },
    },
    async (request, reply) => {
      const doc = await findArchived(request, request.params.id);
      const stored = await reportObjectStoreOf(services).get(doc.objectKey);
      // Piped from S3 as it arrives: memory stays flat whatever the file's size.
      return reply
        .header('content-type', doc.contentType)
        .header('content-length', String(stored.contentLength))
        .header('content-disposition', attachmentDisposition(doc.fileName))
        .header('cache-control', 'private, no-store')
        .send(stored.body);
    },
  );

  app.get(
    '/api/reports/managed',
    {
      config: { access: 'member' },
      schema: {
        tags: ['reports'],
        querystring: ManagedReportsQuery,
        response: { 200: ManagedReportsResponse },
      },
    },
    async (request) => {
      const caller = requireCaller(request);
      // A platform admin outside any tenant has no live reports of their own to list.
      if (caller.tenantId === null) return { rows: [] };
      const { rows } = await listManagedReports(services.db, {
        tenantId: caller.tenantId,
        limit: request.query.limit,
        readAfter: request.readAfter,
      });
      return { rows };
    },
  );

  return Promise.resolve();
};
