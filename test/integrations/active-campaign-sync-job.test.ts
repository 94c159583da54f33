import { Tenant } from '../../contracts/api/tenants';
import { usersCollection } from '../../projections/users/user-view';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import pino from 'pino';
import { Job } from '../../contracts/api/jobs';
import type { Config } from '../../contracts/config';
import { integrationStream } from '../../contracts/stream-ids';
import { integrationDecider } from '../../domain/integration/integration-decider';
import { currentCollection } from '../../projections/framework/read-model-versions';
import {
  crmCompanyLinksProjection,
  type CrmCompanyLinkDoc,
} from '../../projections/integrations/crm-company-links-projection';
import { createCrmServices, crmConnectorFactories } from '../../workflows/integrations/crm-services';
import { startIntegrationJobReactor } from '../../workflows/integrations/crm/integration-job-reactor';
import { createCrmPushActivities } from '../../workflows/integrations/crm/push/push-activities';
import { createIntegrationsWorker } from '../../workflows/integrations/worker';
import { ledgerCollections, ledgerDocId } from '../../workflows/ledger/ledger-collections';
import { companyFor, platformAdmin, signUp } from '../gateway/fixtures';
import { useGatewayWorld, type Browser } from '../gateway/gateway-world';
import {
  activeCampaignFixture,
  startActiveCampaignFake,
  type ActiveCampaignFake,
} from '../fakes/active-campaign-fake';

/**
 * An ActiveCampaign account's jobs end to end (ADR 48 with ADR 45 and 46): the worker's integration
 * workflows on the real Temporal server, the production connector factories and push activities,
 * against the local ActiveCampaign account. A sync links customers to accounts by name and creates a
 * missing account once however often it runs; a purge deletes that account and nothing else.
 */
jest.setTimeout(180_000);

const world = useGatewayWorld(__filename);
let activeCampaign: ActiveCampaignFake;
let nativeConnection: NativeConnection;
let connection: Connection;
let worker: Worker;
let running: Promise<unknown>;
let reactor: { stop: () => Promise<void> };
let admin: Browser;
let config: Config;
let fixtureNames: string[];

beforeAll(async () => {
  activeCampaign = await startActiveCampaignFake();
  activeCampaign.apiKeys.add('ac-sync-key');
  activeCampaign.load(activeCampaignFixture('account.json'));
  fixtureNames = activeCampaign
    .records('accounts')
    .map((a) => String(a.name))
    .sort();
  config = { ...world.config, ACTIVE_CAMPAIGN_API_URL: activeCampaign.url };
  const { services } = world;
  const crm = createCrmServices({
    db: services.db,
    writeSide: services.writeSide,
    config,
    now: () => new Date(),
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
      now: () => new Date(),
      connectors: crm.connectors,
    },
    push: createCrmPushActivities({
      db: services.db,
      writeSide: services.writeSide,
      now: () => new Date(),
      connectorFor: crm.connectors.connectorFor,
      companyOwners: crm.companyOwners,
    }),
  });
  running = worker.run();
  reactor = startIntegrationJobReactor({
    writeSide: services.writeSide,
    db: services.db,
    client,
    config,
    logger: pino({ level: 'silent' }),
    pageSize: 25,
  });
  admin = (await platformAdmin(world)).browser;
});

