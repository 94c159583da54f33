import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReadAfter } from '../../projections/read-after';

/**
 * Read-your-writes for the browser (architecture.md, read side): every command answers with the
 * global position of its last event, in a header and in a cookie the browser sends back; queries then
 * wait (bounded) until their read models have reached it, so a page never shows a table older than the
 * user's own change. The cookie needs no code in the client (signed and httpOnly: the app never reads
 * it); `x-read-after` lets other clients say so explicitly.
 */
export const positionCookie = 'lw_pos';
export const positionHeader = 'x-ledgerwise-position';
export const readAfterHeader = 'x-read-after';
/** The position the answer was read after, once clamped: what the caller's reads actually waited for. */
export const readAfterAnswerHeader = 'x-ledgerwise-read-after';

declare module 'fastify' {
  interface FastifyRequest {
    readAfter: ReadAfter;
  }
}

const positionOf = (value: unknown): number | undefined => {
  const parsed = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(parsed) ? parsed : undefined;
};

/** The position the cookie carries, if the gateway signed it (a forged or edited cookie counts as none). */
const cookiePositionOf = (request: FastifyRequest): number | undefined => {
  const raw = request.cookies[positionCookie];
  if (raw === undefined) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid ? positionOf(unsigned.value) : undefined;
};

/**
 * A caller can only have been given positions the store has reached: anything beyond its end is
 * clamped to it, so a forged huge number cannot make each query wait its whole timeout (ADR 26). The
 * header is not signed (other clients set it by hand), the clamp is what bounds it; the cookie is.
 */
export const registerReadYourWrites = (app: FastifyInstance): void => {
  app.decorateRequest('readAfter', null as unknown as ReadAfter);
  app.addHook('onRequest', async (request, reply) => {
    const fromHeader = positionOf(request.headers[readAfterHeader]);
    const fromCookie = cookiePositionOf(request);
    const asked = fromHeader === undefined ? fromCookie : Math.max(fromHeader, fromCookie ?? fromHeader);
    if (asked === undefined) {
      request.readAfter = {};
      return;
    }
    const end = await request.server.services.writeSide.store.headPosition();
    request.readAfter = { afterPosition: Math.min(asked, end) };
    void reply.header(readAfterAnswerHeader, String(request.readAfter.afterPosition));
  });
};

/** Tells the browser the position its next reads must include. */
export const answerWithPosition = (reply: FastifyReply, position: number): void => {
  if (position < 0) return;
  const known = cookiePositionOf(reply.request) ?? -1;
  void reply.header(positionHeader, String(position));
  if (position > known) {
    void reply.setCookie(positionCookie, String(position), {
      path: '/',
      sameSite: 'lax',
      httpOnly: true,
      signed: true,
    });
  }
};
