import { IntegrationResponse, IntegrationsResponse } from '../../contracts/api/integrations';
import { CREDENTIAL_VAULT_COLLECTION } from '../../commands/credential-vault';
import { ErrorResponse } from '../../contracts/errors';
import { credentialVaultOf } from '../../gateway/use-cases/platforms/credential-vault-of';
import { googleAccountOf } from './admin-fixtures';
import type { Browser } from './gateway-world';
import { fakeDns } from './fake-dns';
import { useGatewayWorld } from './gateway-world';
import { companyFor, platformAdmin, signUp } from './fixtures';
import { grantProducts, makeDemo } from './platform-fixtures';
import { placesHolding } from './secret-scan';
import { joinAs } from './team-fixtures';
import { integrationStream, jobStream } from '../../contracts/stream-ids';

const world = useGatewayWorld(__filename);

// The connector URL check resolves through a fake DNS: acme.api-us1.com is public, the others are not.
beforeAll(() => {
  world.services.resolveHost = fakeDns({
    'acme.api-us1.com': ['104.18.32.7'],
    'intranet.acme.test': ['10.20.30.40'],
    'rebind.acme.test': ['104.18.32.8', '127.0.0.1'],
  });
});

const account = (response: { json: () => unknown }) => IntegrationResponse.parse(response.json());
const error = (response: { json: () => unknown }) => ErrorResponse.parse(response.json());
const vaultCount = () => world.services.db.collection(CREDENTIAL_VAULT_COLLECTION).countDocuments();

let count = 0;
/** A company with its admin and a plain USER, on a plan that includes ActiveCampaign. */
const company = async (name: string) => {
  const n = (count += 1);
  const admin = await signUp(world, { name: `int-admin-${n}` });
  const tenantId = await companyFor(world, admin, { name });
  const user = await signUp(world, { name: `int-user-${n}` });
  await joinAs(world, user, { tenantId, role: 'USER' });
  await grantProducts(world, tenantId, ['integrations/active_campaign']);
  return { tenantId, admin: admin.browser, user: user.browser };
};

let operator: Browser;
const admin = async () => {
  operator ??= (await platformAdmin(world)).browser;
  return operator;
};

const connectAc = (browser: Browser, apiKey = 'ac-key-1') =>
  browser.post('/api/integrations', {
    Provider: 'ACTIVE_CAMPAIGN',
    Credentials: { URL: 'https://acme.api-us1.com', ApiKey: apiKey },
  });

describe('connecting ActiveCampaign', () => {
  it('connects with the URL and API key, keeping the key only sealed in the vault', async () => {
    const { tenantId, admin: browser } = await company('Campaign Co');
    const apiKey = `ac-secret-${world.runId}`;
    const created = await connectAc(browser, apiKey);
    expect(created.statusCode).toBe(200);
    expect(account(created)).toMatchObject({
      TenantId: tenantId,
      Provider: 'ACTIVE_CAMPAIGN',
      URL: 'https://acme.api-us1.com',
      Active: true,
      CredentialsStatus: 'VALID',
      Settings: { MatchUsingNames: true, Locked: false },
    });
    expect(created.body).not.toContain(apiKey);
    expect(await placesHolding(world, apiKey)).toEqual([]);
    expect(await placesHolding(world, 'acme.api-us1.com')).toContain('event store');

    // Connecting again renews the key of the same account; the old key leaves the vault.
    const before = await vaultCount();
    const renewed = await connectAc(browser, `${apiKey}-2`);
    expect(account(renewed).Id).toBe(account(created).Id);
    expect(await vaultCount()).toBe(before);
    const [first] = await world.services.writeSide.store.readStream(integrationStream(account(created).Id));
    const firstRef = (first?.data as { credentialsRef: string }).credentialsRef;
    expect(await credentialVaultOf(world.services).read(firstRef)).toBeNull();
  });

  it('refuses missing credentials and OAuth providers with 422, unpaid plans and the demo tenant', async () => {
    const { tenantId, admin: browser } = await company('Refusals Co');
    const missing = await browser.post('/api/integrations', { Provider: 'ACTIVE_CAMPAIGN', Credentials: {} });
    expect(missing.statusCode).toBe(422);
    expect(error(missing).properties).toEqual({
      'Credentials.URL': 'The URL is required.',
      'Credentials.ApiKey': 'The API key is required.',
    });
    const hubspot = await browser.post('/api/integrations', { Provider: 'HUBSPOT' });
    expect(hubspot.statusCode).toBe(422);
    expect(error(hubspot).properties).toEqual({ Provider: 'not_connectable_here' });
    expect((await browser.post('/api/integrations', { Provider: 'MYSPACE' })).statusCode).toBe(422);

    const unpaid = await signUp(world, { name: 'int-unpaid' });
    await companyFor(world, unpaid, { name: 'Unpaid Co' });
    const gated = await connectAc(unpaid.browser);
    expect(gated.statusCode).toBe(403);
    expect(error(gated).message).toBe('Upgrade plan to access');

    const before = await vaultCount();
    await makeDemo(world, tenantId);
    const demo = await connectAc(browser);
    expect(demo.statusCode).toBe(403);
    expect(error(demo).message).toBe('Disabled for the demo client');
    expect(await vaultCount()).toBe(before);
  });
});

