import { SellerResponse, SellersResponse } from '../../contracts/api/sellers';
import { QbdConfigResponse } from '../../contracts/api/qbd';
import { ErrorResponse } from '../../contracts/errors';
import { credentialVaultOf } from '../../gateway/use-cases/platforms/credential-vault-of';
import { CREDENTIAL_VAULT_COLLECTION } from '../../commands/credential-vault';
import type { Browser } from './gateway-world';
import { useGatewayWorld } from './gateway-world';
import { companyFor, platformAdmin, signUp } from './fixtures';
import { finishSync, grantProducts, makeDemo } from './platform-fixtures';
import { isWellFormedXml, placesHolding, xmlElement } from './secret-scan';
import { joinAs } from './team-fixtures';
import { jobStream, sellerStream } from '../../contracts/stream-ids';

const world = useGatewayWorld(__filename);

const seller = (response: { json: () => unknown }) => SellerResponse.parse(response.json());
const error = (response: { json: () => unknown }) => ErrorResponse.parse(response.json());

/** A company with its admin, and optionally a plain USER of it. */
const company = async (name: string, withUser = false) => {
  const slug = name.toLowerCase().replace(/\W+/g, '-');
  const admin = await signUp(world, { name: `${slug}-admin` });
  const tenantId = await companyFor(world, admin, { name });
  if (!withUser) return { tenantId, admin: admin.browser, user: null };
  const user = await signUp(world, { name: `${slug}-user` });
  await joinAs(world, user, { tenantId, role: 'USER' });
  return { tenantId, admin: admin.browser, user: user.browser };
};

let operator: Browser;
const admin = async () => {
  operator ??= (await platformAdmin(world)).browser;
  return operator;
};

const demoSeller = async (browser: Browser) => {
  const created = await browser.post('/api/sellers', { provider: 'DEMO' });
  expect(created.statusCode).toBe(200);
  return seller(created);
};

const vaultCount = () => world.services.db.collection(CREDENTIAL_VAULT_COLLECTION).countDocuments();

describe('connecting sellers', () => {
  it('creates a demo seller and lists it for the tenant, waiting for its first sync', async () => {
    const { tenantId, admin: browser, user } = await company('Demo Co', true);
    const created = await demoSeller(browser);
    expect(created).toMatchObject({
      TenantId: tenantId,
      Provider: 'DEMO',
      Active: true,
      Status: { kind: 'pending_sync', text: 'Pending sync...' },
      Progress: 'syncing',
      ProgressBadge: { stage: 'syncing', text: 'Syncing...' },
      SyncActions: ['populate'],
      Deletable: false,
    });
    const listed = SellersResponse.parse((await user!.get('/api/sellers?Active=true')).json());
    expect(listed.rows.map((row) => row.Id)).toEqual([created.Id]);
    expect(listed.rows[0]?.FeatureFlags).toBeUndefined();
    expect(listed.progress).toBe('syncing');
    const included = SellersResponse.parse(
      (await user!.get('/api/sellers?include=Subscriptions,FeatureFlags')).json(),
    );
    expect(included.rows[0]?.Subscriptions).toEqual([]);
    expect(included.rows[0]?.FeatureFlags?.map((flag) => flag.Flag)).toContain(
      'forecasts.Receivables.Enabled',
    );
    const inactive = SellersResponse.parse((await user!.get('/api/sellers?Active=false')).json());
    expect(inactive.rows).toEqual([]);
  });

  it('lets only a platform admin connect a second platform', async () => {
    const { admin: browser } = await company('Second Co');
    await demoSeller(browser);
    const again = await browser.post('/api/sellers', { provider: 'DEMO' });
    expect(again.statusCode).toBe(403);
    expect(error(again).message).toBe('A platform is already connected; contact Support to connect another.');
  });

  it('sends the OAuth platforms and QBD to their own connect flows, and refuses bad input with 422', async () => {
    const { admin: browser } = await company('Redirect Co');
    const qbo = await browser.post('/api/sellers', { provider: 'QBO' });
    expect(qbo.statusCode).toBe(422);
    expect(error(qbo)).toMatchObject({
      message: 'QuickBooks Online connects through /api/connect/qbo.',
      properties: { provider: 'not_connectable_here' },
    });
    const unknown = await browser.post('/api/sellers', { provider: 'NETSUITE', extra: 1 });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(error(unknown).properties ?? {})).toEqual(
      expect.arrayContaining(['provider', 'extra']),
    );
    const sage = await browser.post('/api/sellers', { provider: 'SAGE', companyId: 'ACME' });
    expect(sage.statusCode).toBe(422);
    expect(error(sage).properties).toEqual({
      userId: 'User ID is required',
      password: 'Password is required',
    });
  });

  it('gates Sage behind the plan and disables connecting in the demo tenant', async () => {
    const { tenantId, admin: browser } = await company('Gated Co');
    const body = { provider: 'SAGE', companyId: 'GATED', userId: 'ws-user', password: 'Sage-secret-1' };
    const gated = await browser.post('/api/sellers', body);
    expect(gated.statusCode).toBe(403);
    expect(error(gated).message).toBe('Upgrade plan to access');
    await makeDemo(world, tenantId);
    const demo = await browser.post('/api/sellers', { provider: 'DEMO' });
    expect(demo.statusCode).toBe(403);
    expect(error(demo).message).toBe('Disabled for the demo client');
  });

  it('keeps the Sage password sealed in the vault: never in events, audit history or read models', async () => {
    const { tenantId, admin: browser } = await company('Sage Co');
    await grantProducts(world, tenantId, ['platforms/sage']);
    const password = `Sage-pw-${world.runId}`;
    const before = await vaultCount();
    const created = await browser.post('/api/sellers', {
      provider: 'SAGE',
      companyId: 'SAGECO',
      userId: 'ws-user',
      password,
    });
    expect(created.statusCode).toBe(200);
    expect(seller(created)).toMatchObject({
      Provider: 'SAGE',
      CompanyName: 'SAGECO',
      AuthMethod: 'password',
    });
    expect(await vaultCount()).toBe(before + 1);
    expect(await placesHolding(world, password)).toEqual([]);
    // The scan does see what is stored in clear, so its empty answer above means something.
    expect(await placesHolding(world, 'SAGECO')).toEqual(['event store', 'read models']);

    // The sealed entry opens to the credentials, which is what the sync will use.
    const [event] = await world.services.writeSide.store.readStream(sellerStream(seller(created).Id));
    const ref = (event?.data as { credentialsRef: string }).credentialsRef;
    const opened = await credentialVaultOf(world.services).read(ref);
    expect(opened?.secret).toEqual({ companyId: 'SAGECO', userId: 'ws-user', password });

    // Disconnecting drops the credentials for good.
    const disconnected = await browser.post(`/api/sellers/${seller(created).Id}/disconnect`);
    expect(disconnected.statusCode).toBe(200);
    expect(seller(disconnected)).toMatchObject({ Active: false, disconnected: true });
    expect(await credentialVaultOf(world.services).read(ref)).toBeNull();
  });
});

