import { tenantSubject } from '../../commands/personal-data';
import type { SellerCommand } from '../../domain/seller/decide';
import { sellerDecider } from '../../domain/seller/seller-decider';
import {
  countActiveSellersByTenant,
  getSeller,
  listAdminSellers,
  listTenantSellers,
} from '../../projections/sellers/query-sellers';
import { sellersProjection } from '../../projections/sellers/sellers-projection';
import { platformAdmin, useReadModelKit } from './read-model-kit';
import { sellerStream } from '../../contracts/stream-ids';

const kit = useReadModelKit(__filename, sellersProjection);
const { context } = kit;

/** The moment the tables are looked at; every date below is relative to it. */
const now = new Date('2026-01-10T12:00:00.000Z');
const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

type Data<T extends SellerCommand['type']> = Extract<SellerCommand, { type: T }>['data'];

const seller = <T extends SellerCommand['type']>(
  id: number,
  type: T,
  data: Data<T>,
  at = ago(24 * 60 * 30),
) => kit.run(sellerDecider, sellerStream(id), { type, data, now: at } as SellerCommand);

const connect = (
  id: number,
  tenantId: number,
  details: Pick<Data<'ConnectSeller'>, 'provider' | 'companyName'> & Partial<Data<'ConnectSeller'>>,
) =>
  seller(id, 'ConnectSeller', {
    sellerId: id,
    tenantId,
    url: null,
    authMethod: details.provider === 'QBD' ? 'web_connector' : 'oauth2',
    authTokenOwner: `owner${id}@example.com`,
    credentialsRef: `secrets/seller-${id}`,
    companyFilePath: null,
    actor: platformAdmin,
    tenantIsDemo: false,
    tenantHasConnectedSeller: false,
    planAllowsProvider: true,
    ...details,
  });

/** A full first sync: requested, started, completed with data up to `collectedAt`. */
const populate = async (id: number, syncId: number, collectedAt: Date) => {
  await seller(id, 'RequestSellerSync', { syncId, mode: 'populate' });
  await seller(id, 'StartSellerSync', { syncId });
  await seller(id, 'CompleteSellerSync', { syncId, collectionDate: collectedAt });
};

const ids = (rows: readonly { Id: number }[]) => rows.map((row) => row.Id);

beforeAll(async () => {
  await kit.tenant(1, 'CreateTenant', {
    tenantId: 1,
    name: 'Acme Holdings',
    classification: 'BUSINESS',
    partnerId: 50,
  });
  await kit.tenant(2, 'CreateTenant', { tenantId: 2, name: 'Globex', classification: 'BUSINESS' });
  await kit.tenant(3, 'CreateTenant', {
    tenantId: 3,
    name: 'Initech',
    classification: 'BUSINESS',
    partnerId: 60,
  });

  // Tenant 1: a synced QBO company with fresh metrics, a QBD company never installed, a deleted Xero.
  await connect(11, 1, {
    provider: 'QBO',
    companyName: 'Acme Ltd',
    url: 'acme.example',
    authTokenOwner: 'jane@acme.example',
  });
  await populate(11, 901, ago(30));
  await seller(11, 'RecordSellerMetricsDate', { metricsDate: ago(10) });
  await connect(12, 1, { provider: 'QBD', companyName: null, companyFilePath: 'C:\\Books\\acme.qbw' });
  await connect(13, 1, { provider: 'XERO', companyName: 'Acme Old Books' });
  await seller(13, 'SetSellerActive', { active: false });
  await seller(13, 'DeleteSeller', {});

  // Tenant 2: a Xero company synced two hours ago whose authorisation was revoked; an inactive Sage
  // company with forecasting on and an exclusion list.
  await connect(14, 2, { provider: 'XERO', companyName: 'Globex Trading' });
  await populate(14, 902, ago(120));
  await seller(14, 'RevokeSellerAuthToken', {});
  await connect(16, 2, { provider: 'SAGE', authMethod: 'password', companyName: 'Globex Services' });
  await seller(16, 'SetSellerForecasting', { enabled: true });
  await seller(16, 'SetSellerFeatureFlag', { flag: 'exclusions.CustomerIds', value: ['7', 3, 7] });
  await seller(16, 'SetSellerActive', { active: false });

  // Tenant 3: a QBD company whose Web Connector last ran 12 days ago, and one sync still running.
  await connect(15, 3, { provider: 'QBD', companyName: 'Initech Desktop' });
  await seller(15, 'RecordSellerCollectionDate', { collectionDate: ago(12 * 24 * 60) });
  await seller(15, 'RecordSellerMetricsDate', { metricsDate: ago(12 * 24 * 60) });
  await seller(15, 'RequestSellerSync', { syncId: 903, mode: 'repopulate' });
  await kit.catchUp();
});

