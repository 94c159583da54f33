import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { streamHistory } from '../../commands/stream-history';
import {
  StreamHistoryParams,
  StreamHistoryQuery,
  StreamHistoryResponse,
} from '../../contracts/stream-history';
import { redactHistorySteps } from './redact-history-steps';

/**
 * Admins replay a tenant's, a seller's or a user's history step by step (issue: audit stream replay).
 * Secrets are redacted from the events and the folded states (password and token hashes, keys,
 * credentials): even a platform admin has no use for them, and a stolen admin session must not
 * yield them.
 */
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
    async (request) => {
      const page = await streamHistory(source, request.params.streamId, {
        fromRevision: request.query.from,
        maxCount: request.query.limit,
      });
      return { ...page, steps: redactHistorySteps(page.steps) };
    },
  );
  return Promise.resolve();
};
