import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ReadAfter } from '../../projections/read-after';

/**
 * Read-your-writes for the browser (architecture.md, read side): every command answers with the
 * global position of its last event, in a header and in a cookie the browser sends back; queries then
 * wait (bounded) until their read models have reached it, so a page never shows a table older than the
 * user's own change. The cookie needs no code in the client; `x-read-after` lets other clients say so
 * explicitly.
 */
export const positionCookie = 'lw_pos';
export const positionHeader = 'x-ledgerwise-position';
export const readAfterHeader = 'x-read-after';

declare module 'fastify' {
  interface FastifyRequest {
    readAfter: ReadAfter;
  }
}

const positionOf = (value: unknown): number | undefined => {
  const parsed = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(parsed) ? parsed : undefined;
};

export const registerReadYourWrites = (app: FastifyInstance): void => {
  app.decorateRequest('readAfter', null as unknown as ReadAfter);
  app.addHook('onRequest', (request, _reply, done) => {
    const fromHeader = positionOf(request.headers[readAfterHeader]);
    const fromCookie = positionOf(request.cookies[positionCookie]);
    const afterPosition =
      fromHeader === undefined ? fromCookie : Math.max(fromHeader, fromCookie ?? fromHeader);
    request.readAfter = afterPosition === undefined ? {} : { afterPosition };
    done();
  });
};

/** Tells the browser the position its next reads must include. */
export const answerWithPosition = (reply: FastifyReply, position: number): void => {
  if (position < 0) return;
  const known = positionOf(reply.request.cookies[positionCookie]) ?? -1;
  void reply.header(positionHeader, String(position));
  if (position > known) {
    void reply.setCookie(positionCookie, String(position), { path: '/', sameSite: 'lax', httpOnly: false });
  }
};