describe('reading and changing a seller', () => {
  it('answers 404 to another tenant and 403 to a plain user changing it', async () => {
    const { admin: browser, user } = await company('Owner Co', true);
    const own = await demoSeller(browser);
    const other = await company('Other Co');
    expect((await other.admin.get(`/api/sellers/${own.Id}`)).statusCode).toBe(404);
    expect((await other.admin.put(`/api/sellers/${own.Id}`, { Active: false })).statusCode).toBe(404);
    expect((await user!.get(`/api/sellers/${own.Id}`)).statusCode).toBe(200);
    expect((await user!.put(`/api/sellers/${own.Id}`, { Active: false })).statusCode).toBe(403);
    expect((await user!.delete(`/api/sellers/${own.Id}`)).statusCode).toBe(403);
    expect((await browser.get('/api/sellers/abc')).statusCode).toBe(422);
  });

  it('updates Active and feature flags with If-Match, refusing a stale revision with 412', async () => {
    const { admin: browser } = await company('Flags Co');
    const created = await browser.post('/api/sellers', { provider: 'DEMO' });
    const etag = String(created.headers.etag);
    const id = seller(created).Id;
    const updated = await browser.request({
      method: 'PUT',
      url: `/api/sellers/${id}`,
      body: { FeatureFlags: [{ Flag: 'exclusions.CustomerIds', Value: ['12', 12, '7'] }], Active: false },
      headers: { 'if-match': etag },
    });
    expect(updated.statusCode).toBe(200);
    const view = seller(updated);
    expect(view.Active).toBe(false);
    expect(view.FeatureFlags?.find((f) => f.Flag === 'exclusions.CustomerIds')?.Value).toEqual([12, 7]);
    const stale = await browser.request({
      method: 'PUT',
      url: `/api/sellers/${id}`,
      body: { Active: true },
      headers: { 'if-match': etag },
    });
    expect(stale.statusCode).toBe(412);
    const badFlag = await browser.put(`/api/sellers/${id}`, {
      FeatureFlags: [{ Flag: 'exclusions.ProductIds', Value: ['x'] }],
    });
    expect(badFlag.statusCode).toBe(422);
    expect(error(badFlag)).toMatchObject({
      message: 'Exclusions accept integers only.',
      properties: { 'exclusions.ProductIds': 'Integers only.' },
    });
    expect((await browser.put(`/api/sellers/${id}`, { Active: 'no' })).statusCode).toBe(422);
  });

  it('leaves forecasting and CRM flags to platform admins, in a tenant admin’s seller update too', async () => {
    const { admin: browser } = await company('Reserved Flags Co');
    const { Id } = await demoSeller(browser);
    for (const Flag of ['forecasts.Receivables.Enabled', 'crm.PushSalesRep']) {
      const refused = await browser.put(`/api/sellers/${Id}`, { FeatureFlags: [{ Flag, Value: true }] });
      expect([Flag, refused.statusCode, error(refused).message]).toEqual([
        Flag,
        403,
        `Only a platform administrator can change ${Flag}.`,
      ]);
    }
    const view = seller(await browser.get(`/api/sellers/${Id}?include=FeatureFlags`));
    expect(view.FeatureFlags?.find((f) => f.Flag === 'forecasts.Receivables.Enabled')?.Value).not.toBe(true);
    const operatorBrowser = await admin();
    const byOperator = await operatorBrowser.put(`/api/sellers/${Id}`, {
      FeatureFlags: [{ Flag: 'forecasts.Receivables.Enabled', Value: true }],
    });
    expect(byOperator.statusCode).toBe(200);
  });

  it('refuses a standard user the Sage credentials of the company', async () => {
    const { tenantId, user } = await company('Sage Staff Co', true);
    await grantProducts(world, tenantId, ['platforms/sage']);
    const before = await vaultCount();
    const refused = await user!.post('/api/sellers', {
      provider: 'SAGE',
      companyId: 'STAFFCO',
      userId: 'ws-user',
      password: 'Sage-secret-1',
    });
    expect(refused.statusCode).toBe(403);
    expect(error(refused).message).toBe('Only a company administrator can change the connection details.');
    expect(await vaultCount()).toBe(before);
  });

  it('deletes only an inactive seller', async () => {
    const { admin: browser } = await company('Delete Co');
    const { Id } = await demoSeller(browser);
    const refused = await browser.delete(`/api/sellers/${Id}`);
    expect(refused.statusCode).toBe(409);
    expect(error(refused).message).toBe('the seller must be inactive');
    expect((await browser.put(`/api/sellers/${Id}`, { Active: false })).statusCode).toBe(200);
    expect((await browser.delete(`/api/sellers/${Id}`)).json()).toEqual({ ok: true });
    expect((await browser.get(`/api/sellers/${Id}`)).statusCode).toBe(404);
  });

  it('toggles a flag by group and section for a platform admin only', async () => {
    const { admin: browser } = await company('Forecast Co');
    const { Id } = await demoSeller(browser);
    const operatorBrowser = await admin();
    const toggled = await operatorBrowser.post(`/api/sellers/${Id}/flags/forecasts`, {
      state: true,
      section: 'Receivables',
    });
    expect(toggled.statusCode).toBe(200);
    expect(seller(toggled).Forecasting).toBe(true);
    expect((await browser.post(`/api/sellers/${Id}/flags/forecasts`, { state: false })).statusCode).toBe(403);
    const bad = await operatorBrowser.post(`/api/sellers/${Id}/flags/customerSheet`, {
      state: 'yes',
      section: 'showOtherCredits',
    });
    expect(bad.statusCode).toBe(422);
    expect(error(bad).properties).toEqual({ 'customerSheet.showOtherCredits': 'Must be true or false.' });
  });
});