describe('a tenant’s sellers (connected platforms)', () => {
  it('lists the tenant’s sellers without deleted ones, each with its status text', async () => {
    const { sellers, progress, stale } = await listTenantSellers(context.db, { tenantId: 1, now });

    expect(stale).toBe(false);
    expect(ids(sellers)).toEqual([11, 12]);
    expect(sellers.map((s) => s.Status.text)).toEqual(['Last sync on 2026-01-10', 'Pending installation...']);
    // One company is still waiting for its first sync, so the dashboard is not done syncing.
    expect(progress).toBe('syncing');
  });

  it('shows revoked authorisation before the last sync, and the QBD warning after 10 days', async () => {
    const globex = (await listTenantSellers(context.db, { tenantId: 2, now })).sellers;
    expect(globex.find((s) => s.Id === 14)?.Status.text).toBe('Authentication Revoked');

    const [initech] = (await listTenantSellers(context.db, { tenantId: 3, now })).sellers;
    expect(initech).toMatchObject({ Id: 15, QbdSyncWarning: true, Status: { kind: 'synced' } });
    const acme = (await listTenantSellers(context.db, { tenantId: 1, now })).sellers;
    expect(acme.map((s) => s.QbdSyncWarning)).toEqual([false, false]);
  });

  it('filters by Active', async () => {
    const active = await listTenantSellers(context.db, { tenantId: 2, active: true, now });
    const inactive = await listTenantSellers(context.db, { tenantId: 2, active: false, now });

    expect(ids(active.sellers)).toEqual([14]);
    expect(ids(inactive.sellers)).toEqual([16]);
  });

  it('gives one seller with every field the events carry', async () => {
    const view = await getSeller(context.db, { sellerId: 11, now });

    expect(view).toMatchObject({
      Id: 11,
      TenantId: 1,
      CompanyName: 'Acme Ltd',
      URL: 'acme.example',
      Provider: 'QBO',
      Active: true,
      AuthMethod: 'oauth2',
      AuthToken: {
        Owner: 'jane@acme.example',
        Status: 'ACTIVE',
        RefreshedAt: ago(24 * 60 * 30).toISOString(),
      },
      CollectionDate: ago(30).toISOString(),
      MetricsDate: ago(10).toISOString(),
      Forecasting: false,
      Sync: { running: null, last: { syncId: 901, outcome: 'completed', failure: null } },
      createdAt: ago(24 * 60 * 30).toISOString(),
      deleted: false,
      disconnected: false,
      Progress: 'completed',
      CollectionRecency: 'recent',
      MetricsRecency: 'recent',
      SyncActions: ['sync', 'repopulate'],
      Deletable: false,
    });
    expect(view?.FeatureFlags).toContainEqual({
      Id: '11:crm.PushSalesRep',
      Flag: 'crm.PushSalesRep',
      Value: false,
    });
  });

  it('shows feature flags as set, the forecasting toggle, and a running sync', async () => {
    const sage = await getSeller(context.db, { sellerId: 16, now });
    expect(sage?.Forecasting).toBe(true);
    expect(sage?.FeatureFlags.find((f) => f.Flag === 'exclusions.CustomerIds')?.Value).toEqual([7, 3]);
    expect(sage).toMatchObject({ Active: false, Deletable: true, SyncActions: ['populate'] });

    const qbd = await getSeller(context.db, { sellerId: 15, now });
    expect(qbd?.Sync.running).toMatchObject({ syncId: 903, mode: 'repopulate', startedAt: null });
    expect(qbd?.SyncActions).toEqual(['repopulate']);
  });

  it('never gives a seller of another tenant, nor a deleted one', async () => {
    expect(await getSeller(context.db, { sellerId: 11, tenantId: 2, now })).toBeNull();
    expect(await getSeller(context.db, { sellerId: 11, tenantId: 1, now })).not.toBeNull();
    expect(await getSeller(context.db, { sellerId: 13, now })).toBeNull();
    const everyTenant = await Promise.all(
      [1, 2, 3].map(async (tenantId) => ({
        tenantId,
        owners: (await listTenantSellers(context.db, { tenantId, now })).sellers.map((s) => s.TenantId),
      })),
    );
    for (const { tenantId, owners } of everyTenant) expect(new Set(owners)).toEqual(new Set([tenantId]));
  });
});

