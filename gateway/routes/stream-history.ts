import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { streamHistory } from '../../commands/stream-history';
import {
  StreamHistoryParams,
  StreamHistoryQuery,
  StreamHistoryResponse,
} from '../../contracts/stream-history';

/** Admins replay a tenant's, a seller's or a user's history step by step (issue: audit stream replay). */
export const streamHistoryRoutes: FastifyPluginAsyncZod = (app) => {
  const source = { store: app.services.writeSide.store, decode: app.services.decode };
  app.get(
    '/api/admin/streams/:streamId/history',
    {
      config: { access: 'platformAdmin' },
      schema: {
        tags: ['admin'],
        params: StreamHistoryParams,
        querystring: StreamHistoryQuery,
        response: { 200: StreamHistoryResponse },
      },
    },
    (request) =>
      streamHistory(source, request.params.streamId, {
        fromRevision: request.query.from,
        maxCount: request.query.limit,
      }),
  );
  return Promise.resolve();
};
