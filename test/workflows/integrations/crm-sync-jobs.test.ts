import { IntegrationCompaniesResponse, IntegrationResponse } from '../../../contracts/api/integrations';
import type { Config } from '../../../contracts/config';
import type { CrmSettings } from '../../../contracts/events/integration';
import { integrationStream, tenantStream } from '../../../contracts/stream-ids';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import { currentCollection } from '../../../projections/framework/read-model-versions';
import {
  crmCompanyLinksProjection,
  type CrmCompanyLinkDoc,
} from '../../../projections/integrations/crm-company-links-projection';
import { createCrmServices } from '../../../workflows/integrations/crm-services';
import { countMirror } from '../../../workflows/integrations/crm/crm-mirror';
import type { CrmPushActivities, CrmPushJobInput } from '../../../workflows/integrations/crm/job-input';
import { ledgerCollections, ledgerDocId } from '../../../workflows/ledger/ledger-collections';
import { companyFor, signUp } from '../../gateway/fixtures';
import { useGatewayWorld } from '../../gateway/gateway-world';
import { useIntegrationJobRuntime } from '../../integrations/integration-job-world';
import { fakeCrmConnector, startFakeCrm, type FakeCrm } from './crm-fake';

/**
 * Issue 17, helper core: the integration jobs run as Temporal workflows on the real local server,
 * started by the worker's reactor from what the gateway records. A sync renews an expired token,
 * reads the CRM page by page into the mirror, links each seller's customers (accounting identifier,
 * then cleaned names), creates the missing company once however often it runs, hands over to the
 * pushes and records the Sync Date; purge and unlink call the push activities and drop the links; a
 * refused renewal marks the credentials INVALID and fails the job asking for a reconnect; delete
 * removes the mirror.
 */
jest.setTimeout(180_000);

const world = useGatewayWorld(__filename);
let hubspot: FakeCrm;
let salesforce: FakeCrm;
let config: Config;
const pushCalls: { action: keyof CrmPushActivities; input: CrmPushJobInput }[] = [];

/** Stands in for helper push's activities in this test: it records that each was called. */
const testPush: CrmPushActivities = {
  pushToCrm: (input) => {
    pushCalls.push({ action: 'pushToCrm', input });
    return Promise.resolve({ pushed: 0, skipped: 0 });
  },
  purgeCrm: (input) => {
    pushCalls.push({ action: 'purgeCrm', input });
    return Promise.resolve({ removed: 1 });
  },
  unlinkCrm: (input) => {
    pushCalls.push({ action: 'unlinkCrm', input });
    return Promise.resolve({ unlinked: 2 });
  },
};

beforeAll(async () => {
  hubspot = await startFakeCrm();
  salesforce = await startFakeCrm();
  config = {
    ...world.config,
    HUBSPOT_API_URL: hubspot.url,
    OAUTH_HUBSPOT_TOKEN_URL: `${hubspot.url}/oauth/token`,
    OAUTH_SALESFORCE_TOKEN_URL: `${salesforce.url}/oauth/token`,
  };
});

const runtime = useIntegrationJobRuntime(world, () => config, {
  factories: () => ({ HUBSPOT: fakeCrmConnector, SALESFORCE: fakeCrmConnector }),
  push: testPush,
});
const { runJob } = runtime;

