import * as oidc from 'openid-client';
import type { Config } from '../../contracts/config';
import type { SignInProvider } from '../../contracts/api/oidc';

/**
 * openid-client configurations: Google and Microsoft discovered from their issuers (cached per
 * process; a failed discovery is retried on the next request), the other platforms built from
 * their configured endpoints. Plain http is allowed only for loopback addresses (the local test
 * server); every real provider is https.
 */

export class ProviderNotConfigured extends Error {}

const isLoopbackHttp = (url: string): boolean => {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
};

const discovered = new Map<string, Promise<oidc.Configuration>>();

const signInSettings = (config: Config, provider: SignInProvider) =>
  provider === 'google'
    ? {
        issuer: config.OAUTH_GOOGLE_ISSUER,
        clientId: config.OAUTH_GOOGLE_CLIENT_ID,
        clientSecret: config.OAUTH_GOOGLE_CLIENT_SECRET,
      }
    : {
        issuer: config.OAUTH_MICROSOFT_ISSUER,
        clientId: config.OAUTH_MICROSOFT_CLIENT_ID,
        clientSecret: config.OAUTH_MICROSOFT_CLIENT_SECRET,
      };

/** The OpenID Connect client of Google or Microsoft. */
export const openIdClientOf = (config: Config, provider: SignInProvider): Promise<oidc.Configuration> => {
  const { issuer, clientId, clientSecret } = signInSettings(config, provider);
  if (!clientId || !clientSecret) return Promise.reject(new ProviderNotConfigured(provider));
  const key = `${issuer}|${clientId}`;
  let configuration = discovered.get(key);
  if (!configuration) {
    configuration = oidc.discovery(new URL(issuer), clientId, clientSecret, undefined, {
      execute: isLoopbackHttp(issuer) ? [oidc.allowInsecureRequests] : [],
      timeout: 10,
    });
    discovered.set(key, configuration);
    configuration.catch(() => discovered.delete(key));
  }
  return configuration;
};

export type OAuthEndpoints = {
  authorizeUrl: string;
  tokenUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** How the token request authenticates: HTTP Basic (QuickBooks, Xero) or form fields (the others). */
  clientAuth: 'basic' | 'post';
};

/** A plain OAuth 2.0 client from configured endpoints (no ID token is asked for). */
export const oauthClientOf = (endpoints: OAuthEndpoints): oidc.Configuration => {
  const { authorizeUrl, tokenUrl, clientId, clientSecret } = endpoints;
  if (!clientId || !clientSecret) throw new ProviderNotConfigured(authorizeUrl);
  const configuration = new oidc.Configuration(
    { issuer: new URL(authorizeUrl).origin, authorization_endpoint: authorizeUrl, token_endpoint: tokenUrl },
    clientId,
    clientSecret,
    endpoints.clientAuth === 'basic'
      ? oidc.ClientSecretBasic(clientSecret)
      : oidc.ClientSecretPost(clientSecret),
  );
  if (isLoopbackHttp(authorizeUrl) && isLoopbackHttp(tokenUrl)) oidc.allowInsecureRequests(configuration);
  configuration.timeout = 10;
  return configuration;
};

/** Fresh random values of one authorization request, and the S256 PKCE challenge. */
export const newAuthorizationSecrets = async (): Promise<{
  state: string;
  nonce: string;
  codeVerifier: string;
  codeChallenge: string;
}> => {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  return {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    codeVerifier,
    codeChallenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
  };
};
