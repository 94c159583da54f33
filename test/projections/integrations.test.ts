import { tenantSubject } from '../../commands/personal-data';
import type { IntegrationCommand } from '../../domain/integration/decide';
import { integrationDecider } from '../../domain/integration/integration-decider';
import { integrationsProjection } from '../../projections/integrations/integrations-projection';
import {
  getIntegration,
  listAdminIntegrations,
  listTenantIntegrations,
} from '../../projections/integrations/query-integrations';
import { tenantsProjection } from '../../projections/tenants/tenants-projection';
import { platformAdmin, useReadModelKit } from './read-model-kit';
import { integrationStream } from '../../contracts/stream-ids';

const kit = useReadModelKit(__filename, integrationsProjection, [tenantsProjection]);
const { context } = kit;

const now = new Date('2026-01-10T12:00:00.000Z');

type Data<T extends IntegrationCommand['type']> = Extract<IntegrationCommand, { type: T }>['data'];

const account = <T extends IntegrationCommand['type']>(id: number, type: T, data: Data<T>) =>
  kit.run(integrationDecider, integrationStream(id), { type, data, now } as IntegrationCommand);

const connect = (
  id: number,
  tenantId: number,
  details: Pick<Data<'ConnectIntegration'>, 'provider'> & Partial<Data<'ConnectIntegration'>>,
) =>
  account(id, 'ConnectIntegration', {
    integrationId: id,
    tenantId,
    productIdentifier: null,
    authMethod: 'oauth2',
    credentialsRef: `secrets/integration-${id}`,
    credentialsOwner: `owner${id}@example.com`,
    url: null,
    actor: platformAdmin,
    tenantIsDemo: false,
    planAllowsProvider: true,
    ...details,
  });

const ids = (rows: readonly { Id: number }[]) => rows.map((row) => row.Id);

beforeAll(async () => {
  await kit.tenant(1, 'CreateTenant', { tenantId: 1, name: 'Acme Holdings', classification: 'BUSINESS' });
  await kit.tenant(2, 'CreateTenant', { tenantId: 2, name: 'Globex', classification: 'BUSINESS' });

  // Acme: HubSpot RevOps Pro, synced; a Google account; a Microsoft account since disconnected.
  await connect(21, 1, {
    provider: 'HUBSPOT',
    productIdentifier: 'REVOPS',
    credentialsOwner: 'ops@acme.example',
  });
  await account(21, 'RequestIntegrationSync', { jobId: 801, actor: platformAdmin });
  await account(21, 'CompleteIntegrationSync', {
    jobId: 801,
    syncDate: new Date('2026-01-09T08:00:00.000Z'),
  });
  await connect(22, 1, { provider: 'GOOGLE' });
  await connect(26, 1, { provider: 'MICROSOFT' });
  await account(26, 'DisconnectIntegration', {});

  // Globex: Salesforce switched off, locked and purged; ActiveCampaign whose key stopped working;
  // a HubSpot account deleted.
  await connect(23, 2, { provider: 'SALESFORCE' });
  await account(23, 'SetIntegrationActive', { active: false });
  await account(23, 'SetIntegrationLocked', { locked: true });
  await account(23, 'PurgeIntegration', { jobId: 802, unlink: true });
  await connect(24, 2, {
    provider: 'ACTIVE_CAMPAIGN',
    authMethod: 'api_key',
    url: 'https://globex.api-us1.com',
  });
  await account(24, 'MarkIntegrationCredentialsInvalid', {
    credentialsStatus: 'INVALID',
    reason: 'API key refused',
  });
  await connect(25, 2, { provider: 'HUBSPOT' });
  await account(25, 'SetIntegrationActive', { active: false });
  await account(25, 'DeleteIntegration', {});
  await kit.catchUp();
});

describe('a tenant’s integrations', () => {
  it('lists the tenant’s accounts with provider, product, credentials and sync date', async () => {
    const { integrations, stale } = await listTenantIntegrations(context.db, { tenantId: 1 });

    expect(stale).toBe(false);
    expect(ids(integrations)).toEqual([21, 22, 26]);
    expect(integrations[0]).toMatchObject({
      Provider: 'HUBSPOT',
      ProductIdentifier: 'REVOPS',
      Active: true,
      CredentialsStatus: 'VALID',
      CredentialsOwner: 'ops@acme.example',
      SyncDate: '2026-01-09T08:00:00.000Z',
      Settings: { Locked: false, MatchUsingNames: true, AddMissingCustomers: false },
      Sync: { runningJobId: null, last: { jobId: 801, outcome: 'completed' } },
    });
    expect(integrations[1]?.Settings).toEqual({ Locked: false });
    expect(integrations[2]).toMatchObject({ Active: false, CredentialsStatus: 'REVOKED' });
  });

  it('never lists or gives another tenant’s accounts, nor deleted ones', async () => {
    const globex = await listTenantIntegrations(context.db, { tenantId: 2 });
    expect(ids(globex.integrations)).toEqual([23, 24]);
    expect(await getIntegration(context.db, { integrationId: 21, tenantId: 2 })).toBeNull();
    expect(await getIntegration(context.db, { integrationId: 21, tenantId: 1 })).not.toBeNull();
    expect(await getIntegration(context.db, { integrationId: 25 })).toBeNull();
  });

  it('shows the purge request, the locked state and why credentials failed', async () => {
    expect(await getIntegration(context.db, { integrationId: 23 })).toMatchObject({
      Active: false,
      Settings: { Locked: true },
      Purge: { jobId: 802, unlink: true, requestedAt: now.toISOString() },
    });
    expect(await getIntegration(context.db, { integrationId: 24 })).toMatchObject({
      CredentialsStatus: 'INVALID',
      CredentialsProblem: 'API key refused',
      URL: 'https://globex.api-us1.com',
    });
  });
});

