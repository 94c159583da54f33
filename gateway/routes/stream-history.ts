import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RecordedEvent } from '../../contracts/events/envelope';
import type { EventStore } from '../../commands/event-store/event-store';
import { streamHistory } from '../../commands/stream-history';
import {
  StreamHistoryParams,
  StreamHistoryQuery,
  StreamHistoryResponse,
} from '../../contracts/stream-history';
import { requirePlatformAdmin } from '../plugins/session-auth';

export type EventSourceForHistory = {
  store: EventStore;
  decode: (events: readonly RecordedEvent[]) => Promise<RecordedEvent[]>;
};

/** Admins replay a tenant's, a seller's or a user's history step by step (issue: audit stream replay). */
export const streamHistoryRoutes =
  (source: EventSourceForHistory): FastifyPluginAsyncZod =>
  (app) => {
    app.get(
      '/api/admin/streams/:streamId/history',
      {
        onRequest: requirePlatformAdmin,
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
