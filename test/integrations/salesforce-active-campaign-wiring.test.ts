import type { Config } from '../../contracts/config';
import { integrationStream } from '../../contracts/stream-ids';
import { integrationDecider } from '../../domain/integration/integration-decider';
import { readState } from '../../workflows/sync/system-commands';
import { failureTypes } from '../../workflows/connectors/shared/connector-failure';
import { createCrmServices, crmConnectorFactories } from '../../workflows/integrations/crm-services';
import { companyFor, signUp } from '../gateway/fixtures';
import { useGatewayWorld } from '../gateway/gateway-world';
import {
  activeCampaignFixture,
  startActiveCampaignFake,
  type ActiveCampaignFake,
} from '../fakes/active-campaign-fake';
import { salesforceFixture, startSalesforceFake, type SalesforceFake } from '../fakes/salesforce-fake';

/**
 * The worker's wiring (core's createCrmServices with the production factories) against the local
 * Salesforce and ActiveCampaign fakes (ADR 48): an account connected with stale tokens renews them
 * at the fake's token endpoint, the Salesforce connector then calls the instance the answer names,
 * and a refused refresh or a refused API key leaves the account INVALID.
 */

const world = useGatewayWorld(__filename);
let salesforce: SalesforceFake;
let activeCampaign: ActiveCampaignFake;
let config: Config;

beforeAll(async () => {
  salesforce = await startSalesforceFake();
  salesforce.load('User', salesforceFixture('users.json'));
  salesforce.load('Account', salesforceFixture('accounts.json'));
  salesforce.load('Contact', salesforceFixture('contacts.json'));
  activeCampaign = await startActiveCampaignFake();
  activeCampaign.apiKeys.add('ac-wired-key');
  activeCampaign.load(activeCampaignFixture('account.json'));
  config = {
    ...world.config,
    ...salesforce.configValues,
    ACTIVE_CAMPAIGN_API_URL: activeCampaign.url,
    SALESFORCE_API_VERSION: 'v61.0',
  };
});
afterAll(async () => {
  await salesforce.close();
  await activeCampaign.close();
});

const services = () =>
  createCrmServices({
    db: world.services.db,
    writeSide: world.services.writeSide,
    config,
    now: () => new Date(),
    factories: crmConnectorFactories(config),
    debug: () => undefined,
  });

let nextIntegrationId = 881_000;
let count = 0;

/** An account as the connect flows leave it: a sealed secret and ConnectIntegration. */
const connect = async (
  provider: 'SALESFORCE' | 'ACTIVE_CAMPAIGN',
  secret: Record<string, string>,
  url: string | null = null,
) => {
  const owner = await signUp(world, { name: `crm-wiring-${(count += 1)}` });
  const tenantId = await companyFor(world, owner, { name: `Wiring Co ${count}` });
  const integrationId = (nextIntegrationId += 1);
  const credentialsRef = await services().vault.store({
    tenantId,
    kind: provider === 'SALESFORCE' ? 'oauth' : 'active_campaign',
    secret,
  });
  await world.run(integrationDecider, integrationStream(integrationId), {
    type: 'ConnectIntegration',
    now: new Date(),
    data: {
      integrationId,
      tenantId,
      provider,
      productIdentifier: null,
      authMethod: provider === 'SALESFORCE' ? 'oauth2' : 'api_key',
      credentialsRef,
      credentialsOwner: null,
      url,
      actor: { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false },
      tenantIsDemo: false,
      planAllowsProvider: true,
    },
  });
  return integrationId;
};

const credentialsStatus = async (integrationId: number) => {
  const account = await readState(
    world.services.writeSide,
    integrationDecider,
    integrationStream(integrationId),
  );
  return account.status === 'known' ? account.credentialsStatus : 'unknown';
};

describe('Salesforce through the worker’s wiring', () => {
  it('renews stale tokens, then reads the instance the token answer names, on the configured version', async () => {
    const issued = salesforce.issueTokens();
    const integrationId = await connect('SALESFORCE', {
      accessToken: 'stale-token',
      refreshToken: issued.refreshToken,
      instanceUrl: 'https://moved-away.invalid',
      expiresIn: '7200',
      obtainedAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
    });
    const refreshes = salesforce.refreshes();
    const connector = await services().connectors.connectorFor(integrationId);
    const page = await connector.readCompanies({
      cursor: null,
      pageSize: 200,
      accountingIdentifier: 'AccountNumber',
    });
    expect(page.records.map((r) => r.name)).toContain('Bäckerei Müller GmbH');
    expect(page.records.find((r) => r.name === 'Acme, Inc.')?.accountingId).toBe('C-1001');
    expect(salesforce.refreshes()).toBe(refreshes + 1);
    expect(salesforce.requests.some((r) => r.path.startsWith('/services/data/v61.0/query'))).toBe(true);
    expect(await credentialsStatus(integrationId)).toBe('VALID');
  });

  it('marks the account INVALID when Salesforce refuses the refresh', async () => {
    const integrationId = await connect('SALESFORCE', {
      accessToken: 'stale-token',
      refreshToken: 'refresh-salesforce-forgot',
      instanceUrl: salesforce.instanceUrl,
      expiresIn: '7200',
      obtainedAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
    });
    const connector = await services().connectors.connectorFor(integrationId);
    await expect(connector.readOwners()).rejects.toMatchObject({
      type: failureTypes.revoked,
      nonRetryable: true,
    });
    expect(await credentialsStatus(integrationId)).toBe('INVALID');
  });
});

describe('ActiveCampaign through the worker’s wiring', () => {
  it('reads with the stored key, and a key the account refuses leaves the account INVALID', async () => {
    const good = await connect('ACTIVE_CAMPAIGN', { apiKey: 'ac-wired-key' }, 'https://acme.api-us1.com');
    const connector = await services().connectors.connectorFor(good);
    const contacts = await connector.readContacts({
      cursor: null,
      pageSize: 100,
      accountingIdentifier: null,
    });
    expect(contacts.records.find((c) => c.email === 'ap@acme.example')?.companyCrmIds).toEqual(['1']);

    const revoked = await connect(
      'ACTIVE_CAMPAIGN',
      { apiKey: 'ac-key-revoked' },
      'https://acme.api-us1.com',
    );
    const refused = (await services().connectors.connectorFor(revoked)).readCompanies({
      cursor: null,
      pageSize: 100,
      accountingIdentifier: null,
    });
    await expect(refused).rejects.toMatchObject({ nonRetryable: true });
    expect(await credentialsStatus(revoked)).toBe('INVALID');
    expect(await credentialsStatus(good)).toBe('VALID');
  });
});