describe('the admin integrations table', () => {
  it('lists every account newest first with its tenant, and counts them', async () => {
    const page = await listAdminIntegrations(context.db);

    expect(ids(page.rows)).toEqual([26, 24, 23, 22, 21]);
    expect([page.total, page.filtered]).toEqual([5, 5]);
    expect(page.rows.find((row) => row.Id === 24)?.Tenant).toEqual({ Id: 2, Name: 'Globex' });
  });

  it('offers on each row exactly the actions its state allows', async () => {
    const { rows } = await listAdminIntegrations(context.db);
    const actions = Object.fromEntries(rows.map((row) => [row.Id, row.Actions]));

    expect(actions).toEqual({
      21: ['sync', 'deactivate', 'disconnect'],
      22: ['sync', 'deactivate', 'lock', 'disconnect'],
      23: ['purge', 'activate', 'unlock', 'disconnect', 'delete'],
      24: [],
      26: ['lock', 'delete'],
    });
  });

  it('filters by provider and by product RevOps or empty', async () => {
    const query = (filters: Parameters<typeof listAdminIntegrations>[1]) =>
      listAdminIntegrations(context.db, filters).then((page) => [ids(page.rows), page.filtered]);

    expect(await query({ providers: ['HUBSPOT'] })).toEqual([[21], 1]);
    expect(await query({ providers: ['GOOGLE', 'MICROSOFT'] })).toEqual([[26, 22], 2]);
    expect(await query({ product: 'REVOPS' })).toEqual([[21], 1]);
    expect(await query({ product: 'none' })).toEqual([[26, 24, 23, 22], 4]);
  });

  it('searches tenant names, credentials owners, account URLs and ids', async () => {
    const search = (text: string) =>
      listAdminIntegrations(context.db, { search: text }).then((p) => ids(p.rows));

    expect(await search('GLOBEX')).toEqual([24, 23]);
    expect(await search('ops@acme')).toEqual([21]);
    expect(await search('api-us1')).toEqual([24]);
    expect(await search('22')).toEqual([22]);
    expect(await search('nothing like it')).toEqual([]);
  });
});

describe('the integrations read model', () => {
  it('follows renewed credentials, new settings, activation and a failed sync', async () => {
    await connect(24, 2, {
      provider: 'ACTIVE_CAMPAIGN',
      authMethod: 'api_key',
      url: 'https://globex2.api-us1.com',
      credentialsOwner: 'it@globex.example',
    });
    await account(24, 'SetIntegrationActive', { active: false });
    await account(24, 'UpdateIntegrationSettings', {
      settings: { SkipSalesData: true },
      actor: platformAdmin,
    });
    await account(23, 'SetIntegrationActive', { active: true });
    await account(23, 'RequestIntegrationSync', { jobId: 803, actor: platformAdmin });
    await account(23, 'FailIntegrationSync', { jobId: 803, reason: 'Salesforce is down' });
    await kit.catchUp();

    const rows = (await listAdminIntegrations(context.db)).rows;
    expect(rows.find((row) => row.Id === 24)).toMatchObject({
      CredentialsStatus: 'VALID',
      CredentialsProblem: null,
      CredentialsOwner: 'it@globex.example',
      URL: 'https://globex2.api-us1.com',
      Settings: { SkipSalesData: true, MatchUsingNames: true, Locked: false },
      Actions: ['purge', 'activate', 'lock', 'disconnect', 'delete'],
    });
    expect(rows.find((row) => row.Id === 23)).toMatchObject({
      Active: true,
      Sync: { runningJobId: null, last: { jobId: 803, outcome: 'failed', failure: 'Salesforce is down' } },
    });
  });

  it('gives identical documents when every event is delivered again, and when rebuilt', async () => {
    await kit.expectStableUnderRedeliveryAndRebuild();
  });

  it('removes a permanently purged tenant’s accounts', async () => {
    await kit.tenant(2, 'DisableTenant', { reason: 'TESTING' });
    await kit.tenant(2, 'PurgeTenant', { permanent: true });
    await context.keys.erase(tenantSubject(2));
    await kit.catchUp();

    expect((await listTenantIntegrations(context.db, { tenantId: 2 })).integrations).toEqual([]);
    expect(ids((await listAdminIntegrations(context.db)).rows)).toEqual([26, 22, 21]);
    const live = await kit.checksums();
    await kit.rebuild();
    expect(await kit.checksums()).toEqual(live);
  });
});
