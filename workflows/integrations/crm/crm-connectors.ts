import { ApplicationFailure } from '@temporalio/common';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import type { Config } from '../../../contracts/config';
import type { CrmSettings, IntegrationProvider } from '../../../contracts/events/integration';
import { integrationStream } from '../../../contracts/stream-ids';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import type { PlatformHttp } from '../../connectors/shared/platform-http';
import { readState } from '../../sync/system-commands';
import type { CrmConnector } from './crm-connector';
import { providerNames, type IntegrationAccessToken, type IntegrationTokens } from './integration-tokens';

/** What every CRM provider's factory takes (crm-common: createHubSpotConnector, createSalesforceConnector...). */
export type CrmConnectorDeps = {
  http: PlatformHttp;
  /** From config (<PROVIDER>_API_URL); Salesforce's calls go to the token's instanceUrl instead. */
  apiBaseUrl: string;
  tokens: IntegrationAccessToken;
};

/** HUBSPOT, REVOPS (HubSpot RevOps Pro), SALESFORCE, ACTIVE_CAMPAIGN. */
export type CrmConnectorKind = 'HUBSPOT' | 'REVOPS' | 'SALESFORCE' | 'ACTIVE_CAMPAIGN';
export type CrmConnectorFactories = Partial<
  Record<CrmConnectorKind, (deps: CrmConnectorDeps) => CrmConnector>
>;

/** What a job needs about the account besides the connector: its tenant and settings. */
export type CrmAccount = {
  integrationId: number;
  tenantId: number;
  provider: IntegrationProvider;
  kind: CrmConnectorKind;
  settings: CrmSettings;
};

export type DebugLog = (message: string, details: Record<string, unknown>) => void;

/** Query parameters that carry secrets in some CRM APIs (ActiveCampaign's api_key, a token). */
const secretParams = /^(api_?key|access_?token|refresh_?token|token|key|client_secret|code)$/i;

/** The URL as a log may show it: secret parameters replaced. */
export const redactedUrl = (url: string): string => {
  try {
    const parsed = new URL(url);
    for (const name of [...parsed.searchParams.keys()])
      if (secretParams.test(name)) parsed.searchParams.set(name, '[redacted]');
    return parsed.toString();
  } catch {
    return '[unreadable url]';
  }
};

/**
 * DebugRequests (admin.md section 3): every call logged at debug level with its method, redacted URL,
 * status and duration. Headers (the bearer token, ActiveCampaign's Api-Token) and bodies are never
 * logged: bodies hold customers' names, which DebugCompanies and DebugContacts log deliberately.
 */
export const debugFetch =
  (inner: typeof fetch, log: DebugLog): typeof fetch =>
  async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const started = Date.now();
    const response = await inner(input, init);
    log('CRM request', {
      method: init?.method ?? 'GET',
      url: redactedUrl(url),
      status: response.status,
      ms: Date.now() - started,
    });
    return response;
  };

export const crmKindOf = (account: {
  provider: IntegrationProvider;
  productIdentifier: string | null;
}): CrmConnectorKind | null => {
  if (account.provider === 'HUBSPOT') return account.productIdentifier === 'REVOPS' ? 'REVOPS' : 'HUBSPOT';
  if (account.provider === 'SALESFORCE' || account.provider === 'ACTIVE_CAMPAIGN') return account.provider;
  return null;
};

export type CrmConnectorsDeps = {
  config: Pick<Config, 'CONNECTOR_MAX_RETRY_WAIT_SECONDS' | 'HUBSPOT_API_URL' | 'ACTIVE_CAMPAIGN_API_URL'>;
  writeSide: CommandHandlerDeps;
  now: () => Date;
  tokens: IntegrationTokens;
  factories: CrmConnectorFactories;
  /** Debug-level log of the Debug* settings; the activity's logger in the worker. */
  debug: DebugLog;
  fetch?: typeof fetch;
};

/**
 * The account's CRM connector, built for each job from the account's current provider and settings:
 * the Debug* settings may change between jobs. Tokens are shared per account (integration-tokens.ts).
 */
export const createCrmConnectors = (deps: CrmConnectorsDeps) => {
  const accountOf = async (integrationId: number): Promise<CrmAccount> => {
    const account = await readState(deps.writeSide, integrationDecider, integrationStream(integrationId));
    if (account.status !== 'known') throw new Error(`integration ${integrationId} is not known`);
    const kind = crmKindOf(account);
    if (kind === null || account.settings === null)
      throw ApplicationFailure.nonRetryable(
        `${providerNames[account.provider]} accounts are not CRM accounts: there is nothing to sync with them.`,
        'NoConnector',
      );
    return {
      integrationId,
      tenantId: account.tenantId,
      provider: account.provider,
      kind,
      settings: account.settings,
    };
  };

  const connectorOf = (account: CrmAccount): CrmConnector => {
    const factory = deps.factories[account.kind];
    if (!factory)
      throw ApplicationFailure.nonRetryable(
        `Syncing ${providerNames[account.provider]} accounts is not available in this deployment.`,
        'NoConnector',
      );
    const baseFetch = deps.fetch ?? fetch;
    const http: PlatformHttp = {
      platform: providerNames[account.provider],
      fetch: account.settings.DebugRequests ? debugFetch(baseFetch, deps.debug) : baseFetch,
      now: deps.now,
      maxRetryWaitMs: deps.config.CONNECTOR_MAX_RETRY_WAIT_SECONDS * 1000,
    };
    const apiBaseUrl =
      account.kind === 'ACTIVE_CAMPAIGN'
        ? (deps.config.ACTIVE_CAMPAIGN_API_URL ?? '')
        : account.kind === 'SALESFORCE'
          ? ''
          : deps.config.HUBSPOT_API_URL;
    return factory({ http, apiBaseUrl, tokens: deps.tokens.for(account.integrationId) });
  };

  return {
    accountOf,
    /** What push's activities take as `connectorFor`. */
    connectorFor: async (integrationId: number): Promise<CrmConnector> =>
      connectorOf(await accountOf(integrationId)),
    connectorOf,
    /** A job's start reads the account's credentials afresh: a reconnect may have happened since. */
    forgetTokens: (integrationId: number) => {
      deps.tokens.forget(integrationId);
    },
  };
};

export type CrmConnectors = ReturnType<typeof createCrmConnectors>;
