import type { CommandHandlerDeps } from '../../../commands/command-handler';
import type { CredentialVault, Secret } from '../../../commands/credential-vault';
import type { Config } from '../../../contracts/config';
import type { IntegrationProduct, IntegrationProvider } from '../../../contracts/events/integration';
import { integrationStream } from '../../../contracts/stream-ids';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import { failureTypes, userFailure } from '../../connectors/shared/connector-failure';
import type { TokenEndpoint } from '../../connectors/shared/oauth-tokens';
import { callPlatform, type PlatformHttp } from '../../connectors/shared/platform-http';
import { readState, runSystemCommand } from '../../sync/system-commands';

/**
 * An integration account's access to its provider (docs/adr/0045-crm-sync.md), the way
 * workflows/connectors/shared/oauth-tokens.ts does it for sellers: the secret lives only in the
 * credential vault under the reference the account's latest event names; an OAuth access token is
 * renewed five minutes before it expires or after a 401, one renewal at a time; the new pair is sealed
 * under a new reference that IntegrationCredentialsRenewed names, and the old entry goes. A renewal the
 * provider refuses marks the credentials INVALID (Auth Status in the portal and admin tables) and fails
 * the job asking the user to reconnect. ActiveCampaign's API key never expires: it is never renewed.
 */
export type IntegrationAccessToken = {
  /** A valid access token (renewed first when near expiry); instanceUrl for Salesforce, accountUrl for ActiveCampaign. */
  current: () => Promise<{ accessToken: string; instanceUrl: string | null }>;
  /** After a 401: renews unless already renewed; throws a userFailure when the provider refuses. */
  renewAfterRejection: (
    rejectedAccessToken: string,
  ) => Promise<{ accessToken: string; instanceUrl: string | null }>;
};

export type IntegrationTokensDeps = {
  writeSide: CommandHandlerDeps;
  vault: CredentialVault;
  now: () => Date;
  http: PlatformHttp;
  /** The token endpoint of an OAuth provider; null for API-key accounts. */
  endpointFor: (account: {
    provider: IntegrationProvider;
    productIdentifier: IntegrationProduct | null;
  }) => TokenEndpoint | null;
};

const RENEW_BEFORE_MS = 5 * 60_000;
const DEFAULT_LIFETIME_S = 3600;

export const providerNames: Record<IntegrationProvider, string> = {
  HUBSPOT: 'HubSpot',
  SALESFORCE: 'Salesforce',
  ACTIVE_CAMPAIGN: 'ActiveCampaign',
  GOOGLE: 'Google',
  MICROSOFT: 'Microsoft',
  WORKSPACE: 'Workspace',
};

/** The CRM providers' token endpoints from the configuration (HubSpot and RevOps Pro are two apps). */
export const crmTokenEndpoints =
  (config: Config): IntegrationTokensDeps['endpointFor'] =>
  ({ provider, productIdentifier }) => {
    if (provider === 'HUBSPOT' && productIdentifier === 'REVOPS')
      return {
        tokenUrl: config.OAUTH_REVOPS_TOKEN_URL,
        clientId: config.OAUTH_REVOPS_CLIENT_ID,
        clientSecret: config.OAUTH_REVOPS_CLIENT_SECRET,
        clientAuth: 'post',
      };
    if (provider === 'HUBSPOT')
      return {
        tokenUrl: config.OAUTH_HUBSPOT_TOKEN_URL,
        clientId: config.OAUTH_HUBSPOT_CLIENT_ID,
        clientSecret: config.OAUTH_HUBSPOT_CLIENT_SECRET,
        clientAuth: 'post',
      };
    if (provider === 'SALESFORCE')
      return {
        tokenUrl: config.OAUTH_SALESFORCE_TOKEN_URL,
        clientId: config.OAUTH_SALESFORCE_CLIENT_ID,
        clientSecret: config.OAUTH_SALESFORCE_CLIENT_SECRET,
        clientAuth: 'post',
      };
    return null;
  };

type Loaded = {
  integrationId: number;
  tenantId: number;
  provider: IntegrationProvider;
  productIdentifier: IntegrationProduct | null;
  credentialsRef: string;
  secret: Secret;
  accountUrl: string | null;
  /** Epoch ms; MAX_SAFE_INTEGER for an API key. */
  expiresAt: number;
};

