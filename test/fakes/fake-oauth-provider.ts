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
 * What the Google, Microsoft and Salesforce fakes share (docs/adr/0049-live-reports.md): an OpenID
 * issuer with an OAuth 2.0 token endpoint answering the refresh grant as the provider does (a refused
 * refresh is 400 invalid_grant), and for a fake with an OAuth app the consent page and the code grant,
 * access tokens valid for an hour unless said otherwise, the request log, and the faults tests turn on.
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
    /** Where the token endpoint is; '/token' beside an OpenID discovery document by default. */
    tokenPath?: string;
    /** How long an access token lives; an hour by default. */
    accessTokenLifetimeMs?: number;
    /**
     * An OAuth app registered with the provider, for fakes whose tests connect through the consent
     * flow: the authorize page consents at once and redirects with a one-time code, and the token
     * endpoint checks the app's credentials and answers the authorization_code grant too.
     */
    oauthApp?: {
      clientId: string;
      clientSecret: string;
      authorizePath: string;
      /** The provider's answer to unknown app credentials. */
      refuseClient: (reply: FastifyReply) => FastifyReply;
      /** The token endpoint's answer to a granted code, around the new tokens. */
      codeGrantBody: (tokens: { accessToken: string; refreshToken: string }) => Record<string, unknown>;
    };
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

  const tokenPath = provider.tokenPath ?? '/token';
  const lifetime = provider.accessTokenLifetimeMs ?? 3600_000;
  const codes = new Set<string>();
  const newAccessToken = () => {
    const accessToken = `${provider.accessTokenPrefix}${randomBytes(12).toString('hex')}`;
    access.set(accessToken, Date.now() + lifetime);
    return accessToken;
  };
  const issueTokens = () => {
    const refreshToken = `${provider.refreshTokenPrefix}${randomBytes(12).toString('hex')}`;
    refresh.add(refreshToken);
    return { accessToken: newAccessToken(), refreshToken };
  };

  // OpenID discovery, as the provider's issuer answers it: the token endpoint is what renewal needs.
  app.get('/.well-known/openid-configuration', (request, reply) => {
    const issuer = `http://${request.headers.host}`;
    return reply.send({
      issuer,
      token_endpoint: `${issuer}${tokenPath}`,
      grant_types_supported: provider.oauthApp ? ['authorization_code', 'refresh_token'] : ['refresh_token'],
    });
  });

  const oauthApp = provider.oauthApp;
  if (oauthApp)
    app.get<{ Querystring: Record<string, string> }>(oauthApp.authorizePath, async (request, reply) => {
      const { client_id: client, redirect_uri: redirect, state } = request.query;
      if (client !== oauthApp.clientId || !redirect) return oauthApp.refuseClient(reply);
      const code = `code-${randomBytes(16).toString('hex')}`;
      codes.add(code);
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      if (state) back.searchParams.set('state', state);
      return reply.redirect(back.toString(), 302);
    });

  app.post(tokenPath, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, string>;
    if (oauthApp) {
      if (body.client_id !== oauthApp.clientId || body.client_secret !== oauthApp.clientSecret)
        return oauthApp.refuseClient(reply);
      if (body.grant_type === 'authorization_code') {
        if (!codes.delete(body.code ?? ''))
          return reply
            .code(400)
            .send({ error: 'invalid_grant', error_description: 'authentication failure' });
        return oauthApp.codeGrantBody(issueTokens());
      }
    }
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
    issueTokens,
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