describe('the admin sellers table', () => {
  it('counts every seller and those matching: Total and Filtered', async () => {
    const all = await listAdminSellers(context.db, { now });
    const qbd = await listAdminSellers(context.db, { now, providers: ['QBD'] });

    expect(ids(all.rows)).toEqual([11, 12, 14, 15, 16]);
    expect([all.total, all.filtered]).toEqual([5, 5]);
    expect(ids(qbd.rows)).toEqual([12, 15]);
    expect([qbd.total, qbd.filtered]).toEqual([5, 2]);
  });

  it('filters by recent and stale collection and metrics dates', async () => {
    const query = (filters: Parameters<typeof listAdminSellers>[1]) =>
      listAdminSellers(context.db, filters).then((page) => ids(page.rows));

    expect(await query({ now, collection: 'recent' })).toEqual([11]);
    expect(await query({ now, collection: 'stale' })).toEqual([12, 14, 15, 16]);
    expect(await query({ now, metrics: 'recent' })).toEqual([11]);
    expect(await query({ now, metrics: 'stale', collection: 'stale' })).toEqual([12, 14, 15, 16]);
    // Exactly 60 minutes old is stale; a minute later the 30-minute-old sync is still recent.
    expect(await query({ now: new Date(ago(30).getTime() + 60 * 60_000), collection: 'recent' })).toEqual([]);
    expect(await query({ now: new Date(ago(30).getTime() + 59 * 60_000), collection: 'recent' })).toEqual([
      11,
    ]);
  });

  it('filters by provider, Active and partner, and follows a tenant moving to another partner', async () => {
    expect(ids((await listAdminSellers(context.db, { now, providers: ['XERO', 'SAGE'] })).rows)).toEqual([
      14, 16,
    ]);
    expect(ids((await listAdminSellers(context.db, { now, active: true })).rows)).toEqual([11, 12, 14, 15]);
    expect(ids((await listAdminSellers(context.db, { now, partnerIds: [50] })).rows)).toEqual([11, 12]);

    await kit.tenant(3, 'ChangeTenantPartner', { partnerId: 50 });
    await kit.catchUp();

    const page = await listAdminSellers(context.db, { now, partnerIds: [50] });
    expect(ids(page.rows)).toEqual([11, 12, 15]);
    expect(page.rows.find((row) => row.Id === 15)?.Tenant).toEqual({ Id: 3, Name: 'Initech', PartnerId: 50 });
    expect(ids((await listAdminSellers(context.db, { now, partnerIds: [60] })).rows)).toEqual([]);
  });

  it('searches company names, URLs, tenant names and ids, case-insensitively', async () => {
    const search = (text: string) =>
      listAdminSellers(context.db, { now, search: text }).then((p) => ids(p.rows));

    expect(await search('globex')).toEqual([14, 16]);
    expect(await search('ACME.EXAMPLE')).toEqual([11]);
    // The QBD company has no name yet; its tenant's name finds it.
    expect(await search('holdings')).toEqual([11, 12]);
    expect(await search('15')).toEqual([15]);
    expect(await search('3')).toEqual([15]); // tenant id 3
    expect(await search('(')).toEqual([]); // typed text is never a regular expression
  });

  it('sorts by a column either way and pages through the result', async () => {
    const byName = await listAdminSellers(context.db, {
      now,
      sort: { field: 'CompanyName', direction: 'desc' },
    });
    expect(byName.rows.map((r) => r.CompanyName)).toEqual([
      'Initech Desktop',
      'Globex Trading',
      'Globex Services',
      'Acme Ltd',
      null,
    ]);
    const byCollection = await listAdminSellers(context.db, {
      now,
      sort: { field: 'CollectionDate', direction: 'asc' },
      offset: 2,
      limit: 2,
    });
    expect(ids(byCollection.rows)).toEqual([15, 14]);
    expect([byCollection.total, byCollection.filtered]).toEqual([5, 5]);
  });

  it('counts active sellers per tenant', async () => {
    const counts = await countActiveSellersByTenant(context.db);
    expect(Object.fromEntries(counts)).toEqual({ 1: 2, 2: 1, 3: 1 });
    expect(Object.fromEntries(await countActiveSellersByTenant(context.db, [2]))).toEqual({ 2: 1 });
  });
});