/** The account's latest credentials event: its reference, when it was issued, the ActiveCampaign URL. */
const latestCredentials = async (writeSide: CommandHandlerDeps, integrationId: number) => {
  const events = await writeSide.store.readStream(integrationStream(integrationId));
  for (const event of [...events].reverse()) {
    const data = event.data as {
      credentialsRef?: unknown;
      accountUrl?: unknown;
      connectedAt?: unknown;
      renewedAt?: unknown;
    } | null;
    if (typeof data?.credentialsRef === 'string')
      return {
        ref: data.credentialsRef,
        accountUrl: typeof data.accountUrl === 'string' ? data.accountUrl : null,
        issuedAt: [data.renewedAt, data.connectedAt].find((at): at is string => typeof at === 'string') ?? '',
      };
  }
  return null;
};

const access = (tokens: Loaded) => ({
  accessToken: tokens.secret.accessToken ?? tokens.secret.apiKey ?? '',
  instanceUrl:
    tokens.provider === 'ACTIVE_CAMPAIGN' ? tokens.accountUrl : (tokens.secret.instanceUrl ?? null),
});

/**
 * One IntegrationAccessToken per account, shared by every connector the worker builds for it, so the
 * sync's reads and the pushes never renew the same refresh token twice.
 */
export const createIntegrationTokens = (deps: IntegrationTokensDeps) => {
  const byAccount = new Map<number, IntegrationAccessToken>();

  const forAccount = (integrationId: number): IntegrationAccessToken => {
    let cached: Loaded | null = null;
    let renewal: Promise<Loaded> | null = null;
    const context = (tenantId: number) => ({
      writeSide: deps.writeSide,
      workflowId: `integration-token-${integrationId}`,
      tenantId,
      process: 'integration-tokens',
    });

    const load = async (): Promise<Loaded> => {
      const account = await readState(deps.writeSide, integrationDecider, integrationStream(integrationId));
      if (account.status !== 'known') throw new Error(`integration ${integrationId} is not known`);
      const name = providerNames[account.provider];
      if (account.credentialsStatus !== 'VALID')
        throw userFailure(
          `Our access to ${name} is ${account.credentialsStatus === 'REVOKED' ? 'disconnected' : 'no longer valid'}. ` +
            `Reconnect ${name} on the Platforms page, then sync again.`,
          failureTypes.revoked,
        );
      const latest = await latestCredentials(deps.writeSide, integrationId);
      const stored = latest ? await deps.vault.read(latest.ref) : null;
      if (!latest || !stored || !(stored.secret.accessToken ?? stored.secret.apiKey))
        throw userFailure(
          `We hold no ${name} authorisation for this account. Reconnect ${name} on the Platforms page.`,
          failureTypes.noCredentials,
        );
      const endpoint = deps.endpointFor(account);
      const obtained = Date.parse(stored.secret.obtainedAt ?? latest.issuedAt);
      const lifetime = Number(stored.secret.expiresIn ?? DEFAULT_LIFETIME_S);
      return {
        integrationId,
        tenantId: account.tenantId,
        provider: account.provider,
        productIdentifier: account.productIdentifier,
        credentialsRef: latest.ref,
        secret: stored.secret,
        accountUrl: latest.accountUrl,
        expiresAt:
          endpoint === null
            ? Number.MAX_SAFE_INTEGER
            : Number.isNaN(obtained)
              ? 0
              : obtained + lifetime * 1000,
      };
    };

    /** Records INVALID with the reason in words and ends the job asking for a reconnect. */
    const invalidate = async (tokens: Loaded, why: string): Promise<never> => {
      cached = null;
      const name = providerNames[tokens.provider];
      await runSystemCommand(context(tokens.tenantId), integrationDecider, {
        streamId: integrationStream(integrationId),
        step: `invalidate:${tokens.credentialsRef}`,
        command: {
          type: 'MarkIntegrationCredentialsInvalid',
          now: deps.now(),
          data: { credentialsStatus: 'INVALID', reason: `${name} refused our credentials (${why}).` },
        },
      });
      throw userFailure(
        `${name} refused our access to this account (${why}). Reconnect ${name} on the Platforms page, then sync again.`,
        failureTypes.revoked,
      );
    };

    const renew = async (tokens: Loaded): Promise<Loaded> => {
      const endpoint = deps.endpointFor(tokens);
      // An API key has nothing to renew: a 401 means the key was withdrawn.
      if (endpoint === null) return invalidate(tokens, 'the API key was refused');
      const refreshToken = tokens.secret.refreshToken;
      if (!refreshToken) return invalidate(tokens, 'no refresh token was granted');
      const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
      const headers: Record<string, string> = {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      };
      if (endpoint.clientAuth === 'basic')
        headers.authorization = `Basic ${btoa(
          `${encodeURIComponent(endpoint.clientId ?? '')}:${encodeURIComponent(endpoint.clientSecret ?? '')}`,
        )}`;
      else {
        form.set('client_id', endpoint.clientId ?? '');
        form.set('client_secret', endpoint.clientSecret ?? '');
      }
      const response = await callPlatform(deps.http, endpoint.tokenUrl, {
        method: 'POST',
        headers,
        body: form.toString(),
      });
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(response.text) as Record<string, unknown>;
      } catch {
        body = {};
      }
      if (response.status === 400 || response.status === 401)
        return invalidate(tokens, typeof body.error === 'string' ? body.error : `HTTP ${response.status}`);
      if (response.status !== 200 || typeof body.access_token !== 'string')
        throw new Error(`${providerNames[tokens.provider]}'s token endpoint answered ${response.status}`);
      const now = deps.now();
      const secret: Secret = {
        ...tokens.secret,
        accessToken: body.access_token,
        refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : refreshToken,
        expiresIn: String(typeof body.expires_in === 'number' ? body.expires_in : DEFAULT_LIFETIME_S),
        obtainedAt: now.toISOString(),
        // Salesforce answers the instance with every token; it can move (a migration), so the newest wins.
        ...(typeof body.instance_url === 'string' ? { instanceUrl: body.instance_url } : {}),
      };
      const credentialsRef = await deps.vault.store({ tenantId: tokens.tenantId, kind: 'oauth', secret });
      await runSystemCommand(context(tokens.tenantId), integrationDecider, {
        streamId: integrationStream(integrationId),
        step: `renew:${credentialsRef}`,
        command: { type: 'RenewIntegrationCredentials', now, data: { credentialsRef } },
      });
      await deps.vault.remove(tokens.credentialsRef);
      return {
        ...tokens,
        credentialsRef,
        secret,
        expiresAt: now.getTime() + Number(secret.expiresIn) * 1000,
      };
    };

    const renewOnce = (tokens: Loaded): Promise<Loaded> => {
      if (renewal) return renewal;
      const running = renew(tokens)
        .then((fresh) => {
          cached = fresh;
          return fresh;
        })
        .finally(() => {
          renewal = null;
        });
      renewal = running;
      return running;
    };

    const currentTokens = async (): Promise<Loaded> => {
      if (renewal) return renewal;
      const soon = (tokens: Loaded) => tokens.expiresAt - deps.now().getTime() < RENEW_BEFORE_MS;
      // Another worker may have renewed since: the stream names the newest reference.
      let tokens = cached;
      if (!tokens || soon(tokens)) tokens = await load();
      cached = tokens;
      return soon(tokens) ? renewOnce(tokens) : tokens;
    };

    return {
      current: async () => access(await currentTokens()),
      renewAfterRejection: async (rejected) => {
        if (renewal) return access(await renewal);
        // The stream first: a reconnect (or another worker's renewal) may have replaced what this
        // worker holds, and renewing a withdrawn refresh token would mark fresh credentials INVALID.
        const tokens = await load();
        cached = tokens;
        if (access(tokens).accessToken !== rejected) return access(tokens);
        return access(await renewOnce(tokens));
      },
    };
  };

  return {
    for: (integrationId: number): IntegrationAccessToken => {
      let tokens = byAccount.get(integrationId);
      if (!tokens) {
        tokens = forAccount(integrationId);
        byAccount.set(integrationId, tokens);
      }
      return tokens;
    },
    /** Reads the account afresh on next use (a job's start: a reconnect may have happened meanwhile). */
    forget: (integrationId: number) => byAccount.delete(integrationId),
  };
};

export type IntegrationTokens = ReturnType<typeof createIntegrationTokens>;
