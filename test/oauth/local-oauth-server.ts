import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Config } from '../../contracts/config';

/**
 * A local OAuth 2.0 / OpenID Connect server standing in for Google, Microsoft and the platforms'
 * OAuth apps (there is no internet here): discovery, authorize (auto-consenting the configured test
 * user), token (client secret by Basic or form, PKCE S256 enforced, single-use codes bound to their
 * redirect URI) and a JWKS. ID tokens are RS256-signed with jose. Tests can make the next
 * authorization fail, or give it provider-specific extras (QuickBooks' realmId).
 */

export type TestUser = {
  sub: string;
  email: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
  xms_edov?: boolean;
};

type Grant = {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string | null;
  scope: string;
  user: TestUser;
};

export type IssuedTokens = { clientId: string; accessToken: string; refreshToken: string };

/** Every provider the gateway talks to, by its config prefix; each gets a client of its own. */
const providers = [
  'GOOGLE',
  'MICROSOFT',
  'QBO',
  'XERO',
  'STRIPE',
  'HUBSPOT',
  'REVOPS',
  'SALESFORCE',
] as const;
type ProviderKey = (typeof providers)[number];

const callbackPaths: Record<ProviderKey, string[]> = {
  GOOGLE: ['/api/auth/google/callback', '/api/connect/google/callback'],
  MICROSOFT: ['/api/auth/microsoft/callback', '/api/connect/microsoft/callback'],
  QBO: ['/api/connect/qbo/callback'],
  XERO: ['/api/connect/xero/callback'],
  STRIPE: ['/api/connect/stripe/callback'],
  HUBSPOT: ['/api/connect/hubspot/callback'],
  REVOPS: ['/api/connect/revops/callback'],
  SALESFORCE: ['/api/connect/salesforce/callback'],
};

const base64url = (buffer: Buffer) => buffer.toString('base64url');
const s256 = (verifier: string) => base64url(createHash('sha256').update(verifier).digest());

export type LocalOAuthServer = {
  issuer: string;
  /** The configuration values that point every provider at this server. */
  configValues: Record<string, string>;
  /** The person the next authorizations consent as. */
  setUser: (user: TestUser) => void;
  /** The next authorization answers `error` instead of a code (say access_denied). */
  failNextAuthorization: (error: string) => void;
  /** Extra query parameters on the redirect back to one client (QuickBooks sends realmId). */
  setRedirectExtras: (provider: ProviderKey, extras: Record<string, string>) => void;
  /** Tokens handed out so far, for checks that they are stored nowhere in the clear. */
  issued: IssuedTokens[];
  /** Token requests refused, with the reason (invalid_grant for a PKCE mismatch). */
  refusals: { clientId: string | null; error: string; reason: string }[];
  close: () => Promise<void>;
};

