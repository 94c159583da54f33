import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import { createCredentialVault, type CredentialVault } from '../../../commands/credential-vault';
import type { Config } from '../../../contracts/config';
import type { IntegrationProvider } from '../../../contracts/events/integration';
import { integrationStream } from '../../../contracts/stream-ids';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import type { TokenEndpoint } from '../../connectors/shared/oauth-tokens';
import { readState } from '../../sync/system-commands';
import { createIntegrationTokens } from '../crm/integration-tokens';
import type { IntegrationAccessToken } from './cloud-http';

type CloudProvider = Extract<IntegrationProvider, 'GOOGLE' | 'MICROSOFT'>;

/**
 * The access tokens of Google and Microsoft integrations for Live Reports: core's integration tokens
 * (vault, renewal five minutes before expiry or after a 401, IntegrationCredentialsRenewed, INVALID on
 * a refused renewal), with the token endpoints of the two OpenID providers the connect flow used
 * (OAUTH_GOOGLE_ISSUER, OAUTH_MICROSOFT_ISSUER), read from their discovery documents on first need
 * and kept. Only the live reports worker renews these accounts (the CRM worker never touches them).
 */
export const createCloudTokens = (deps: {
  db: Db;
  writeSide: CommandHandlerDeps;
  config: Pick<
    Config,
    | 'SESSION_SECRET'
    | 'CONNECTOR_MAX_RETRY_WAIT_SECONDS'
    | 'OAUTH_GOOGLE_ISSUER'
    | 'OAUTH_GOOGLE_CLIENT_ID'
    | 'OAUTH_GOOGLE_CLIENT_SECRET'
    | 'OAUTH_MICROSOFT_ISSUER'
    | 'OAUTH_MICROSOFT_CLIENT_ID'
    | 'OAUTH_MICROSOFT_CLIENT_SECRET'
  >;
  now: () => Date;
  fetch?: typeof fetch;
  vault?: CredentialVault;
}): ((integrationId: number) => Promise<IntegrationAccessToken>) => {
  const { config } = deps;
  const doFetch = deps.fetch ?? fetch;
  const vault = deps.vault ?? createCredentialVault({ db: deps.db, masterSecret: config.SESSION_SECRET });
  const endpoints = new Map<CloudProvider, TokenEndpoint>();
  const clients = {
    GOOGLE: [config.OAUTH_GOOGLE_ISSUER, config.OAUTH_GOOGLE_CLIENT_ID, config.OAUTH_GOOGLE_CLIENT_SECRET],
    MICROSOFT: [
      config.OAUTH_MICROSOFT_ISSUER,
      config.OAUTH_MICROSOFT_CLIENT_ID,
      config.OAUTH_MICROSOFT_CLIENT_SECRET,
    ],
  } as const;

  const discover = async (provider: CloudProvider): Promise<void> => {
    if (endpoints.has(provider)) return;
    const [issuer, clientId, clientSecret] = clients[provider];
    const response = await doFetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(30_000),
    });
    const document = (await response.json().catch(() => null)) as { token_endpoint?: unknown } | null;
    if (!response.ok || typeof document?.token_endpoint !== 'string')
      throw new Error(
        `${provider} discovery at ${issuer} answered ${response.status} without a token endpoint`,
      );
    endpoints.set(provider, {
      tokenUrl: document.token_endpoint,
      clientId,
      clientSecret,
      clientAuth: 'post',
    });
  };

  const tokens = createIntegrationTokens({
    writeSide: deps.writeSide,
    vault,
    now: deps.now,
    http: {
      platform: 'The cloud account',
      fetch: deps.fetch,
      now: deps.now,
      maxRetryWaitMs: config.CONNECTOR_MAX_RETRY_WAIT_SECONDS * 1000,
    },
    endpointFor: ({ provider }) =>
      provider === 'GOOGLE' || provider === 'MICROSOFT' ? (endpoints.get(provider) ?? null) : null,
  });

  /** The credentials reference each account's tokens were last handed out under. */
  const seen = new Map<number, string | null>();

  return async (integrationId) => {
    const account = await readState(deps.writeSide, integrationDecider, integrationStream(integrationId));
    if (account.status !== 'known') return tokens.for(integrationId);
    if (account.provider === 'GOOGLE' || account.provider === 'MICROSOFT') await discover(account.provider);
    // A reconnect (or a renewal) since names other tokens: read them afresh. Otherwise the cached
    // tokens stay shared, so two refreshes never renew one rotating refresh token twice.
    if (seen.has(integrationId) && seen.get(integrationId) !== account.credentialsRef)
      tokens.forget(integrationId);
    seen.set(integrationId, account.credentialsRef);
    return tokens.for(integrationId);
  };
};
