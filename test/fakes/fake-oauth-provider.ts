import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { failureTypes, userFailure } from '../../workflows/connectors/shared/connector-failure';
import type { IntegrationAccessToken } from '../../workflows/integrations/cloud/cloud-http';

/** How one provider words its refusals, in its own JSON error format. */
export type ProviderErrors = {
  /** 401 for a missing or expired access token. */
  unauthenticated: (reply: FastifyReply) => FastifyReply;
  /** 429; the Retry-After header is already set. */
  throttled: (reply: FastifyReply) => FastifyReply;
  /** A 5xx of the burst `failNext` asked for. */
  unavailable: (reply: FastifyReply, status: number) => FastifyReply;
};

/** The fault switches and counters every cloud fake offers its tests. */
export type FakeProviderControls = {
  issueTokens: () => { accessToken: string; refreshToken: string };
  throttle: (count: number, retryAfterSeconds: number) => void;
  failNext: (count: number, status?: number) => void;
  expireAccessTokens: () => void;
  refuseRefresh: (refuse?: boolean) => void;
  requests: { method: string; path: string; status: number }[];
  refreshes: () => number;
};

/**
 * What the Google and Microsoft fakes share (docs/adr/0049-live-reports.md): an OpenID issuer with
 * an OAuth 2.0 token endpoint answering the refresh grant as the provider does (a refused refresh is
 * 400 invalid_grant), access tokens valid for an hour, the request log, and the faults tests turn on.
 * `guard` answers a request that a fault or its token stops, in the provider's error format, or
 * returns null to let the route answer.
 */
export const serveFakeOAuthProvider = (
  app: FastifyInstance,
  provider: {
    /** Prefixes that make the fake's tokens look like the provider's. */
    accessTokenPrefix: string;
    refreshTokenPrefix: string;
    refusedGrantDescription: string;
    /** The token endpoint's answer to a granted refresh, around the new access token. */
    grantBody: (accessToken: string) => Record<string, unknown>;
    errors: ProviderErrors;
  },
) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const access = new Map<string, number>();
  const refresh = new Set<string>();
  const requests: FakeProviderControls['requests'] = [];
  let throttled = { count: 0, retryAfter: 0 };
  let failing = { count: 0, status: 503 };
  let refusing = false;
  let refreshCount = 0;

  const newAccessToken = () => {
    const accessToken = `${provider.accessTokenPrefix}${randomBytes(12).toString('hex')}`;
    access.set(accessToken, Date.now() + 3600_000);
    return accessToken;
  };

  // OpenID discovery, as the provider's issuer answers it: the token endpoint is what renewal needs.
  app.get('/.well-known/openid-configuration', (request, reply) => {
    const issuer = `http://${request.headers.host}`;
    return reply.send({
      issuer,
      token_endpoint: `${issuer}/token`,
      grant_types_supported: ['refresh_token'],
    });
  });

  app.post('/token', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, string>;
    if (body.grant_type !== 'refresh_token' || refusing || !refresh.has(body.refresh_token ?? ''))
      return reply
        .code(400)
        .send({ error: 'invalid_grant', error_description: provider.refusedGrantDescription });
    refreshCount += 1;
    return provider.grantBody(newAccessToken());
  });

  app.addHook('onResponse', async (request, reply) => {
    requests.push({ method: request.method, path: request.url.split('?')[0]!, status: reply.statusCode });
  });

  const guard = (authorization: string | undefined, reply: FastifyReply): FastifyReply | null => {
    const expiresAt = access.get(authorization?.replace(/^Bearer /, '') ?? '');
    if (!expiresAt || expiresAt < Date.now()) return provider.errors.unauthenticated(reply);
    if (throttled.count > 0) {
      throttled.count -= 1;
      return provider.errors.throttled(reply.header('retry-after', String(throttled.retryAfter)));
    }
    if (failing.count > 0) {
      failing.count -= 1;
      return provider.errors.unavailable(reply, failing.status);
    }
    return null;
  };

  const controls: FakeProviderControls = {
    issueTokens: () => {
      const refreshToken = `${provider.refreshTokenPrefix}${randomBytes(12).toString('hex')}`;
      refresh.add(refreshToken);
      return { accessToken: newAccessToken(), refreshToken };
    },
    throttle: (count, retryAfter) => {
      throttled = { count, retryAfter };
    },
    failNext: (count, status = 503) => {
      failing = { count, status };
    },
    expireAccessTokens: () => {
      for (const token of access.keys()) access.set(token, 0);
    },
    refuseRefresh: (refuse = true) => {
      refusing = refuse;
    },
    requests,
    refreshes: () => refreshCount,
  };
  return { guard, controls };
};

/**
 * An IntegrationAccessToken over a fake's token endpoint, as the real provider behaves: the access
 * token until a 401, then one refresh; a refused refresh (invalid_grant) is the user failure that
 * asks to reconnect.
 */
export const fakeAccessTokens = (
  platform: string,
  tokenUrl: string,
  tokens: { accessToken: string; refreshToken: string },
): IntegrationAccessToken => {
  let current = tokens.accessToken;
  return {
    current: () => Promise.resolve({ accessToken: current, instanceUrl: null }),
    renewAfterRejection: async (rejected) => {
      if (rejected !== current) return { accessToken: current, instanceUrl: null };
      const response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refreshToken,
        }).toString(),
      });
      const body = (await response.json()) as { access_token?: string; error?: string };
      if (!response.ok || !body.access_token)
        throw userFailure(
          `${platform} refused to renew our access (${body.error ?? response.status}). Reconnect the integration.`,
          failureTypes.revoked,
        );
      current = body.access_token;
      return { accessToken: current, instanceUrl: null };
    },
  };
};
