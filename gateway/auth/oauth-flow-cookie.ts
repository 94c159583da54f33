import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * One redirect round trip to a provider: what the callback must check (state, nonce, PKCE verifier)
 * and what it must do afterwards, kept in a signed, httpOnly cookie that lives ten minutes and is
 * spent by the callback. Nothing is stored server-side, so an abandoned flow leaves nothing behind.
 */
export const flowCookie = 'lw_oauth';
const lifetimeMs = 10 * 60 * 1000;

const SignInFlow = z.object({
  kind: z.literal('signin'),
  provider: z.enum(['google', 'microsoft']),
  signUp: z
    .object({
      referrer: z.string().optional(),
      referrerIdentifier: z.string().optional(),
      landingPage: z.string().optional(),
      planIdentifier: z.string().optional(),
    })
    .nullable(),
  returnTo: z.string().nullable(),
});

/** A connection is bound to the session and tenant that started it: another session cannot finish it. */
const ConnectFlow = z.object({
  kind: z.literal('connect'),
  connection: z.string(),
  userId: z.number().int(),
  tenantId: z.number().int(),
  sessionHash: z.string(),
});

export const OAuthFlow = z.intersection(
  z.discriminatedUnion('kind', [SignInFlow, ConnectFlow]),
  z.object({
    state: z.string().min(20),
    nonce: z.string().min(20).nullable(),
    codeVerifier: z.string().min(43),
    expiresAt: z.number(),
  }),
);
export type OAuthFlow = z.infer<typeof OAuthFlow>;

/** Sessions are compared by a hash of their token, so the cookie never carries the session itself. */
export const sessionHashOf = (sessionToken: string): string =>
  createHash('sha256').update(`oauth-flow:${sessionToken}`).digest('base64url');

export const flowExpiry = (now: Date): number => now.getTime() + lifetimeMs;

export const saveFlow = (reply: FastifyReply, flow: OAuthFlow): void => {
  void reply.setCookie(flowCookie, Buffer.from(JSON.stringify(flow)).toString('base64url'), {
    signed: true,
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level GET navigation, which carries Lax cookies.
    sameSite: 'lax',
    secure: reply.server.services.config.NODE_ENV === 'production',
    path: '/api/',
    maxAge: lifetimeMs / 1000,
  });
};

export type FlowProblem = 'missing' | 'tampered' | 'expired' | 'state_mismatch';

/**
 * The flow the callback belongs to, spent on first use. The `state` the provider echoes must equal
 * the cookie's, so a callback forged by another site (login CSRF) or replayed is refused.
 */
export const takeFlow = (
  request: FastifyRequest,
  reply: FastifyReply,
  returnedState: string | undefined,
): OAuthFlow | FlowProblem => {
  const raw = request.cookies[flowCookie];
  void reply.clearCookie(flowCookie, { path: '/api/' });
  if (!raw) return 'missing';
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return 'tampered';
  let flow: OAuthFlow;
  try {
    flow = OAuthFlow.parse(JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8')));
  } catch {
    return 'tampered';
  }
  if (flow.expiresAt <= request.server.services.now().getTime()) return 'expired';
  if (returnedState !== flow.state) return 'state_mismatch';
  return flow;
};