export const startLocalOAuthServer = async (options: { publicUrl: string }): Promise<LocalOAuthServer> => {
  const app: FastifyInstance = Fastify({ logger: false });
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = base64url(randomBytes(8));
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const clients = new Map(
    providers.map((provider) => [
      `${provider.toLowerCase()}-client`,
      {
        provider,
        secret: `${provider.toLowerCase()}-secret-${base64url(randomBytes(12))}`,
        redirectUris: callbackPaths[provider].map((path) => new URL(path, options.publicUrl).href),
      },
    ]),
  );
  const codes = new Map<string, Grant>();
  const redirectExtras = new Map<string, Record<string, string>>();
  let user: TestUser = { sub: 'test-user', email: 'test@example.test', email_verified: true };
  let nextError: string | null = null;
  const issued: IssuedTokens[] = [];
  const refusals: LocalOAuthServer['refusals'] = [];

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  // Known once the server listens; the handlers read it at request time.
  let issuer = '';

  app.get('/.well-known/openid-configuration', () => ({
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/jwks`,
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: ['openid', 'email', 'profile', 'offline_access'],
    claims_supported: ['sub', 'email', 'email_verified', 'given_name', 'family_name', 'name'],
  }));

  app.get('/jwks', () => ({ keys: [jwk] }));

  app.get('/authorize', (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const client = clients.get(query.client_id ?? '');
    const redirectUri = query.redirect_uri ?? '';
    // A bad client or redirect URI is never redirected to (that would make this an open redirector).
    if (!client || !client.redirectUris.includes(redirectUri))
      return reply
        .code(400)
        .send({ error: 'invalid_request', error_description: 'unknown client or redirect_uri' });
    const back = new URL(redirectUri);
    if (query.state) back.searchParams.set('state', query.state);
    const refuse = (error: string) => {
      back.searchParams.set('error', error);
      return reply.redirect(back.href);
    };
    if (nextError) {
      const error = nextError;
      nextError = null;
      return refuse(error);
    }
    if (query.response_type !== 'code') return refuse('unsupported_response_type');
    if (!query.code_challenge || query.code_challenge_method !== 'S256') return refuse('invalid_request');
    const code = base64url(randomBytes(24));
    codes.set(code, {
      clientId: query.client_id ?? '',
      redirectUri,
      codeChallenge: query.code_challenge,
      nonce: query.nonce ?? null,
      scope: query.scope ?? '',
      user,
    });
    back.searchParams.set('code', code);
    for (const [name, value] of Object.entries(redirectExtras.get(client.provider) ?? {}))
      back.searchParams.set(name, value);
    return reply.redirect(back.href);
  });

  app.post('/token', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, string | undefined>;
    const refuse = (error: string, reason: string, clientId: string | null = null) => {
      refusals.push({ clientId, error, reason });
      return reply.code(400).send({ error, error_description: reason });
    };
    const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '');
    const [basicId, basicSecret] = basic?.[1]
      ? Buffer.from(basic[1], 'base64')
          .toString('utf8')
          .split(':')
          .map((part) => decodeURIComponent(part))
      : [];
    const clientId = basicId ?? body.client_id ?? '';
    const secret = basicSecret ?? body.client_secret;
    const client = clients.get(clientId);
    if (!client || client.secret !== secret) return refuse('invalid_client', 'client authentication failed');
    if (body.grant_type !== 'authorization_code')
      return refuse('unsupported_grant_type', String(body.grant_type), clientId);
    const grant = codes.get(body.code ?? '');
    codes.delete(body.code ?? '');
    if (!grant || grant.clientId !== clientId)
      return refuse('invalid_grant', 'unknown or used code', clientId);
    if (grant.redirectUri !== body.redirect_uri)
      return refuse('invalid_grant', 'redirect_uri mismatch', clientId);
    if (!body.code_verifier || s256(body.code_verifier) !== grant.codeChallenge)
      return refuse('invalid_grant', 'PKCE verification failed', clientId);
    const accessToken = `at-${base64url(randomBytes(24))}`;
    const refreshToken = `rt-${base64url(randomBytes(24))}`;
    issued.push({ clientId, accessToken, refreshToken });
    const scopes = grant.scope.split(' ');
    const idToken = scopes.includes('openid')
      ? await new SignJWT({
          ...grant.user,
          ...(grant.nonce ? { nonce: grant.nonce } : {}),
        })
          .setProtectedHeader({ alg: 'RS256', kid })
          .setIssuer(issuer)
          .setAudience(clientId)
          .setSubject(grant.user.sub)
          .setIssuedAt()
          .setExpirationTime('10m')
          .sign(privateKey)
      : undefined;
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: refreshToken,
      scope: grant.scope,
      ...(idToken ? { id_token: idToken } : {}),
    };
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  // A test file that never closes it (the route-table examples) must still be able to exit.
  app.server.unref();
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the OAuth server did not get a port');
  issuer = `http://127.0.0.1:${address.port}`;

  const configValues: Record<string, string> = {
    OAUTH_GOOGLE_ISSUER: issuer,
    OAUTH_MICROSOFT_ISSUER: issuer,
  };
  for (const [clientId, client] of clients) {
    configValues[`OAUTH_${client.provider}_CLIENT_ID`] = clientId;
    configValues[`OAUTH_${client.provider}_CLIENT_SECRET`] = client.secret;
    if (client.provider !== 'GOOGLE' && client.provider !== 'MICROSOFT') {
      configValues[`OAUTH_${client.provider}_AUTHORIZE_URL`] = `${issuer}/authorize`;
      configValues[`OAUTH_${client.provider}_TOKEN_URL`] = `${issuer}/token`;
    }
  }

  return {
    issuer,
    configValues,
    setUser: (next) => {
      user = next;
    },
    failNextAuthorization: (error) => {
      nextError = error;
    },
    setRedirectExtras: (provider, extras) => {
      redirectExtras.set(provider, extras);
    },
    issued,
    refusals,
    close: () => app.close(),
  };
};

/**
 * Points a running gateway's configuration at the server. The server's port is known only once it
 * listens, after the test world parsed its configuration, so the values are set on that object.
 */
export const pointProvidersAt = (config: Config, server: LocalOAuthServer): void => {
  Object.assign(config, server.configValues);
};
