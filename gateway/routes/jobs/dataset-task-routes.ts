import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from 'mongodb';
import {
  DatasetFile,
  DatasetJobResult,
  maxDatasetContentBytes,
  SellerDatasetParams,
  SellerDatasetsResponse,
  SellerIdParam,
} from '../../../contracts/api/analytics-datasets';
import { DatasetRequest, JobsResponse, TaskRequest, type DatasetType } from '../../../contracts/api/jobs';
import { AppError } from '../../../contracts/errors';
import { jobsCollection } from '../../../projections/jobs/query-jobs';
import { getSeller } from '../../../projections/sellers/query-sellers';
import { requestDatasets } from '../../use-cases/jobs/request-datasets';
import { requestTask } from '../../use-cases/jobs/request-task';
import { attachmentDisposition } from '../reports/report-routes';
import { reportObjectStoreOf } from '../reports/report-object-store-of';

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The seller's generated data-set files, newest first, from its completed data-set jobs. */
const generatedFiles = async (
  db: Db,
  { sellerId, dataset, limit = 100 }: { sellerId: number; dataset?: DatasetType; limit?: number },
) => {
  const jobs = await (
    await jobsCollection(db)
  )
    .find({ kind: 'dataset', sellerId, status: 'completed', ...(dataset ? { type: dataset } : {}) })
    .sort({ createdAt: -1, _id: -1 })
    .limit(limit)
    .toArray();
  return jobs.flatMap((job) => {
    const result = DatasetJobResult.safeParse(job.result);
    return result.success ? [{ ...result.data, jobId: job._id, createdAt: job.createdAt.toISOString() }] : [];
  });
};

/** The admin data-sets and tasks pages (admin.md sections 2 and 7; docs/analytics.md). */
export const datasetTaskRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  const requireSeller = async (sellerId: number) => {
    const seller = await getSeller(services.db, { sellerId, now: services.now() });
    if (!seller) throw new AppError('not_found', 'Seller not found.');
  };

  const newestFile = async (sellerId: number, dataset: DatasetType) => {
    await requireSeller(sellerId);
    const [file] = await generatedFiles(services.db, { sellerId, dataset, limit: 1 });
    if (!file)
      throw new AppError('not_found', `No ${dataset} data set has been generated for this seller yet.`);
    return file;
  };

  app.post(
    '/api/datasets',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['jobs'], body: DatasetRequest, response: { 200: JobsResponse } },
    },
    async (request, reply) => ({ jobs: await requestDatasets(reply, request.body) }),
  );

  app.get(
    '/api/sellers/:id/datasets',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['jobs'], params: SellerIdParam, response: { 200: SellerDatasetsResponse } },
    },
    async (request) => {
      await requireSeller(request.params.id);
      return { files: await generatedFiles(services.db, { sellerId: request.params.id }) };
    },
  );

  app.get(
    '/api/sellers/:id/datasets/:dataset',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['jobs'], params: SellerDatasetParams, response: { 200: DatasetFile } },
    },
    async (request) => {
      const file = await newestFile(request.params.id, request.params.dataset);
      const tooLarge = (size: number) =>
        new AppError(
          'conflict',
          `This data set is too large to open here (${megabytes(size)}; the limit is ${megabytes(maxDatasetContentBytes)}). Download it instead.`,
          { message: `use GET /api/sellers/${request.params.id}/datasets/${file.dataset}/download` },
        );
      if (file.bytes > maxDatasetContentBytes) throw tooLarge(file.bytes);
      const stored = await reportObjectStoreOf(services).get(file.objectKey);
      const chunks: Buffer[] = [];
      for await (const chunk of stored.body) chunks.push(Buffer.from(chunk as Uint8Array));
      return {
        encoding: 'base64' as const,
        data: Buffer.concat(chunks).toString('base64'),
        contentType: file.mimeType,
        fileName: file.fileName,
      };
    },
  );

  app.get(
    '/api/sellers/:id/datasets/:dataset/download',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['jobs'], params: SellerDatasetParams },
    },
    async (request, reply) => {
      const file = await newestFile(request.params.id, request.params.dataset);
      const stored = await reportObjectStoreOf(services).get(file.objectKey);
      // Piped from the object store as it arrives: memory stays flat whatever the file's size.
      return reply
        .header('content-type', file.mimeType)
        .header('content-length', String(stored.contentLength))
        .header('content-disposition', attachmentDisposition(file.fileName))
        .header('cache-control', 'private, no-store')
        .send(stored.body);
    },
  );

  app.post(
    '/api/tasks',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['jobs'], body: TaskRequest, response: { 200: JobsResponse } },
    },
    async (request, reply) => ({ jobs: await requestTask(reply, request.body) }),
  );

  return Promise.resolve();
};