describe('platform admin seller table', () => {
  it('lists every tenant’s sellers with scope=all, filtered by provider; others are refused', async () => {
    const { tenantId, admin: browser } = await company('Scope Co');
    const { Id } = await demoSeller(browser);
    expect((await browser.get('/api/sellers?scope=all')).statusCode).toBe(403);
    const page = SellersResponse.parse(
      (await (await admin()).get('/api/sellers?scope=all&provider=DEMO&search=Scope%20Co')).json(),
    );
    expect(page.rows.map((row) => [row.Id, row.Tenant?.Id])).toEqual([[Id, tenantId]]);
    expect(page.total).toBeGreaterThanOrEqual(page.filtered);
    expect((await (await admin()).get('/api/sellers?scope=all&provider=NOPE')).statusCode).toBe(422);
  });
});

describe('sync requests', () => {
  it('records a sync job, refuses a second while one runs, and repopulates after the first', async () => {
    const { admin: browser } = await company('Sync Co');
    const { Id } = await demoSeller(browser);
    expect((await browser.post(`/api/sellers/${Id}/sync`)).statusCode).toBe(403);
    const operatorBrowser = await admin();
    const first = await operatorBrowser.post(`/api/sellers/${Id}/sync?reset=1`);
    expect(first.statusCode).toBe(200);
    const { job } = first.json<{ job: { jobId: number; mode: string } }>();
    expect(job.mode).toBe('populate');
    const [created] = await world.services.writeSide.store.readStream(jobStream(job.jobId));
    expect(created).toMatchObject({ type: 'JobCreated', data: { kind: 'sync', sellerId: Id } });

    const second = await operatorBrowser.post(`/api/sellers/${Id}/sync`);
    expect(second.statusCode).toBe(409);
    expect(error(second).message).toBe('A sync is already running for this seller. Wait for it to finish.');

    await finishSync(world, Id, job.jobId);
    const reset = await operatorBrowser.post(`/api/sellers/${Id}/sync?reset=1`);
    expect(reset.json()).toMatchObject({
      job: { mode: 'repopulate' },
      message: 'Successfully created 1 sync job',
    });
    expect((await operatorBrowser.post(`/api/sellers/${Id}/sync?reset=maybe`)).statusCode).toBe(422);
  });

  it('syncs every active seller of a provider, reporting the ones it skipped', async () => {
    const running = await demoSeller((await company('Bulk One')).admin);
    const idle = await demoSeller((await company('Bulk Two')).admin);
    const operatorBrowser = await admin();
    await operatorBrowser.post(`/api/sellers/${running.Id}/sync`);
    const bulk = await operatorBrowser.post('/api/sellers/sync', { provider: 'DEMO', active: true });
    expect(bulk.statusCode).toBe(200);
    const body = bulk.json<{
      jobs: { sellerId: number }[];
      skipped: { sellerId: number; reason: string }[];
    }>();
    expect(body.jobs.map((job) => job.sellerId)).toContain(idle.Id);
    expect(body.skipped).toContainEqual({
      sellerId: running.Id,
      reason: 'A sync is already running for this seller. Wait for it to finish.',
    });
    expect((await operatorBrowser.post('/api/sellers/sync', { provider: 'FAX' })).statusCode).toBe(422);
    const { admin: tenantAdmin } = await company('Bulk Three');
    expect((await tenantAdmin.post('/api/sellers/sync', { provider: 'DEMO' })).statusCode).toBe(403);
  });
});

