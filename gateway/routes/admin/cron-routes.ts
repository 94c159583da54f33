import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CronParams, CronResponse } from '../../../contracts/api/jobs';
import { describeCron } from '../../use-cases/jobs/describe-cron';

/**
 * The admin tasks page's trigger tool (admin.md sections 2 and 7). GET /api/cron/{name} describes a
 * task and lists its latest runs; it changes nothing, since a GET is not CSRF-checked: POST /api/tasks
 * (routes/jobs/dataset-task-routes.ts) is the one trigger.
 */
export const cronRoutes: FastifyPluginAsyncZod = (app) => {
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
