import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../../contracts/config';
import type { Session, SessionStore } from '../auth/session-store';

export const sessionCookie = 'lw_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's session, or null for a guest. */
    session: Session | null;
  }
}

/**
 * Resolves the session cookie for every route of the scope it is registered in (the API routes, see
 * app.ts), whatever spelling of the URL reached the route; the access hook turns a missing or lesser
 * session into 401/403. Static files of the web app sit outside that scope and cost no database read.
 */
export const registerSessionAuth = (app: FastifyInstance, deps: { sessions: SessionStore }): void => {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[sessionCookie];
    request.session = token ? await deps.sessions.resume(token, new Date()) : null;
  });
};

/** Sets the session cookie: httpOnly so scripts never see it, SameSite=Lax against cross-site posts. */
export const setSessionCookie = (reply: FastifyReply, token: string, config: Config): void => {
  void reply.setCookie(sessionCookie, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.NODE_ENV === 'production',
    path: '/',
  });
};
