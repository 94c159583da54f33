import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as oidc from 'openid-client';
import {
  ProviderCallbackQuery,
  ProviderLoginQuery,
  ProviderSignUpQuery,
  SignInProvider,
  providerSignInMessages,
} from '../../../contracts/api/oidc';
import { isAppError } from '../../../contracts/errors';
import { flowExpiry, saveFlow, takeFlow } from '../../auth/oauth-flow-cookie';
import { newAuthorizationSecrets, openIdClientOf } from '../../auth/oauth-clients';
import { logOAuthFailure } from '../../auth/oauth-failure';
import { identityFromClaims } from '../../auth/provider-identity';
import { rateLimits } from '../../plugins/security';
import { signInWithProvider, type SignUpDetails } from '../../use-cases/auth/sign-in-with-provider';

const sensitive = { max: rateLimits.sensitive, timeWindow: '1 minute' };

/** The cookie the web app reads once after a redirect sign-in (portal.md section 2.2), then removes. */
export const loginCookie = 'lw_login';

const loginFailed = (reply: FastifyReply, message: string) =>
  reply.redirect(`/login?error=${encodeURIComponent(message)}`);

const callbackUrlOf = (request: FastifyRequest, provider: SignInProvider) =>
  new URL(`/api/auth/${provider}/callback`, request.server.services.config.PUBLIC_URL);

/**
 * Sign-up and sign-in with Google or Microsoft (portal.md sections 1, 2.3 and 7): OpenID Connect's
 * authorization code flow with PKCE (S256), state and nonce kept in a signed short-lived cookie, and
 * the ID token checked by openid-client (issuer, audience, nonce, expiry, signature via JWKS).
 */
export const oidcRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  const begin = async (
    reply: FastifyReply,
    provider: SignInProvider,
    flow: { signUp: SignUpDetails | null; returnTo: string | null },
  ) => {
    let client: oidc.Configuration;
    try {
      client = await openIdClientOf(services.config, provider);
    } catch (error) {
      logOAuthFailure(reply.request, `${provider} discovery`, error);
      return loginFailed(reply, providerSignInMessages.failed);
    }
    const secrets = await newAuthorizationSecrets();
    saveFlow(reply, {
      kind: 'signin',
      provider,
      ...flow,
      state: secrets.state,
      nonce: secrets.nonce,
      codeVerifier: secrets.codeVerifier,
      expiresAt: flowExpiry(services.now()),
    });
    const url = oidc.buildAuthorizationUrl(client, {
      redirect_uri: callbackUrlOf(reply.request, provider).href,
      scope: 'openid email profile',
      state: secrets.state,
      nonce: secrets.nonce,
      code_challenge: secrets.codeChallenge,
      code_challenge_method: 'S256',
      prompt: 'select_account',
    });
    return reply.redirect(url.href);
  };

  const finish = async (request: FastifyRequest, reply: FastifyReply, provider: SignInProvider) => {
    const query = request.query as ProviderCallbackQuery;
    const flow = takeFlow(request, reply, query.state);
    if (typeof flow === 'string' || flow.kind !== 'signin' || flow.provider !== provider) {
      request.log.warn(
        { problem: typeof flow === 'string' ? flow : 'wrong_flow' },
        'sign-in callback refused',
      );
      return loginFailed(
        reply,
        flow === 'expired' ? providerSignInMessages.expired : providerSignInMessages.failed,
      );
    }
    if (query.error)
      return loginFailed(
        reply,
        query.error === 'access_denied' ? providerSignInMessages.cancelled : providerSignInMessages.failed,
      );
    try {
      const client = await openIdClientOf(services.config, provider);
      const currentUrl = new URL(request.url, services.config.PUBLIC_URL);
      const tokens = await oidc.authorizationCodeGrant(client, currentUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce ?? undefined,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token');
      const session = await signInWithProvider(reply, identityFromClaims(provider, claims), flow.signUp);
      void reply.setCookie(
        loginCookie,
        JSON.stringify({ csrfToken: reply.generateCsrf(), method: provider }),
        {
          httpOnly: false,
          sameSite: 'lax',
          secure: services.config.NODE_ENV === 'production',
          path: '/',
          maxAge: 300,
        },
      );
      const home = session.user.isPlatformAdmin ? '/admin/overview' : '/overview';
      return reply.redirect(flow.returnTo ?? home);
    } catch (error) {
      if (isAppError(error) && error.code !== 'internal') {
        request.log.info({ code: error.code, why: error.message }, `${provider} sign-in refused`);
        return loginFailed(reply, error.userMessage);
      }
      logOAuthFailure(request, `${provider} sign-in`, error);
      return loginFailed(reply, providerSignInMessages.failed);
    }
  };

  for (const provider of SignInProvider.options) {
    app.get(
      `/api/auth/${provider}/signup`,
      {
        config: { access: 'public', rateLimit: sensitive },
        schema: { tags: ['auth'], querystring: ProviderSignUpQuery },
      },
      (request, reply) => begin(reply, provider, { signUp: request.query, returnTo: null }),
    );
    app.get(
      `/api/auth/${provider}/login`,
      {
        config: { access: 'public', rateLimit: sensitive },
        schema: { tags: ['auth'], querystring: ProviderLoginQuery },
      },
      (request, reply) => begin(reply, provider, { signUp: null, returnTo: request.query.returnTo ?? null }),
    );
    // Public: the answer is always a redirect; the signed flow cookie and the state decide what it does.
    app.get(
      `/api/auth/${provider}/callback`,
      {
        config: { access: 'public', rateLimit: sensitive },
        schema: { tags: ['auth'], querystring: ProviderCallbackQuery },
      },
      (request, reply) => finish(request, reply, provider),
    );
  }

  return Promise.resolve();
};
