import fastifyWebsocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../contracts/errors';
import { LiveQuery, liveCloseCodes } from '../../contracts/live';
import { isPlatformAdminBy } from '../plugins/access';
import { sessionCookie } from '../plugins/session-auth';
import { LiveConnection } from './live-connection';

/** Client messages are a few dozen bytes; anything large is not ours. */
const MAX_CLIENT_MESSAGE_BYTES = 4096;

/**
 * GET /api/live: the live websocket (docs/adr/0015-live-notices.md). The access hook and the origin
 * check run on the upgrade request, so a guest gets 401 and a foreign page 403 before any upgrade.
 */
export const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  const live = app.services.live;
  if (!live) return;
  const { sessions, db, now, config } = app.services;
  const connections = new Set<LiveConnection>();

  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_CLIENT_MESSAGE_BYTES },
    // Tell clients to come back (to another process) rather than the default code-less close.
    preClose: (done) => {
      for (const client of app.websocketServer.clients)
        client.close(liveCloseCodes.goingAway, 'server stopping');
      done();
    },
  });

  const timer = setInterval(() => {
    for (const connection of connections) connection.heartbeat();
  }, live.heartbeatMs);
  timer.unref();
  app.addHook('onClose', () => clearInterval(timer));

  // Cross-site websocket hijacking: a browser sends the session cookie with any page's upgrade, but
  // always names the page's origin. Clients that are not browsers send none and ride no cookies.
  const publicOrigin = new URL(config.PUBLIC_URL).origin;
  const checkOrigin = (request: FastifyRequest): Promise<void> => {
    const origin = request.headers.origin;
    return origin === undefined || origin === publicOrigin
      ? Promise.resolve()
      : Promise.reject(new AppError('forbidden', 'Access Denied', { message: `origin ${origin}` }));
  };

  app.get(
    '/api/live',
    {
      websocket: true,
      config: { access: 'session' },
      schema: { tags: ['live'], querystring: LiveQuery },
      preHandler: checkOrigin,
    },
    async (socket, request) => {
      const session = request.session;
      const token = request.cookies[sessionCookie];
      if (!session || !token) {
        socket.close(liveCloseCodes.sessionEnded, 'no session');
        return;
      }
      const connection = new LiveConnection(
        socket,
        { token, current: session, isPlatformAdmin: request.caller?.isPlatformAdmin ?? false },
        {
          hub: live.hub,
          sessions,
          db,
          now,
          maxBufferedBytes: live.maxBufferedBytes,
          isPlatformAdmin: (facts) => isPlatformAdminBy(config, facts),
        },
      );
      connections.add(connection);
      socket.on('close', () => connections.delete(connection));
      await connection.open(request.query.after);
    },
  );
};
