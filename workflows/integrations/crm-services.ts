import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../commands/command-handler';
import { createCredentialVault, type CredentialVault } from '../../commands/credential-vault';
import type { Config } from '../../contracts/config';
import { createCrmConnectors, type CrmConnectorFactories, type DebugLog } from './crm/crm-connectors';
import { crmMirrorCollections } from './crm/crm-mirror';
import { createIntegrationTokens, crmTokenEndpoints } from './crm/integration-tokens';
import { createActiveCampaignConnector } from './active-campaign/active-campaign-connector';
import { createHubSpotConnector } from './hubspot/hubspot-connector';
import { createSalesforceConnector } from './salesforce/salesforce-connector';

/** Each CRM provider's connector (docs/adr/0047 HubSpot and RevOps Pro, 0048 Salesforce and ActiveCampaign). */
export const crmConnectorFactories = (
  config: Pick<Config, 'SALESFORCE_API_VERSION'>,
): CrmConnectorFactories => ({
  HUBSPOT: (deps) => createHubSpotConnector({ ...deps, revops: false }),
  REVOPS: (deps) => createHubSpotConnector({ ...deps, revops: true }),
  SALESFORCE: (deps) => createSalesforceConnector({ ...deps, apiVersion: config.SALESFORCE_API_VERSION }),
  ACTIVE_CAMPAIGN: (deps) => createActiveCampaignConnector(deps),
});

/**
 * What the integrations worker builds once from the configuration: the vault, the accounts' tokens
 * (one renewal at a time per account across the sync and the pushes) and the CRM connectors.
 */
export const createCrmServices = (deps: {
  db: Db;
  writeSide: CommandHandlerDeps;
  config: Config;
  now: () => Date;
  factories: CrmConnectorFactories;
  debug: DebugLog;
  /** HTTP for the CRMs and their token endpoints; the global fetch unless a test or benchmark passes one. */
  fetch?: typeof fetch;
  vault?: CredentialVault;
}) => {
  const vault =
    deps.vault ?? createCredentialVault({ db: deps.db, masterSecret: deps.config.SESSION_SECRET });
  const tokens = createIntegrationTokens({
    writeSide: deps.writeSide,
    vault,
    now: deps.now,
    http: {
      platform: 'The CRM',
      fetch: deps.fetch,
      now: deps.now,
      maxRetryWaitMs: deps.config.CONNECTOR_MAX_RETRY_WAIT_SECONDS * 1000,
    },
    endpointFor: crmTokenEndpoints(deps.config),
  });
  const connectors = createCrmConnectors({
    config: deps.config,
    writeSide: deps.writeSide,
    now: deps.now,
    tokens,
    factories: deps.factories,
    debug: deps.debug,
    fetch: deps.fetch,
  });
  /** Push's `companyOwners`: the owner resolveCrmOwners picked for each company (UseContactForOwner). */
  const companyOwners = async (integrationId: number, companyCrmIds: readonly string[]) => {
    const docs = await deps.db
      .collection<{ crmId: string; ownerCrmId: string | null; taskOwnerCrmId?: string | null }>(
        crmMirrorCollections.companies,
      )
      .find({ integrationId, crmId: { $in: [...companyCrmIds] } })
      .toArray();
    return new Map(docs.map((doc) => [doc.crmId, doc.taskOwnerCrmId ?? doc.ownerCrmId ?? null]));
  };
  return { vault, tokens, connectors, companyOwners };
};
