import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DatasetRequest, JobsResponse, TaskRequest } from '../../../contracts/api/jobs';
import { requestDatasets } from '../../use-cases/jobs/request-datasets';
import { requestTask } from '../../use-cases/jobs/request-task';

/** The admin data-sets and tasks pages (admin.md sections 2 and 7). */
export const datasetTaskRoutes: FastifyPluginAsyncZod = (app) => {
  app.post(
    '/api/datasets',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['jobs'], body: DatasetRequest, response: { 200: JobsResponse } },
    },
    async (request, reply) => ({ jobs: await requestDatasets(reply, request.body) }),
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
