import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as oidc from 'openid-client';
import { ConnectProvider, ProviderCallbackQuery, connectMessages } from '../../../contracts/api/oidc';
import { AppError, isAppError } from '../../../contracts/errors';
import { connections, type Connection } from '../../auth/connections';
import {
  ProviderNotConfigured,
  newAuthorizationSecrets,
  oauthClientOf,
  openIdClientOf,
} from '../../auth/oauth-clients';
import { logOAuthFailure } from '../../auth/oauth-failure';
import { flowExpiry, saveFlow, sessionHashOf, takeFlow } from '../../auth/oauth-flow-cookie';
import { currentTenantOf, requireCaller, requireTenantAccess } from '../../plugins/access';
import { rateLimits } from '../../plugins/security';
import { sessionCookie } from '../../plugins/session-auth';
import { recordConnection } from '../../use-cases/connect/record-connection';

const sensitive = { max: rateLimits.sensitive, timeWindow: '1 minute' };

const platformsWith = (reply: FastifyReply, flash: { connected: string } | { error: string }) =>
  reply.redirect(`/platforms?${new URLSearchParams(flash).toString()}`);

const clientFor = (request: FastifyRequest, connection: Connection): Promise<oidc.Configuration> => {
  const { config } = request.server.services;
  const { endpoints } = connection;
  if ('openid' in endpoints) return openIdClientOf(config, endpoints.openid);
  return Promise.resolve().then(() => oauthClientOf(endpoints(config)));
};

const isOpenId = (connection: Connection) => connection.scopes.includes('openid');

/** Secrets are strings: the vault seals them as one JSON object per connection. */
const secretOf = (tokens: oidc.TokenEndpointResponse, extras: Record<string, string | undefined>) =>
  Object.fromEntries(
    Object.entries({
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      tokenType: tokens.token_type,
      scope: tokens.scope,
      expiresIn: tokens.expires_in === undefined ? undefined : String(tokens.expires_in),
      ...extras,
    }).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );

/** Provider-specific account ids from the token response (Stripe, Salesforce) or the callback (QuickBooks). */
const stringField = (tokens: oidc.TokenEndpointResponse, name: string) =>
  typeof tokens[name] === 'string' ? tokens[name] : undefined;

/**
 * The platform connections by browser redirect (portal.md sections 2.3 and 7): a tenant admin (or a
 * platform admin) starts one from the connect cards; the provider sends the browser back to
 * /api/connect/<provider>/callback, which checks the flow against the session and tenant that
 * started it, exchanges the code (PKCE), seals the tokens in the credential vault and records the
 * seller or integration account. The browser lands on /platforms with `connected` or `error`.
 */
export const connectRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  for (const connection of connections) {
    app.get(
      connection.route,
      { config: { access: 'tenantAdmin', rateLimit: sensitive }, schema: { tags: ['platforms'] } },
      async (request, reply) => {
        const caller = requireCaller(request);
        const tenantId = currentTenantOf(request);
        if (connection.platformAdminOnly && !caller.isPlatformAdmin)
          throw new AppError('forbidden', 'Access Denied', {
            message: `${connection.name}: platform admins only`,
          });
        let client: oidc.Configuration;
        try {
          client = await clientFor(request, connection);
        } catch (error) {
          logOAuthFailure(request, `${connection.name} client`, error);
          return platformsWith(reply, {
            error:
              error instanceof ProviderNotConfigured
                ? connectMessages.notConfigured(connection.name)
                : connectMessages.failed(connection.name),
          });
        }
        const secrets = await newAuthorizationSecrets();
        const openId = isOpenId(connection);
        saveFlow(reply, {
          kind: 'connect',
          connection: connection.route,
          userId: caller.userId,
          tenantId,
          sessionHash: sessionHashOf(request.cookies[sessionCookie] ?? ''),
          state: secrets.state,
          nonce: openId ? secrets.nonce : null,
          codeVerifier: secrets.codeVerifier,
          expiresAt: flowExpiry(services.now()),
        });
        const url = oidc.buildAuthorizationUrl(client, {
          redirect_uri: new URL(`/api/connect/${connection.callback}/callback`, services.config.PUBLIC_URL)
            .href,
          scope: connection.scopes.join(' '),
          state: secrets.state,
          code_challenge: secrets.codeChallenge,
          code_challenge_method: 'S256',
          ...(openId ? { nonce: secrets.nonce } : {}),
          ...connection.extraParams,
        });
        return reply.redirect(url.href);
      },
    );
  }

  const finish = async (request: FastifyRequest, reply: FastifyReply, provider: ConnectProvider) => {
    const query = request.query as ProviderCallbackQuery;
    const flow = takeFlow(request, reply, query.state);
    const connection =
      typeof flow === 'string' || flow.kind !== 'connect'
        ? undefined
        : connections.find((c) => c.route === flow.connection && c.callback === provider);
    const name = (connection ?? connections.find((c) => c.callback === provider))?.name ?? provider;
    // The flow must come back to the session and tenant that started it.
    const session = request.session;
    if (
      typeof flow === 'string' ||
      flow.kind !== 'connect' ||
      !connection ||
      !session ||
      session.userId !== flow.userId ||
      session.tenantId !== flow.tenantId ||
      sessionHashOf(request.cookies[sessionCookie] ?? '') !== flow.sessionHash
    ) {
      request.log.warn(
        { problem: typeof flow === 'string' ? flow : 'not_this_session' },
        'connect callback refused',
      );
      return platformsWith(reply, {
        error:
          flow === 'missing' || flow === 'tampered' || flow === 'state_mismatch'
            ? connectMessages.failed(name)
            : connectMessages.expired,
      });
    }
    if (query.error)
      return platformsWith(reply, {
        error:
          query.error === 'access_denied' ? connectMessages.cancelled(name) : connectMessages.failed(name),
      });
    try {
      await requireTenantAccess(request, flow.tenantId, 'tenantAdmin');
      const client = await clientFor(request, connection);
      const tokens = await oidc.authorizationCodeGrant(
        client,
        new URL(request.url, services.config.PUBLIC_URL),
        {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: flow.state,
          ...(flow.nonce ? { expectedNonce: flow.nonce, idTokenExpected: true } : {}),
        },
      );
      const claims = tokens.claims();
      const accountId =
        query.realmId ??
        stringField(tokens, 'stripe_user_id') ??
        stringField(tokens, 'instance_url') ??
        (typeof claims?.sub === 'string' ? claims.sub : undefined) ??
        null;
      await recordConnection(reply, {
        connection,
        tenantId: flow.tenantId,
        secret: secretOf(tokens, {
          accountId: accountId ?? undefined,
          instanceUrl: stringField(tokens, 'instance_url'),
        }),
        accountId,
        owner: typeof claims?.email === 'string' ? claims.email : null,
      });
      return platformsWith(reply, { connected: provider });
    } catch (error) {
      if (isAppError(error) && error.code !== 'internal') {
        request.log.info({ code: error.code, why: error.message }, `${name} connection refused`);
        return platformsWith(reply, { error: error.userMessage });
      }
      logOAuthFailure(request, `${name} connection`, error);
      return platformsWith(reply, { error: connectMessages.failed(name) });
    }
  };

  for (const provider of ConnectProvider.options) {
    // Public: the answer is always a redirect; the signed flow cookie binds it to its session and tenant.
    app.get(
      `/api/connect/${provider}/callback`,
      {
        config: { access: 'public', rateLimit: sensitive },
        schema: { tags: ['platforms'], querystring: ProviderCallbackQuery },
      },
      (request, reply) => finish(request, reply, provider),
    );
  }

  return Promise.resolve();
};
