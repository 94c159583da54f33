import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DatabaseResponse,
  QueueClearQuery,
  QueueClearResponse,
  QueueNameParam,
  QueuesResponse,
} from '../../../contracts/api/devops';
import { databaseStats } from '../../use-cases/devops/database-stats';
import { createPlatformProbes } from '../../use-cases/devops/platform-probes';
import { clearQueue, workQueues } from '../../use-cases/devops/work-queues';

const tags = ['devops'];

/**
 * The devops pages (admin.md sections 2 and 7; docs/adr/0040): the platform's work queues (jobs by
 * state, Temporal task queues, projection lag, the ledger outbox, Kafka consumer lag, the read
 * store's server) and the read store's collections. Platform admins only.
 */
export const devopsRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;
  const probes = createPlatformProbes(services.config);
  app.addHook('onClose', async () => {
    await probes.close();
  });

  app.get(
    '/api/devops/queues',
    { config: { access: 'platformAdmin' }, schema: { tags, response: { 200: QueuesResponse } } },
    () => workQueues(services, probes),
  );

  app.delete(
    '/api/devops/queues/:name',
    {
      config: { access: 'platformAdmin' },
      schema: {
        tags,
        params: QueueNameParam,
        querystring: QueueClearQuery,
        response: { 200: QueueClearResponse },
      },
    },
    (request, reply) =>
      clearQueue(reply, probes, { queue: request.params.name, status: request.query.status }),
  );

  app.get(
    '/api/devops/database',
    { config: { access: 'platformAdmin' }, schema: { tags, response: { 200: DatabaseResponse } } },
    () => databaseStats(services.db, services.config.MONGO_URL ? 'mongodb' : 'embedded'),
  );

  return Promise.resolve();
};