afterAll(async () => {
  await reactor?.stop();
  worker?.shutdown();
  await running;
  await connection?.close();
  await nativeConnection?.close();
  await activeCampaign?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const runJob = async (action: 'sync' | 'purge', integrationId: number, body?: unknown) => {
  const response = await admin.post(`/api/integrations/${integrationId}/${action}`, body);
  expect(response.statusCode).toBe(200);
  const { jobId } = response.json<{ jobId: number }>();
  for (let attempt = 0; attempt < 600; attempt += 1) {
    await world.settle();
    const job = Job.parse((await admin.get(`/api/jobs/${jobId}`)).json());
    if (job.Status !== 'created' && job.Status !== 'running') return job;
    await sleep(200);
  }
  throw new Error(`the ${action} job never finished`);
};

const customer = (
  tenantId: number,
  sellerId: number,
  customerId: number,
  name: string,
  providerId: string,
) => ({
  _id: ledgerDocId(sellerId, providerId),
  sellerId,
  providerId,
  customerId,
  name,
  email: null,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  habit: null,
  tenantId,
  epoch: 1,
  hash: 'h',
  changedAt: new Date(),
});

const linksOf = async (integrationId: number) => {
  await world.settle();
  const links = await currentCollection<'links', CrmCompanyLinkDoc>(
    world.services.db,
    crmCompanyLinksProjection,
    'links',
  );
  return (await links.find({ integrationId }).toArray())
    .map(({ customerId, crmId, method }) => ({ customerId, crmId, method }))
    .sort((a, b) => a.customerId.localeCompare(b.customerId));
};

const accountNamed = (name: string) => activeCampaign.records('accounts').find((a) => a.name === name);

describe('an ActiveCampaign account synced, synced again and purged', () => {
  let integrationId: number;
  /** The accounts the first sync made (links by method 'created'). */
  let made: string[] = [];
  let ownerId = 0;
  let tenantIdOf = 0;

  beforeAll(async () => {
    const owner = await signUp(world, { name: 'ac-sync-owner' });
    ownerId = owner.session.user.Id;
    // The company's owner is a contact of the ActiveCampaign account (its marketing list).
    activeCampaign.load({
      contacts: [{ id: '9901', email: owner.email.toUpperCase(), firstName: 'Owner', lastName: 'Sync' }],
      // The company itself is an account there, spelled its own way.
      accounts: [{ id: '7701', name: 'ActiveCampaign Sync Co.', accountUrl: null }],
    });
    const tenantId = await companyFor(world, owner, { name: 'ActiveCampaign Sync Co' });
    tenantIdOf = tenantId;
    integrationId = 883_001;
    const { vault } = createCrmServices({
      db: world.services.db,
      writeSide: world.services.writeSide,
      config,
      now: () => new Date(),
      factories: {},
      debug: () => undefined,
    });
    const credentialsRef = await vault.store({
      tenantId,
      kind: 'active_campaign',
      secret: { apiKey: 'ac-sync-key' },
    });
    await world.run(integrationDecider, integrationStream(integrationId), {
      type: 'ConnectIntegration',
      now: new Date(),
      data: {
        integrationId,
        tenantId,
        provider: 'ACTIVE_CAMPAIGN',
        productIdentifier: null,
        authMethod: 'api_key',
        credentialsRef,
        credentialsOwner: null,
        url: 'https://acme.api-us1.com',
        actor: { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false },
        tenantIsDemo: false,
        planAllowsProvider: true,
      },
    });
    await world.settle();
    await world.services.db
      .collection(ledgerCollections.customers)
      .insertMany([
        customer(tenantId, 61, 1, 'Acme Inc', 'A-1'),
        customer(tenantId, 61, 2, 'Tailspin Toys', 'A-2'),
      ] as never[]);
    const settings = await admin.patch(`/api/integrations/${integrationId}`, {
      Settings: { MatchUsingNamesCleaned: true, AddMissingCustomers: true },
    });
    expect(settings.statusCode).toBe(200);
  });

  it('links by name and makes the missing account once over two syncs', async () => {
    const first = await runJob('sync', integrationId);
    expect(first.Failure).toBeNull();
    expect(first.Status).toBe('completed');
    const tailspin = accountNamed('Tailspin Toys');
    expect(tailspin).toBeDefined();
    const links = await linksOf(integrationId);
    expect(links).toEqual([
      { customerId: '1', crmId: accountNamed('Acme, Inc.')!.id, method: 'cleaned' },
      { customerId: '2', crmId: tailspin!.id, method: 'created' },
    ]);
    made = links.filter((link) => link.method === 'created').map((link) => String(link.crmId));

    // The owner, found among the contacts by email, now links to that contact.
    await world.settle();
    const user = await (await usersCollection(world.services.db)).findOne({ _id: ownerId });
    expect(user?.ActiveCampaignId).toBe('9901');
    const tenant = await admin.get(`/api/tenants/${tenantIdOf}`);
    expect(Tenant.parse(tenant.json()).ActiveCampaignId).toBe('7701');

    const second = await runJob('sync', integrationId);
    expect(second.Status).toBe('completed');
    expect(activeCampaign.records('accounts').filter((a) => a.name === 'Tailspin Toys')).toHaveLength(1);
  });

  it('purges the account the integration made, and only that', async () => {
    expect(made).toHaveLength(1);
    expect((await admin.patch(`/api/integrations/${integrationId}`, { Active: false })).statusCode).toBe(200);
    const job = await runJob('purge', integrationId, { unlink: false });
    expect(job.Failure).toBeNull();
    expect(job.Status).toBe('completed');
    expect(
      activeCampaign
        .records('accounts')
        .map((a) => String(a.name))
        .sort(),
    ).toEqual([...fixtureNames, 'ActiveCampaign Sync Co.'].sort());
  });
});
