import { activeCampaignConnectFailure, IntegrationResponse } from '../../contracts/api/integrations';
import { CREDENTIAL_VAULT_COLLECTION } from '../../commands/credential-vault';
import { ErrorResponse } from '../../contracts/errors';
import { userStream } from '../../contracts/stream-ids';
import { userDecider } from '../../domain/user/user-decider';
import { readState } from '../../workflows/sync/system-commands';
import { activeCampaignConnectTexts } from '../../workflows/integrations/active-campaign/active-campaign-connect-check';
import { fillActiveCampaignIds } from '../../workflows/integrations/active-campaign/fill-active-campaign-ids';
import { startActiveCampaignFake, type ActiveCampaignFake } from '../fakes/active-campaign-fake';
import { fakeDns } from './fake-dns';
import type { Browser } from './gateway-world';
import { useGatewayWorld } from './gateway-world';
import { companyFor, signUp } from './fixtures';
import { grantProducts } from './platform-fixtures';
import { joinAs } from './team-fixtures';

/**
 * The ActiveCampaign connect form's real check (ADR 48, portal.md sections 2.3 and 8) through
 * POST /api/integrations against the local fake account, and the ActiveCampaignId fill a sync does.
 */

const world = useGatewayWorld(__filename);
let fake: ActiveCampaignFake;

beforeAll(async () => {
  world.services.resolveHost = fakeDns({ 'acme.api-us1.com': ['104.18.32.7'] });
  fake = await startActiveCampaignFake();
  fake.apiKeys.add('ac-good-key');
  world.services.config = { ...world.services.config, ACTIVE_CAMPAIGN_API_URL: fake.url };
});
afterAll(() => fake.close());

const vaultCount = () => world.services.db.collection(CREDENTIAL_VAULT_COLLECTION).countDocuments();
const error = (response: { json: () => unknown }) => ErrorResponse.parse(response.json());

let count = 0;
const company = async (name: string) => {
  const n = (count += 1);
  const admin = await signUp(world, { name: `ac-check-admin-${n}` });
  const tenantId = await companyFor(world, admin, { name });
  await grantProducts(world, tenantId, ['integrations/active_campaign']);
  return { tenantId, admin };
};

const connect = (browser: Browser, apiKey: string) =>
  browser.post('/api/integrations', {
    Provider: 'ACTIVE_CAMPAIGN',
    Credentials: { URL: 'https://acme.api-us1.com', ApiKey: apiKey },
  });

describe('the ActiveCampaign connect check', () => {
  it('connects once the account accepts the key, having asked it who we are', async () => {
    const { tenantId, admin } = await company('Checked Co');
    const calls = fake.requests.filter((r) => r.path === '/api/3/users/me').length;
    const connected = await connect(admin.browser, 'ac-good-key');
    expect(connected.statusCode).toBe(200);
    expect(IntegrationResponse.parse(connected.json())).toMatchObject({
      TenantId: tenantId,
      Provider: 'ACTIVE_CAMPAIGN',
      CredentialsStatus: 'VALID',
    });
    expect(fake.requests.filter((r) => r.path === '/api/3/users/me').length).toBe(calls + 1);
  });

  it('refuses a key the account refuses with the catalogue text and a resolution, storing nothing', async () => {
    const { admin } = await company('Refused Key Co');
    const before = await vaultCount();
    const refused = await connect(admin.browser, 'ac-wrong-key');
    expect(refused.statusCode).toBe(422);
    expect(error(refused)).toMatchObject({
      message: activeCampaignConnectFailure,
      properties: {
        'Credentials.ApiKey': activeCampaignConnectTexts.refusedKey,
        resolution: activeCampaignConnectTexts.refusedKeyResolution,
      },
    });
    expect(refused.body).not.toContain('ac-wrong-key');
    expect(await vaultCount()).toBe(before);
    const list = (await admin.browser.get('/api/integrations')).json<{ rows: unknown[] }>();
    expect(list.rows).toEqual([]);
  });

  it('says plainly when the account cannot be reached, storing nothing', async () => {
    const { admin } = await company('Unreachable Co');
    const before = await vaultCount();
    const saved = world.services.config;
    // A port nothing listens on: the connection is refused at once.
    world.services.config = { ...saved, ACTIVE_CAMPAIGN_API_URL: 'http://127.0.0.1:9' };
    try {
      const unreachable = await connect(admin.browser, 'ac-good-key');
      expect(unreachable.statusCode).toBe(422);
      expect(error(unreachable)).toMatchObject({
        message: activeCampaignConnectFailure,
        properties: { 'Credentials.URL': activeCampaignConnectTexts.unreachable },
      });
    } finally {
      world.services.config = saved;
    }
    expect(await vaultCount()).toBe(before);
  });

  it('refuses on the URL field a URL that does not answer as ActiveCampaign', async () => {
    const { admin } = await company('Wrong Url Co');
    const saved = world.services.config;
    world.services.config = { ...saved, ACTIVE_CAMPAIGN_API_URL: `${fake.url}/not-the-api` };
    try {
      const wrong = await connect(admin.browser, 'ac-good-key');
      expect(wrong.statusCode).toBe(422);
      expect(error(wrong)).toMatchObject({
        message: activeCampaignConnectFailure,
        properties: { 'Credentials.URL': activeCampaignConnectTexts.notActiveCampaign },
      });
    } finally {
      world.services.config = saved;
    }
  });

  it('does not call the account for a caller the rules refuse (a plain user)', async () => {
    const { tenantId } = await company('Staff Only Co');
    const user = await signUp(world, { name: 'ac-check-user' });
    await joinAs(world, user, { tenantId, role: 'USER' });
    const calls = fake.requests.length;
    const refused = await connect(user.browser, 'ac-good-key');
    expect(refused.statusCode).toBe(403);
    expect(fake.requests.length).toBe(calls);
  });
});

describe('filling ActiveCampaign ids during a sync', () => {
  it('gives each member whose email is a contact that contact’s id, once', async () => {
    const { tenantId, admin } = await company('Filled Co');
    const member = await signUp(world, { name: 'ac-fill-member' });
    await joinAs(world, member, { tenantId, role: 'USER' });
    const outsider = await signUp(world, { name: 'ac-fill-outsider' });
    await world.settle();
    const deps = {
      db: world.services.db,
      writeSide: world.services.writeSide,
      workflowId: `integration-sync-test-${world.runId}`,
      now: () => new Date(),
    };
    const contacts = [
      { crmId: '7001', email: admin.email.toUpperCase() },
      { crmId: '7002', email: member.email },
      { crmId: '7003', email: outsider.email },
      { crmId: '7004', email: null },
    ];
    expect(await fillActiveCampaignIds(deps, { tenantId, contacts })).toEqual({ usersFilled: 2 });
    const idOf = async (userId: number) => {
      const state = await readState(world.services.writeSide, userDecider, userStream(userId));
      return state.status === 'none' ? 'missing' : state.activeCampaignId;
    };
    expect(await idOf(admin.session.user.Id)).toBe('7001');
    expect(await idOf(member.session.user.Id)).toBe('7002');
    expect(await idOf(outsider.session.user.Id)).toBeNull();
    await world.settle();
    // The next page (or the next sync) with the same contacts changes nothing.
    expect(await fillActiveCampaignIds(deps, { tenantId, contacts })).toEqual({ usersFilled: 0 });
  });
});