describe('who may set the connection details, and where they may point', () => {
  it('refuses a standard user the URL and key, first time and for an account that exists', async () => {
    const { admin: browser, user } = await company('Staff Co');
    const before = await vaultCount();
    const first = await connectAc(user, 'user-key-1');
    expect(first.statusCode).toBe(403);
    expect(error(first).message).toBe('Only a company administrator can change the connection details.');
    const { Id } = account(await connectAc(browser, 'admin-key-1'));
    const renewal = await connectAc(user, 'user-key-2');
    expect(renewal.statusCode).toBe(403);
    expect(await vaultCount()).toBe(before + 1);
    const kept = account(await browser.get(`/api/integrations/${Id}`));
    expect(kept.URL).toBe('https://acme.api-us1.com');
  });

  it('refuses URLs that are not https or not public with a 422 on the URL field, storing nothing', async () => {
    const { admin: browser } = await company('Ssrf Co');
    const before = await vaultCount();
    const notPublic = 'The URL must point to a public internet address.';
    const refusals: [string, string][] = [
      ['http://acme.api-us1.com', 'The URL must start with https://.'],
      ['https://127.0.0.1:8080/admin', notPublic],
      ['https://169.254.169.254/latest/meta-data', notPublic],
      ['https://[::ffff:10.0.0.1]/', notPublic],
      ['https://[fd00::1]/', notPublic],
      ['https://intranet.acme.test', notPublic],
      ['https://rebind.acme.test', notPublic],
      ['https://nowhere.acme.test', 'The host name of the URL could not be found.'],
    ];
    for (const [url, reason] of refusals) {
      const refused = await browser.post('/api/integrations', {
        Provider: 'ACTIVE_CAMPAIGN',
        Credentials: { URL: url, ApiKey: 'ac-key-ssrf' },
      });
      expect([url, refused.statusCode, error(refused).properties]).toEqual([
        url,
        422,
        { 'Credentials.URL': reason },
      ]);
    }
    expect(await vaultCount()).toBe(before);
    const list = IntegrationsResponse.parse((await browser.get('/api/integrations')).json());
    expect(list.rows).toEqual([]);
  });
});

describe('reading and changing an account', () => {
  it('answers the tenant’s accounts, 404 to another tenant, and the admin table with scope=all', async () => {
    const { tenantId, admin: browser, user } = await company('Reader Co');
    const { Id } = account(await connectAc(browser));
    const list = IntegrationsResponse.parse((await user.get('/api/integrations')).json());
    expect(list.rows.map((row) => row.Id)).toEqual([Id]);
    expect((await user.get(`/api/integrations/${Id}`)).statusCode).toBe(200);
    const other = await company('Stranger Co');
    expect((await other.admin.get(`/api/integrations/${Id}`)).statusCode).toBe(404);
    expect((await other.admin.patch(`/api/integrations/${Id}`, { Active: false })).statusCode).toBe(404);
    expect((await user.get('/api/integrations?scope=all')).statusCode).toBe(403);
    const page = IntegrationsResponse.parse(
      (await (await admin()).get('/api/integrations?scope=all&provider=ACTIVE_CAMPAIGN&product=none')).json(),
    );
    expect(page.rows.find((row) => row.Id === Id)).toMatchObject({ Tenant: { Id: tenantId } });
    expect((await user.get('/api/integrations?provider=FAX')).statusCode).toBe(422);
  });

  it('lets a tenant admin switch it off; Locked and settings are for platform admins, by the state rules', async () => {
    const { admin: browser, user } = await company('Toggle Co');
    const { Id } = account(await connectAc(browser));
    expect((await user.patch(`/api/integrations/${Id}`, { Active: false })).statusCode).toBe(403);
    const settings = await browser.patch(`/api/integrations/${Id}`, { Settings: { DebugContacts: true } });
    expect(settings.statusCode).toBe(403);
    expect(error(settings).message).toBe('Only a platform administrator can change the account settings.');
    expect((await browser.patch(`/api/integrations/${Id}`, { Locked: true })).statusCode).toBe(403);

    const operatorBrowser = await admin();
    const whileActive = await operatorBrowser.patch(`/api/integrations/${Id}`, {
      Settings: { Locked: true },
    });
    expect(whileActive.statusCode).toBe(409);
    expect(error(whileActive).message).toBe(
      'The account can be locked or unlocked only while it is inactive.',
    );

    const off = await browser.put(`/api/integrations/${Id}`, { Active: false });
    expect(account(off).Active).toBe(false);
    const locked = await operatorBrowser.patch(`/api/integrations/${Id}`, {
      Locked: true,
      Settings: { AddMissingContacts: true },
    });
    expect(account(locked).Settings).toMatchObject({ Locked: true, AddMissingContacts: true });
    const bad = await operatorBrowser.patch(`/api/integrations/${Id}`, { Settings: { Colour: 'red' } });
    expect(bad.statusCode).toBe(422);
    expect(error(bad).properties).toEqual({ 'Settings.Colour': 'unknown field' });
  });
});

