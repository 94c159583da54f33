import type { FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';

/**
 * Logs why a redirect flow failed without what could hold secrets: openid-client's errors carry the
 * provider's response (tokens, claims) in `cause`, so only names, codes and the provider's error code
 * are kept.
 */
export const logOAuthFailure = (request: FastifyRequest, what: string, error: unknown): void => {
  const summary =
    error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError
      ? {
          name: error.name,
          code: error.code,
          oauthError: error.error,
          status: (error as { status?: number }).status,
        }
      : error instanceof Error
        ? { name: error.name, code: (error as { code?: unknown }).code, message: error.message }
        : { name: typeof error };
  request.log.warn({ failure: summary }, `${what} failed`);
};
