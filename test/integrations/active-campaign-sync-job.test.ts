import { Tenant } from '../../contracts/api/tenants';
import { usersCollection } from '../../projections/users/user-view';
import type { Config } from '../../contracts/config';
import { integrationStream } from '../../contracts/stream-ids';
import { integrationDecider } from '../../domain/integration/integration-decider';
import { createCrmServices } from '../../workflows/integrations/crm-services';
import { ledgerCollections } from '../../workflows/ledger/ledger-collections';
import { companyFor, signUp } from '../gateway/fixtures';
import { useGatewayWorld } from '../gateway/gateway-world';
import { ledgerCustomer, useIntegrationJobRuntime } from './integration-job-world';
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
});

const { admin, runJob, linksOf } = useIntegrationJobRuntime(world, () => config);

afterAll(async () => {
  await activeCampaign?.close();
});

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
        ledgerCustomer(tenantId, 61, 1, 'Acme Inc', 'A-1'),
        ledgerCustomer(tenantId, 61, 2, 'Tailspin Toys', 'A-2'),
      ] as never[]);
    const settings = await admin().patch(`/api/integrations/${integrationId}`, {
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
    const tenant = await admin().get(`/api/tenants/${tenantIdOf}`);
    expect(Tenant.parse(tenant.json()).ActiveCampaignId).toBe('7701');

    const second = await runJob('sync', integrationId);
    expect(second.Status).toBe('completed');
    expect(activeCampaign.records('accounts').filter((a) => a.name === 'Tailspin Toys')).toHaveLength(1);
  });

  it('purges the account the integration made, and only that', async () => {
    expect(made).toHaveLength(1);
    expect((await admin().patch(`/api/integrations/${integrationId}`, { Active: false })).statusCode).toBe(
      200,
    );
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
