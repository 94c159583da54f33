import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import pino from 'pino';
import { IntegrationCompaniesResponse, IntegrationResponse } from '../../../contracts/api/integrations';
import { Job } from '../../../contracts/api/jobs';
import type { LedgerCustomer } from '../../../contracts/ledger';
import { integrationStream } from '../../../contracts/stream-ids';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import { createCrmServices, crmConnectorFactories } from '../../../workflows/integrations/crm-services';
import { startIntegrationJobReactor } from '../../../workflows/integrations/crm/integration-job-reactor';
import type { CrmPushActivities } from '../../../workflows/integrations/crm/job-input';
import { createIntegrationsWorker } from '../../../workflows/integrations/worker';
import { ledgerCollections, ledgerDocId } from '../../../workflows/ledger/ledger-collections';
import { startHubSpotFake, type HubSpotFake } from '../../fakes/hubspot-fake';
import { companyFor, platformAdmin, signUp } from '../../gateway/fixtures';
import { useGatewayWorld, type Browser } from '../../gateway/gateway-world';

/**
 * Issue 17, helper core: a HubSpot sync through the real HubSpot connector and the local HubSpot fake's
 * fixture portal (awkward names: punctuation, legal forms, accents, near-duplicates), matched by
 * accounting identifier, then cleaned and approximate names; the fake's expired tokens are renewed
 * through the integration tokens, and a refused renewal marks the account INVALID.
 */
jest.setTimeout(180_000);

const world = useGatewayWorld(__filename);
let fake: HubSpotFake;
let nativeConnection: NativeConnection;
let connection: Connection;
let worker: Worker;
let running: Promise<unknown>;
let reactor: { stop: () => Promise<void> };
let admin: Browser;
let integrationId: number;
const sellerId = 61;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pushes are helper push's (their own journey test): here only the reading and matching. */
const noPushes: CrmPushActivities = {
  pushToCrm: () => Promise.resolve({ pushed: 0, skipped: 0 }),
  purgeCrm: () => Promise.resolve({ removed: 0 }),
  unlinkCrm: () => Promise.resolve({ unlinked: 0 }),
};

beforeAll(async () => {
  fake = await startHubSpotFake();
  fake.setRateLimit(null);
  const config = { ...world.config, ...fake.configValues };
  const { services } = world;
  const now = () => new Date();
  const crm = createCrmServices({
    db: services.db,
    writeSide: services.writeSide,
    config,
    now,
    factories: crmConnectorFactories(config),
    debug: () => undefined,
  });
  nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  worker = await createIntegrationsWorker({
    connection: nativeConnection,
    config,
    deps: {
      db: services.db,
      writeSide: services.writeSide,
      vault: crm.vault,
      now,
      connectors: crm.connectors,
    },
    push: noPushes,
  });
  running = worker.run();
  reactor = startIntegrationJobReactor({
    writeSide: services.writeSide,
    db: services.db,
    client,
    config,
    logger: pino({ level: 'silent' }),
    pageSize: 5,
  });
  admin = (await platformAdmin(world)).browser;

  const owner = await signUp(world, { name: 'hubspot-matching' });
  const tenantId = await companyFor(world, owner, { name: 'HubSpot Matching Co' });
  const tokens = fake.issueTokens();
  const credentialsRef = await crm.vault.store({
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
  const settings = await admin.patch(`/api/integrations/${integrationId}`, {
    Settings: {
      AccountingIdentifier: 'accounting_id',
      MatchUsingNamesCleaned: true,
      MatchUsingNamesApprox: true,
    },
  });
  expect(settings.statusCode).toBe(200);
});

afterAll(async () => {
  await reactor?.stop();
  worker?.shutdown();
  await running;
  await connection?.close();
  await nativeConnection?.close();
  await fake?.close();
});

const sync = async () => {
  const response = await admin.post(`/api/integrations/${integrationId}/sync`);
  expect(response.statusCode).toBe(200);
  const { jobId } = response.json<{ jobId: number }>();
  for (let attempt = 0; attempt < 600; attempt += 1) {
    await world.settle();
    const job = Job.parse((await admin.get(`/api/jobs/${jobId}`)).json());
    if (job.Status !== 'created' && job.Status !== 'running') return job;
    await sleep(200);
  }
  throw new Error('the sync never finished');
};

describe('a HubSpot sync through the real connector', () => {
  it("links the fixture portal's awkward names to the ledger's customers", async () => {
    const job = await sync();
    expect(job.Failure).toBeNull();
    const response = await admin.get(`/api/integrations/${integrationId}/companies?filter=matched&limit=100`);
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
    const account = IntegrationResponse.parse((await admin.get(`/api/integrations/${integrationId}`)).json());
    expect(account.CredentialsStatus).toBe('INVALID');
  });
});
