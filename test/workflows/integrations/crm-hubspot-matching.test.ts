import { IntegrationCompaniesResponse, IntegrationResponse } from '../../../contracts/api/integrations';
import type { Config } from '../../../contracts/config';
import type { LedgerCustomer } from '../../../contracts/ledger';
import { integrationStream } from '../../../contracts/stream-ids';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import type { CrmPushActivities } from '../../../workflows/integrations/crm/job-input';
import { ledgerCollections, ledgerDocId } from '../../../workflows/ledger/ledger-collections';
import { startHubSpotFake, type HubSpotFake } from '../../fakes/hubspot-fake';
import { companyFor, signUp } from '../../gateway/fixtures';
import { useGatewayWorld } from '../../gateway/gateway-world';
import { useIntegrationJobRuntime } from '../../integrations/integration-job-world';

/**
 * Issue 17, helper core: a HubSpot sync through the real HubSpot connector and the local HubSpot fake's
 * fixture portal (awkward names: punctuation, legal forms, accents, near-duplicates), matched by
 * accounting identifier, then cleaned and approximate names; the fake's expired tokens are renewed
 * through the integration tokens, and a refused renewal marks the account INVALID.
 */
jest.setTimeout(180_000);

const world = useGatewayWorld(__filename);
let fake: HubSpotFake;
let config: Config;
let integrationId: number;
const sellerId = 61;

/** The pushes are helper push's (their own journey test): here only the reading and matching. */
const noPushes: CrmPushActivities = {
  pushToCrm: () => Promise.resolve({ pushed: 0, skipped: 0 }),
  purgeCrm: () => Promise.resolve({ removed: 0 }),
  unlinkCrm: () => Promise.resolve({ unlinked: 0 }),
};

beforeAll(async () => {
  fake = await startHubSpotFake();
  fake.setRateLimit(null);
  config = { ...world.config, ...fake.configValues };
});

const runtime = useIntegrationJobRuntime(world, () => config, { push: noPushes, pageSize: 5 });

beforeAll(async () => {
  const { services } = world;
  const owner = await signUp(world, { name: 'hubspot-matching' });
  const tenantId = await companyFor(world, owner, { name: 'HubSpot Matching Co' });
  const tokens = fake.issueTokens();
  const credentialsRef = await runtime.vault().store({
    tenantId,
    kind: 'oauth',
    secret: {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresIn: String(tokens.expiresIn),
      obtainedAt: new Date().toISOString(),
    },
  });
  integrationId = 770_001;
  await world.run(integrationDecider, integrationStream(integrationId), {
    type: 'ConnectIntegration',
    now: new Date(),
    data: {
      integrationId,
      tenantId,
      provider: 'HUBSPOT',
      productIdentifier: null,
      authMethod: 'oauth2',
      credentialsRef,
      credentialsOwner: 'crm@matching.example',
      url: null,
      actor: { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false },
      tenantIsDemo: false,
      planAllowsProvider: true,
    },
  });
  // The ledger's customers, as the accounting platform names them.
  const customers: [number, string, string][] = [
    [1, 'CUST-0001', 'Acme'],
    [2, 'c2', 'Cafe Muller'],
    [4, 'CUST-0004', 'Smith and Sons'],
    [5, 'c5', "O'Reilly Media"],
    [7, 'c7', 'Global Widgets'],
    [10, 'c10', 'Contoso'],
    [11, 'c11', 'Fabrikam'],
    [12, 'c12', 'Sao Paulo Foods'],
    [13, 'c13', 'Nothing Alike Anywhere'],
  ];
  await services.db
    .collection<LedgerCustomer & { _id: string; tenantId: number }>(ledgerCollections.customers)
    .insertMany(
      customers.map(([customerId, providerId, name]) => ({
        _id: ledgerDocId(sellerId, providerId),
        tenantId,
        sellerId,
        providerId,
        customerId,
        name,
        email: null,
        createdAt: new Date('2025-01-01T00:00:00Z'),
        habit: null,
      })),
    );
  await world.settle();
  const settings = await runtime.admin().patch(`/api/integrations/${integrationId}`, {
    Settings: {
      AccountingIdentifier: 'accounting_id',
      MatchUsingNamesCleaned: true,
      MatchUsingNamesApprox: true,
    },
  });
  expect(settings.statusCode).toBe(200);
});

afterAll(async () => {
  await fake?.close();
});

const sync = () => runtime.runJob('sync', integrationId);

describe('a HubSpot sync through the real connector', () => {
  it("links the fixture portal's awkward names to the ledger's customers", async () => {
    const job = await sync();
    expect(job.Failure).toBeNull();
    const response = await runtime
      .admin()
      .get(`/api/integrations/${integrationId}/companies?filter=matched&limit=100`);
    const page = IntegrationCompaniesResponse.parse(response.json());
    const links = page.rows
      .flatMap((row) => row.Links.map((link) => [link.CustomerName, row.Name, link.Method]))
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(links).toEqual([
      ['Acme', 'Acme, Inc.', 'accountingId'],
      ['Cafe Muller', 'Café Müller GmbH', 'cleaned'],
      ['Contoso', 'Contoso Ltd', 'cleaned'],
      ['Fabrikam', 'Fabrikam, LLC', 'cleaned'],
      ['Global Widgets', 'Global Widgets Ltd.', 'cleaned'],
      ["O'Reilly Media", "O'Reilly Media, Inc.", 'cleaned'],
      ['Sao Paulo Foods', 'São Paulo Foods S.A.', 'cleaned'],
      ['Smith and Sons', 'Smith & Sons LLC', 'accountingId'],
    ]);
    // ACME Inc (a second Acme) stays unlinked: its customer is taken by the accounting identifier.
    expect(page.Summary.LinkedCustomers).toBe(8);
    expect(job.Progress?.stage).toBeDefined();
  });

  it('renews an expired token, and a refused renewal marks the credentials INVALID', async () => {
    fake.expireAccessTokens();
    const renewed = await sync();
    expect(renewed.Status).toBe('completed');
    expect(fake.counters().refreshes).toBe(1);

    fake.expireAccessTokens();
    fake.refuseRefresh(true);
    const refused = await sync();
    expect(refused.Status).toBe('failed');
    expect(refused.Failure).toMatch(
      /^HubSpot refused our access to this account \(.+\)\. Reconnect HubSpot on the Platforms page, then sync again\.$/,
    );
    const account = IntegrationResponse.parse(
      (await runtime.admin().get(`/api/integrations/${integrationId}`)).json(),
    );
    expect(account.CredentialsStatus).toBe('INVALID');
  });
});