afterAll(async () => {
  await hubspot?.close();
  await salesforce?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let nextIntegrationId = 880_000;

/** A CRM account as its OAuth flow connects it: tokens sealed in the vault, issued two hours ago. */
const connectCrm = async (tenantId: number, provider: 'HUBSPOT' | 'SALESFORCE' | 'GOOGLE', crm: FakeCrm) => {
  const integrationId = (nextIntegrationId += 1);
  const vault = createCrmServices({
    db: world.services.db,
    writeSide: world.services.writeSide,
    config: world.config,
    now: () => new Date(),
    factories: {},
    debug: () => undefined,
  }).vault;
  const credentialsRef = await vault.store({
    tenantId,
    kind: 'oauth',
    secret: {
      accessToken: 'access-stale',
      refreshToken: crm.refreshToken,
      expiresIn: '3600',
      obtainedAt: new Date(Date.now() - 2 * 3600_000).toISOString(),
    },
  });
  await world.run(integrationDecider, integrationStream(integrationId), {
    type: 'ConnectIntegration',
    now: new Date(),
    data: {
      integrationId,
      tenantId,
      provider,
      productIdentifier: null,
      authMethod: 'oauth2',
      credentialsRef,
      credentialsOwner: 'owner@example.test',
      url: null,
      actor: { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false },
      tenantIsDemo: false,
      planAllowsProvider: true,
    },
  });
  await world.settle();
  return { integrationId, credentialsRef, vault };
};

const setSettings = async (integrationId: number, settings: Partial<CrmSettings>) => {
  const response = await runtime.admin().patch(`/api/integrations/${integrationId}`, { Settings: settings });
  expect(response.statusCode).toBe(200);
};

const customer = (sellerId: number, customerId: number, name: string, providerId = String(customerId)) => ({
  _id: ledgerDocId(sellerId, providerId),
  sellerId,
  providerId,
  customerId,
  name,
  email: `${name.toLowerCase().replace(/[^a-z]/g, '')}@customer.test`,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  habit: null,
  tenantId: 0,
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
    .map(({ sellerId, customerId, crmId, method }) => ({ sellerId, customerId, crmId, method }))
    .sort((a, b) => a.sellerId - b.sellerId || a.customerId.localeCompare(b.customerId));
};

const account = async (integrationId: number) =>
  IntegrationResponse.parse((await runtime.admin().get(`/api/integrations/${integrationId}`)).json());

describe('a HubSpot account of a tenant with two sellers', () => {
  let tenantId: number;
  let integrationId: number;
  let firstRef: string;

  beforeAll(async () => {
    const owner = await signUp(world, { name: 'crm-owner' });
    tenantId = await companyFor(world, owner, { name: 'CRM Sync Co' });
    const connected = await connectCrm(tenantId, 'HUBSPOT', hubspot);
    integrationId = connected.integrationId;
    firstRef = connected.credentialsRef;
    const rows = [
      customer(41, 1, 'Acme, Inc.'),
      customer(41, 2, 'Globex'),
      customer(41, 3, 'Initech', 'INIT-3'),
      customer(41, 4, 'Umbrella Pharmaceuticals'),
      customer(42, 1, 'Globex'),
    ].map((row) => ({ ...row, tenantId }));
    await world.services.db.collection(ledgerCollections.customers).insertMany(rows as never[]);
    hubspot.owners = [{ crmId: 'o1', email: 'rep@crm.test', name: 'Rep' }];
    hubspot.companies = [
      {
        crmId: 'c-acme',
        name: 'ACME LLC',
        accountingId: null,
        domain: null,
        ownerCrmId: null,
        updatedAt: null,
      },
      {
        crmId: 'c-globex',
        name: 'globex',
        accountingId: null,
        domain: null,
        ownerCrmId: 'o1',
        updatedAt: null,
      },
      {
        crmId: 'c-init',
        name: 'Initrode',
        accountingId: 'INIT-3',
        domain: null,
        ownerCrmId: null,
        updatedAt: null,
      },
      ...Array.from({ length: 60 }, (_, i) => ({
        crmId: `c-filler-${i}`,
        name: `Filler Company ${i}`,
        accountingId: null,
        domain: null,
        ownerCrmId: null,
        updatedAt: null,
      })),
    ];
    hubspot.contacts = [
      {
        crmId: 'p1',
        companyCrmIds: ['c-acme'],
        email: 'a@acme.test',
        firstName: 'A',
        lastName: 'B',
        ownerCrmId: 'o1',
      },
    ];
    await setSettings(integrationId, {
      MatchUsingNamesCleaned: true,
      AccountingIdentifier: 'ledgerwise_id',
      AddMissingCustomers: true,
      UseContactForOwner: true,
    });
  });

  it('syncs: renews the expired token, mirrors the CRM, links every seller, creates the missing company', async () => {
    const job = await runJob('sync', integrationId);
    expect(job.Failure).toBeNull();
    expect(job.Status).toBe('completed');
    expect(job.Result).toMatchObject({ owners: 1, companies: 63, contacts: 1, companiesAdded: 1 });
    expect(job.Progress).not.toBeNull();

    // The stale token was renewed once, under a new vault entry; the old entry is gone.
    expect(hubspot.counts.refreshes).toBe(1);
    const [, ...rest] = await world.services.writeSide.store.readStream(integrationStream(integrationId));
    const renewed = rest.find((event) => event.type === 'IntegrationCredentialsRenewed');
    const newRef = (renewed?.data as { credentialsRef: string }).credentialsRef;
    expect(newRef).not.toBe(firstRef);
    const vault = createCrmServices({
      db: world.services.db,
      writeSide: world.services.writeSide,
      config: world.config,
      now: () => new Date(),
      factories: {},
      debug: () => undefined,
    }).vault;
    expect(await vault.read(firstRef)).toBeNull();
    expect((await vault.read(newRef))?.secret.accessToken).toBe(hubspot.accessToken);

    expect(await linksOf(integrationId)).toEqual([
      { sellerId: 41, customerId: '1', crmId: 'c-acme', method: 'cleaned' },
      { sellerId: 41, customerId: '2', crmId: 'c-globex', method: 'exact' },
      { sellerId: 41, customerId: '3', crmId: 'c-init', method: 'accountingId' },
      { sellerId: 41, customerId: '4', crmId: 'made-1', method: 'created' },
      { sellerId: 42, customerId: '1', crmId: 'c-globex', method: 'exact' },
    ]);
    expect(await countMirror(world.services.db, integrationId)).toEqual({
      companies: 64,
      contacts: 1,
      owners: 1,
    });
    expect(pushCalls.filter((call) => call.action === 'pushToCrm')).toEqual([
      { action: 'pushToCrm', input: { integrationId, tenantId, jobId: job.Id } },
    ]);
    const synced = await account(integrationId);
    expect(synced.SyncDate).not.toBeNull();
    expect(synced.CredentialsStatus).toBe('VALID');
  });

  it('answers the matched companies page with each company’s customers, filters and summary', async () => {
    const page = async (query: string) => {
      const response = await runtime.admin().get(`/api/integrations/${integrationId}/companies${query}`);
      expect(response.statusCode).toBe(200);
      return IntegrationCompaniesResponse.parse(response.json());
    };
    const matched = await page('?filter=matched');
    expect(matched.Summary).toEqual({
      Companies: 64,
      Contacts: 1,
      Owners: 1,
      MatchedCompanies: 4,
      LinkedCustomers: 5,
    });
    expect(matched.filtered).toBe(4);
    // The admin table's Customers column counts the same linked customers.
    const listed = await runtime.admin().get('/api/integrations?scope=all&provider=HUBSPOT');
    const row = listed
      .json<{ rows: { Id: number; CustomerCount?: number | null }[] }>()
      .rows.find((r) => r.Id === integrationId);
    expect(row?.CustomerCount).toBe(5);
    // By name as stored (binary order: the read store has no collation).
    expect(
      matched.rows.map((row) => [row.Name, row.Links.map((l) => [l.SellerId, l.CustomerName, l.Method])]),
    ).toEqual([
      ['ACME LLC', [[41, 'Acme, Inc.', 'cleaned']]],
      ['Initrode', [[41, 'Initech', 'accountingId']]],
      ['Umbrella Pharmaceuticals', [[41, 'Umbrella Pharmaceuticals', 'created']]],
      [
        'globex',
        [
          [41, 'Globex', 'exact'],
          [42, 'Globex', 'exact'],
        ],
      ],
    ]);
    expect((await page('?method=accountingId')).rows.map((row) => row.CrmId)).toEqual(['c-init']);
    const unmatched = await page('?filter=unmatched&search=company%2012&limit=5');
    expect(unmatched.rows.map((row) => [row.Name, row.Links])).toEqual([['Filler Company 12', []]]);
    const second = await page('?filter=unmatched&offset=10&limit=5');
    expect(second.filtered).toBe(60);
    expect(second.rows).toHaveLength(5);
    // The page is a platform admin's: the tenant's own admin does not see it.
    const owner = await signUp(world, { name: 'crm-owner-2' });
    expect((await owner.browser.get(`/api/integrations/${integrationId}/companies`)).statusCode).toBe(403);
  });

  it('recreates a company the CRM deleted, then syncs again without creating anything twice', async () => {
    hubspot.companies = hubspot.companies.filter((company) => company.crmId !== 'c-globex');
    const matchEvents = async () =>
      (await world.services.writeSide.store.readStream(integrationStream(integrationId))).filter(
        (event) => event.type === 'IntegrationCompaniesMatched',
      ).length;
    const second = await runJob('sync', integrationId);
    expect(second.Status).toBe('completed');
    // Globex is gone from the CRM: both sellers' Globex get a company of their own (AddMissingCustomers).
    expect([...hubspot.createdByKey.keys()].sort()).toEqual(['company:41:2', 'company:41:4', 'company:42:1']);
    expect(
      (await linksOf(integrationId)).map(({ customerId, sellerId, method }) => [
        sellerId,
        customerId,
        method,
      ]),
    ).toEqual([
      [41, '1', 'cleaned'],
      [41, '2', 'created'],
      [41, '3', 'accountingId'],
      // The company made last time carries the accounting identifier now.
      [41, '4', 'accountingId'],
      [42, '1', 'created'],
    ]);

    const before = await matchEvents();
    const third = await runJob('sync', integrationId);
    expect(third.Status).toBe('completed');
    expect(hubspot.counts.created).toBe(3);
    expect(hubspot.counts.refreshes).toBe(1);
    expect(third.Result).toMatchObject({ companiesAdded: 0, matched: 5 });
    // The made companies now match by accounting identifier: one change per seller, then none.
    expect((await matchEvents()) - before).toBe(2);
    expect((await countMirror(world.services.db, integrationId)).companies).toBe(65);
    await runJob('sync', integrationId);
    expect((await matchEvents()) - before).toBe(2);
  });

  it('refuses a purge while the account is active, then purges with unlink once it is not', async () => {
    const refused = await runtime.admin().post(`/api/integrations/${integrationId}/purge`, { unlink: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(
      'Only an inactive account with valid credentials can be purged.',
    );
    expect(
      (await runtime.admin().patch(`/api/integrations/${integrationId}`, { Active: false })).statusCode,
    ).toBe(200);
    const job = await runJob('purge', integrationId, { unlink: true });
    expect(job.Status).toBe('completed');
    expect(job.Result).toEqual({ removed: 1, unlinked: 2, linksDropped: 5 });
    expect(pushCalls.slice(-2).map((call) => call.action)).toEqual(['purgeCrm', 'unlinkCrm']);
    expect(await linksOf(integrationId)).toEqual([]);
    const finished = (
      await world.services.writeSide.store.readStream(integrationStream(integrationId))
    ).filter((event) => event.type === 'IntegrationJobFinished');
    expect(finished.map((event) => event.data)).toEqual([
      expect.objectContaining({ jobId: job.Id, action: 'purge', outcome: 'completed' }),
    ]);
  });

  it('deletes the account, and the clean-up removes its mirror', async () => {
    const response = await runtime.admin().delete(`/api/integrations/${integrationId}`);
    expect(response.statusCode).toBe(200);
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const counts = await countMirror(world.services.db, integrationId);
      if (counts.companies === 0 && counts.contacts === 0 && counts.owners === 0) return;
      await sleep(200);
    }
    throw new Error('the mirror of the deleted account is still there');
  });
});

describe('a Salesforce account whose renewal is refused', () => {
  it('keeps the instance URL of the token answer, marks INVALID until a reconnect; a tenant purge drops the mirror', async () => {
    const owner = await signUp(world, { name: 'crm-refused' });
    const tenantId = await companyFor(world, owner, { name: 'Refused Co' });
    // Salesforce answers its instance with the token: the connector calls it, not a configured URL.
    salesforce.instanceUrl = salesforce.url;
    salesforce.companies = [
      {
        crmId: 'a1',
        name: 'Refused Account',
        accountingId: null,
        domain: null,
        ownerCrmId: null,
        updatedAt: null,
      },
    ];
    const { integrationId, vault } = await connectCrm(tenantId, 'SALESFORCE', salesforce);
    const first = await runJob('sync', integrationId);
    expect(first.Status).toBe('completed');
    expect(salesforce.counts.pages).toBeGreaterThan(0);

    // The token stops working and the refresh is refused.
    salesforce.accessToken = 'revoked-elsewhere';
    salesforce.refuseRefresh = true;
    const failed = await runJob('sync', integrationId);
    expect(failed.Status).toBe('failed');
    expect(failed.Failure).toBe(
      'Salesforce refused our access to this account (invalid_grant). Reconnect Salesforce on the Platforms page, then sync again.',
    );
    const refused = await account(integrationId);
    expect(refused.CredentialsStatus).toBe('INVALID');
    expect(refused.CredentialsProblem).toBe('Salesforce refused our credentials (invalid_grant).');
    expect(refused.Sync?.last).toMatchObject({ outcome: 'failed' });
    // And the decider keeps refusing syncs until a reconnect.
    const again = await runtime.admin().post(`/api/integrations/${integrationId}/sync`);
    expect(again.statusCode).toBe(409);

    // Reconnecting (a new authorisation) makes the credentials valid again, and the next sync uses them.
    salesforce.refuseRefresh = false;
    const reconnectedRef = await vault.store({
      tenantId,
      kind: 'oauth',
      secret: {
        accessToken: salesforce.accessToken,
        refreshToken: salesforce.refreshToken,
        expiresIn: '3600',
        obtainedAt: new Date().toISOString(),
        // As the connect callback keeps it from Salesforce's token answer.
        instanceUrl: salesforce.url,
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
        credentialsRef: reconnectedRef,
        credentialsOwner: 'owner@example.test',
        url: null,
        actor: { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false },
        tenantIsDemo: false,
        planAllowsProvider: true,
      },
    });
    const refreshesBefore = salesforce.counts.refreshes;
    const after = await runJob('sync', integrationId);
    expect(after.Status).toBe('completed');
    expect(salesforce.counts.refreshes).toBe(refreshesBefore);
    expect((await account(integrationId)).CredentialsStatus).toBe('VALID');

    // A purged tenant's mirror goes with it: it holds its customers' names and emails.
    expect((await countMirror(world.services.db, integrationId)).companies).toBeGreaterThan(0);
    const actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };
    await world.run(tenantDecider, tenantStream(tenantId), {
      type: 'DisableTenant',
      data: { reason: null },
      now: new Date(),
      actor,
    });
    await world.run(tenantDecider, tenantStream(tenantId), {
      type: 'PurgeTenant',
      data: { permanent: true },
      now: new Date(),
      actor,
    });
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if ((await countMirror(world.services.db, integrationId)).companies === 0) return;
      await sleep(200);
    }
    throw new Error('the purged tenant’s mirror is still there');
  });
});

describe('a Google (cloud) account', () => {
  it('syncs without any CRM to read: the job completes and records the Sync Date', async () => {
    const owner = await signUp(world, { name: 'cloud-owner' });
    const tenantId = await companyFor(world, owner, { name: 'Cloud Co' });
    const { integrationId } = await connectCrm(tenantId, 'GOOGLE', hubspot);
    const pages = hubspot.counts.pages;
    const job = await runJob('sync', integrationId);
    expect(job.Status).toBe('completed');
    expect(job.Result).toEqual({});
    expect(hubspot.counts.pages).toBe(pages);
    expect((await account(integrationId)).SyncDate).not.toBeNull();
    expect(await countMirror(world.services.db, integrationId)).toEqual({
      companies: 0,
      contacts: 0,
      owners: 0,
    });
  });
});
