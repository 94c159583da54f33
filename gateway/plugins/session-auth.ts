import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../contracts/config';
import { AppError } from '../../contracts/errors';
import type { Session, SessionStore } from '../auth/session-store';

export const sessionCookie = 'lw_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's session, or null for a guest. */
    session: Session | null;
  }
}

/** Resolves the session cookie on every request; guards below turn a missing or lesser session into 401/403. */
export const registerSessionAuth = (
  app: FastifyInstance,
  deps: { sessions: SessionStore; config: Config },
): void => {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request) => {
    // Only the API needs the session; static files of the web app should not cost a database read.
    if (!request.url.startsWith('/api/')) return;
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

export const requireSession = (request: FastifyRequest): Promise<void> =>
  request.session
    ? Promise.resolve()
    : Promise.reject(new AppError('unauthorized', 'Access Denied', { message: 'no live session' }));

/** Routes of admin.md section 6: platform administrators only. */
export const requirePlatformAdmin = async (request: FastifyRequest): Promise<void> => {
  await requireSession(request);
  if (!request.session?.isPlatformAdmin) {
    throw new AppError('forbidden', 'Access Denied', { message: 'platform admin only' });
  }
};
