import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Job, JobIdParam, JobsQuery, JobsResponse } from '../../../contracts/api/jobs';
import { AppError } from '../../../contracts/errors';
import { getJob, listJobs } from '../../../projections/jobs/query-jobs';
import { getSeller } from '../../../projections/sellers/query-sellers';
import { currentTenantOf, requireCaller } from '../../plugins/access';
import { visibleToCaller } from '../../use-cases/visible-to-caller';
import { toJob } from '../../use-cases/jobs/job-view';

const jobNotFound = () => new AppError('not_found', 'Job not found.');

/** Job state for the browser: what a request started, before and between live progress notices. */
export const jobRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.get(
    '/api/jobs/:id',
    {
      config: { access: 'member' },
      schema: { tags: ['jobs'], params: JobIdParam, response: { 200: Job } },
    },
    async (request) => {
      const { job } = await getJob(services.db, { jobId: request.params.id, readAfter: request.readAfter });
      if (!job || !visibleToCaller(request, job.tenantId)) throw jobNotFound();
      return toJob(job);
    },
  );

  app.get(
    '/api/jobs',
    {
      config: { access: 'member' },
      schema: { tags: ['jobs'], querystring: JobsQuery, response: { 200: JobsResponse } },
    },
    async (request) => {
      const { sellerId, scope, limit } = request.query;
      const caller = requireCaller(request);
      if (scope === 'all' && !caller.isPlatformAdmin)
        throw new AppError('forbidden', 'Access Denied', { message: 'scope=all is for platform admins' });
      if (sellerId !== undefined) {
        const seller = await getSeller(services.db, { sellerId, now: services.now() });
        if (!seller || !visibleToCaller(request, seller.TenantId))
          throw new AppError('not_found', 'Seller not found.');
      }
      // Members see their current tenant's jobs only; platform admins a seller's, everyone's, or their tenant's.
      const everyTenant =
        caller.isPlatformAdmin && (scope === 'all' || sellerId !== undefined || caller.tenantId === null);
      const tenantId = everyTenant ? undefined : currentTenantOf(request);
      const { jobs } = await listJobs(services.db, {
        tenantId,
        sellerId,
        limit,
        readAfter: request.readAfter,
      });
      return { jobs: jobs.map(toJob) };
    },
  );

  return Promise.resolve();
};
