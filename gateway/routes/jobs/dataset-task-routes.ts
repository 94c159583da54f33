import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CronParams,
  CronResponse,
  DatasetRequest,
  JobsResponse,
  TaskRequest,
} from '../../../contracts/api/jobs';
import { describeCron } from '../../use-cases/jobs/describe-cron';
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

  // A description, not a trigger: a GET changes nothing (no CSRF check guards it); POST /api/tasks runs.
  app.get(
    '/api/cron/:name',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['jobs'], params: CronParams, response: { 200: CronResponse } },
    },
    (request) => describeCron(app.services.db, request.params.name),
  );

  return Promise.resolve();
};