describe('sync, purge, disconnect and delete', () => {
  it('records a CRM sync for a platform admin and a cloud sync for the tenant admin, one at a time', async () => {
    const { tenantId, admin: browser } = await company('Sync Co');
    const { Id } = account(await connectAc(browser));
    expect((await browser.post(`/api/integrations/${Id}/sync`)).statusCode).toBe(403);
    const operatorBrowser = await admin();
    const synced = await operatorBrowser.post(`/api/integrations/${Id}/sync`);
    expect(synced.statusCode).toBe(200);
    const { jobId } = synced.json<{ jobId: number }>();
    const [job] = await world.services.writeSide.store.readStream(jobStream(jobId));
    expect(job).toMatchObject({
      type: 'JobCreated',
      data: { kind: 'sync', parameters: { integrationId: Id } },
    });
    const again = await operatorBrowser.post(`/api/integrations/${Id}/sync`);
    expect(again.statusCode).toBe(409);
    expect(error(again).message).toBe('A sync is already running for this account. Wait for it to finish.');

    const google = await googleAccountOf(world, tenantId);
    expect((await browser.post(`/api/integrations/${google}/sync`)).statusCode).toBe(200);
    expect((await browser.post('/api/integrations/x/sync')).statusCode).toBe(422);
  });

  it('purges only an inactive account, for a platform admin', async () => {
    const { admin: browser } = await company('Purge Co');
    const { Id } = account(await connectAc(browser));
    const operatorBrowser = await admin();
    const active = await operatorBrowser.post(`/api/integrations/${Id}/purge`, { unlink: true });
    expect(active.statusCode).toBe(409);
    expect(error(active).message).toBe('Only an inactive account with valid credentials can be purged.');
    await browser.patch(`/api/integrations/${Id}`, { Active: false });
    expect((await browser.post(`/api/integrations/${Id}/purge`, {})).statusCode).toBe(403);
    expect((await operatorBrowser.post(`/api/integrations/${Id}/purge`, { unlink: 'yes' })).statusCode).toBe(
      422,
    );
    const purged = await operatorBrowser.post(`/api/integrations/${Id}/purge`, { unlink: true });
    expect(purged.json()).toMatchObject({ action: 'purge', message: 'Successfully created 1 purge job' });
    const view = account(await operatorBrowser.get(`/api/integrations/${Id}`));
    expect(view.Purge).toMatchObject({ unlink: true, jobId: purged.json<{ jobId: number }>().jobId });
  });

  it('unlinks only an inactive account, for a platform admin, as a job of its own', async () => {
    const { admin: browser } = await company('Unlink Co');
    const { Id } = account(await connectAc(browser));
    const operatorBrowser = await admin();
    const active = await operatorBrowser.post(`/api/integrations/${Id}/unlink`);
    expect(active.statusCode).toBe(409);
    expect(error(active).message).toBe('Only an inactive account with valid credentials can be unlinked.');
    await browser.patch(`/api/integrations/${Id}`, { Active: false });
    expect((await browser.post(`/api/integrations/${Id}/unlink`)).statusCode).toBe(403);
    const unlinked = await operatorBrowser.post(`/api/integrations/${Id}/unlink`);
    expect(unlinked.statusCode).toBe(200);
    expect(unlinked.json()).toMatchObject({ action: 'unlink', message: 'Successfully created 1 unlink job' });
    const jobId = unlinked.json<{ jobId: number }>().jobId;
    const events = await world.services.writeSide.store.readStream(integrationStream(Id));
    expect(events.map((event) => event.type)).toContain('IntegrationUnlinkRequested');
    const job = await world.services.writeSide.store.readStream(`job-${jobId}`);
    expect(job[0]?.data).toMatchObject({ parameters: { target: 'integration', action: 'unlink' } });
  });

  it('disconnects (dropping the key), and deletes only an inactive account', async () => {
    const { admin: browser, user } = await company('Unplug Co');
    const created = account(await connectAc(browser));
    const [event] = await world.services.writeSide.store.readStream(integrationStream(created.Id));
    const ref = (event?.data as { credentialsRef: string }).credentialsRef;
    const refused = await browser.delete(`/api/integrations/${created.Id}`);
    expect(refused.statusCode).toBe(409);
    expect(error(refused).message).toBe('Only an inactive account can be deleted.');
    expect((await user.post(`/api/integrations/${created.Id}/disconnect`)).statusCode).toBe(403);
    const unplugged = await browser.post(`/api/integrations/${created.Id}/disconnect`);
    expect(account(unplugged)).toMatchObject({ Active: false, CredentialsStatus: 'REVOKED' });
    expect(await credentialVaultOf(world.services).read(ref)).toBeNull();
    expect((await browser.delete(`/api/integrations/${created.Id}`)).json()).toEqual({ ok: true });
    expect((await browser.get(`/api/integrations/${created.Id}`)).statusCode).toBe(404);
  });
});
