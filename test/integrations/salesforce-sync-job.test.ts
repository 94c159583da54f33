import type { Config } from '../../contracts/config';
import { integrationStream } from '../../contracts/stream-ids';
import { integrationDecider } from '../../domain/integration/integration-decider';
import { createCrmServices } from '../../workflows/integrations/crm-services';
import { ledgerCollections } from '../../workflows/ledger/ledger-collections';
import { companyFor, signUp } from '../gateway/fixtures';
import { useGatewayWorld } from '../gateway/gateway-world';
import { ledgerCustomer, useIntegrationJobRuntime } from './integration-job-world';
import { salesforceFixture, startSalesforceFake, type SalesforceFake } from '../fakes/salesforce-fake';

/**
 * A Salesforce account's jobs end to end (ADR 48 with ADR 45 and 46): the worker's integration
 * workflows on the real Temporal server, the production connector factories and push activities,
 * against the local Salesforce org. A sync renews the stale token, links customers by AccountNumber
 * and by name, creates the missing Account once however often it runs; a purge deletes that Account
 * and nothing else.
 */
jest.setTimeout(180_000);

const world = useGatewayWorld(__filename);
let salesforce: SalesforceFake;
let config: Config;
let fixtureNames: string[];

beforeAll(async () => {
  salesforce = await startSalesforceFake();
  salesforce.load('User', salesforceFixture('users.json'));
  salesforce.load('Account', salesforceFixture('accounts.json'));
  salesforce.load('Contact', salesforceFixture('contacts.json'));
  // An Account that carries the customer's accounting id under another name.
  salesforce.load('Account', [
    {
      attributes: { type: 'Account' },
      Id: '001WINGTIP0000000A',
      Name: 'Wingtip Partners',
      AccountNumber: '5',
    },
  ]);
  fixtureNames = salesforce
    .records('Account')
    .map((a) => String(a.Name))
    .sort();
  config = { ...world.config, ...salesforce.configValues };
});

const { admin, runJob, linksOf } = useIntegrationJobRuntime(world, () => config);

afterAll(async () => {
  await salesforce?.close();
});

const accountNamed = (name: string) => salesforce.records('Account').find((a) => a.Name === name);

describe('a Salesforce account synced, synced again and purged', () => {
  let integrationId: number;
  /** The Accounts the first sync made (links by method 'created'). */
  let made: string[] = [];

  beforeAll(async () => {
    const owner = await signUp(world, { name: 'sf-sync-owner' });
    const tenantId = await companyFor(world, owner, { name: 'Salesforce Sync Co' });
    integrationId = 882_001;
    const { vault } = createCrmServices({
      db: world.services.db,
      writeSide: world.services.writeSide,
      config,
      now: () => new Date(),
      factories: {},
      debug: () => undefined,
    });
    const issued = salesforce.issueTokens();
    const credentialsRef = await vault.store({
      tenantId,
      kind: 'oauth',
      secret: {
        accessToken: 'stale-token',
        refreshToken: issued.refreshToken,
        instanceUrl: salesforce.instanceUrl,
        expiresIn: '7200',
        obtainedAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
      },
    });
    await world.run(integrationDecider, integrationStream(integrationId), {
      type: 'ConnectIntegration',
      now: new Date(),
      data: {
        integrationId,
        tenantId,
        provider: 'SALESFORCE',
        productIdentifier: null,
        authMethod: 'oauth2',
        credentialsRef,
        credentialsOwner: 'admin@org.example',
        url: null,
        actor: { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false },
        tenantIsDemo: false,
        planAllowsProvider: true,
      },
    });
    await world.settle();
    await world.services.db
      .collection(ledgerCollections.customers)
      .insertMany([
        ledgerCustomer(tenantId, 51, 1, 'ACME INC', 'C-1001'),
        ledgerCustomer(tenantId, 51, 2, 'Baeckerei Mueller', 'Q-2'),
        ledgerCustomer(tenantId, 51, 3, 'Fabrikam', 'Q-3'),
        ledgerCustomer(tenantId, 51, 4, 'Tailspin Toys', 'Q-4'),
        ledgerCustomer(tenantId, 51, 5, 'Wingtip Partners Group', 'Q-5'),
      ] as never[]);
    const settings = await admin().patch(`/api/integrations/${integrationId}`, {
      Settings: {
        MatchUsingNamesCleaned: true,
        AccountingIdentifier: 'AccountNumber',
        AddMissingCustomers: true,
      },
    });
    expect(settings.statusCode).toBe(200);
  });

  it('links by AccountNumber and by name, and makes each missing Account once over two syncs', async () => {
    const refreshes = salesforce.refreshes();
    const first = await runJob('sync', integrationId);
    expect(first.Failure).toBeNull();
    expect(first.Status).toBe('completed');
    expect(salesforce.refreshes()).toBe(refreshes + 1);
    // The Account made for a customer the org lacks carries its accounting id in AccountNumber.
    const tailspin = accountNamed('Tailspin Toys');
    expect(tailspin?.AccountNumber).toBe('4');
    const links = await linksOf(integrationId);
    expect(links).toHaveLength(5);
    expect(links).toEqual(
      expect.arrayContaining([
        { customerId: '1', crmId: accountNamed('Acme, Inc.')!.Id, method: 'accountingId' },
        { customerId: '3', crmId: accountNamed('Fabrikam')!.Id, method: 'exact' },
        { customerId: '4', crmId: tailspin!.Id, method: 'created' },
        { customerId: '5', crmId: accountNamed('Wingtip Partners')!.Id, method: 'accountingId' },
      ]),
    );
    made = links.filter((link) => link.method === 'created').map((link) => link.crmId);

    const accounts = salesforce.records('Account').length;
    const second = await runJob('sync', integrationId);
    expect(second.Status).toBe('completed');
    expect(salesforce.records('Account')).toHaveLength(accounts);
    expect(salesforce.records('Account').filter((a) => a.Name === 'Tailspin Toys')).toHaveLength(1);
  });

  it('purges the Accounts the integration made, and only those', async () => {
    expect(made.length).toBeGreaterThan(0);
    expect((await admin().patch(`/api/integrations/${integrationId}`, { Active: false })).statusCode).toBe(
      200,
    );
    const job = await runJob('purge', integrationId, { unlink: false });
    expect(job.Failure).toBeNull();
    expect(job.Status).toBe('completed');
    const left = salesforce.records('Account');
    expect(left.filter((a) => made.includes(a.Id))).toEqual([]);
    expect(left.map((a) => a.Name).sort()).toEqual(fixtureNames);
  });
});