describe('QuickBooks Desktop Web Connector file', () => {
  it('creates the QBD seller with a .qwc file naming our SOAP endpoint and a one-time password', async () => {
    const { tenantId, admin: browser, user } = await company('Desktop Co', true);
    expect((await browser.post('/api/qbd/config', {})).statusCode).toBe(403);
    await grantProducts(world, tenantId, ['platforms/qbd_web_connector']);
    const bad = await browser.post('/api/qbd/config', { companyFilename: 'C:\\Books\\acme.qbb' });
    expect(bad.statusCode).toBe(422);
    expect(error(bad).properties).toEqual({ companyFilename: 'The company file path must end in .qbw.' });

    // The file's password becomes the company's connector credential: not a standard user's to set.
    const byUser = await user!.post('/api/qbd/config', {});
    expect(byUser.statusCode).toBe(403);
    expect(error(byUser).message).toBe('Only a company administrator can change the connection details.');
    const made = QbdConfigResponse.parse((await browser.post('/api/qbd/config', {})).json());
    expect(isWellFormedXml(made.xml)).toBe(true);
    expect(xmlElement(made.xml, 'AppURL')).toBe(`${world.config.PUBLIC_URL}/api/qbd/soap`);
    expect(xmlElement(made.xml, 'UserName')).toBe(`lw-qbd-${made.Id}`);
    expect(xmlElement(made.xml, 'OwnerID')).toMatch(/^\{[0-9A-F-]{36}\}$/);
    expect(xmlElement(made.xml, 'FileID')).toMatch(/^\{[0-9A-F-]{36}\}$/);
    expect(made.password.length).toBeGreaterThanOrEqual(20);
    expect(await placesHolding(world, made.password)).toEqual([]);
    const view = seller(await browser.get(`/api/sellers/${made.Id}`));
    expect(view).toMatchObject({ Provider: 'QBD', Status: { text: 'Pending installation...' } });

    // Reinstalling needs the company file and an admin, and replaces the password.
    expect((await user!.post('/api/qbd/config', { companyFilename: 'C:\\Books\\Acme.QBW' })).statusCode).toBe(
      403,
    );
    const missing = await browser.post('/api/qbd/config', {});
    expect(missing.statusCode).toBe(422);
    expect(error(missing).properties).toEqual({ companyFilename: 'required' });
    const before = await vaultCount();
    const again = QbdConfigResponse.parse(
      (await browser.post('/api/qbd/config', { companyFilename: 'C:\\Books\\Acme.QBW' })).json(),
    );
    expect(again.Id).toBe(made.Id);
    expect(again.password).not.toBe(made.password);
    expect(await vaultCount()).toBe(before);
    expect(seller(await browser.get(`/api/sellers/${made.Id}`)).CompanyFilePath).toBe('C:\\Books\\Acme.QBW');
  });
});