describe('the sellers read model', () => {
  it('reflects reconnection, disconnection and new company details', async () => {
    const reconnect = (id: number, tenantId: number, details: Partial<Data<'ConnectSeller'>>) =>
      seller(id, 'ConnectSeller', {
        sellerId: id,
        tenantId,
        provider: 'XERO',
        companyName: null,
        url: null,
        authMethod: 'oauth2',
        authTokenOwner: `new.owner${id}@example.com`,
        credentialsRef: `secrets/seller-${id}-renewed`,
        companyFilePath: null,
        actor: platformAdmin,
        tenantIsDemo: false,
        tenantHasConnectedSeller: true,
        planAllowsProvider: true,
        ...details,
      });
    await reconnect(14, 2, { companyName: 'Globex Trading Co', url: 'globex.example' });
    await seller(12, 'RecordSellerCompanyDetails', { companyName: 'Acme Desktop', url: null });
    // A QBD reconnection names no company: the one the Web Connector reported stays.
    await reconnect(12, 1, {
      provider: 'QBD',
      authMethod: 'web_connector',
      companyFilePath: 'C:\\Books\\acme-2026.qbw',
    });
    await seller(16, 'DisconnectSeller', {});
    await kit.catchUp();

    expect(await getSeller(context.db, { sellerId: 14, now })).toMatchObject({
      CompanyName: 'Globex Trading Co',
      URL: 'globex.example',
      AuthToken: { Owner: 'new.owner14@example.com', Status: 'ACTIVE' },
      Status: { kind: 'synced' },
    });
    expect(await getSeller(context.db, { sellerId: 12, now })).toMatchObject({
      CompanyName: 'Acme Desktop',
      CompanyFilePath: 'C:\\Books\\acme-2026.qbw',
      AuthToken: { Owner: 'new.owner12@example.com' },
    });
    expect(await getSeller(context.db, { sellerId: 16, now })).toMatchObject({
      disconnected: true,
      Active: false,
    });
  });

  it('gives identical documents when every event is delivered again, and when rebuilt', async () => {
    await kit.expectStableUnderRedeliveryAndRebuild();
  });

  it('removes a permanently purged tenant’s sellers, as a rebuild after the erasure would', async () => {
    await kit.tenant(2, 'DisableTenant', { reason: 'TESTING' });
    await kit.tenant(2, 'PurgeTenant', { permanent: true });
    await context.keys.erase(tenantSubject(2));
    await kit.catchUp();

    expect((await listTenantSellers(context.db, { tenantId: 2, now })).sellers).toEqual([]);
    expect(ids((await listAdminSellers(context.db, { now })).rows)).toEqual([11, 12, 15]);
    const live = await kit.checksums();
    await kit.rebuild();
    expect(await kit.checksums()).toEqual(live);
  });
});
