import { connectMessages } from '../../contracts/api/oidc';
import { ErrorResponse } from '../../contracts/errors';
import { CREDENTIAL_VAULT_COLLECTION } from '../../commands/credential-vault';
import { listTenantIntegrations } from '../../projections/integrations/query-integrations';
import { listTenantSellers } from '../../projections/sellers/query-sellers';
import { pointProvidersAt, startLocalOAuthServer, type LocalOAuthServer } from '../oauth/local-oauth-server';
import { followProviderFlow } from '../oauth/redirect-chain';
import { companyFor, platformAdmin, signUp } from './fixtures';
import { useGatewayWorld } from './gateway-world';
import { grantProducts } from './platform-fixtures';
import { placesHolding } from './secret-scan';

const world = useGatewayWorld(__filename);
let provider: LocalOAuthServer;

beforeAll(async () => {
  provider = await startLocalOAuthServer({ publicUrl: world.config.PUBLIC_URL });
  pointProvidersAt(world.config, provider);
});
afterAll(() => provider.close());

let companies = 0;
const adminWithCompany = async () => {
  companies += 1;
  const owner = await signUp(world, { name: `owner${companies}` });
  const tenantId = await companyFor(world, owner, { name: `Connect Co ${companies}` });
  return { ...owner, tenantId };
};

const flash = (location: string) => Object.fromEntries(new URL(location, 'http://x').searchParams);
const lastTokensOf = (clientId: string) => provider.issued.filter((t) => t.clientId === clientId).at(-1);
const vaultEntriesOf = (tenantId: number) =>
  world.services.db.collection(CREDENTIAL_VAULT_COLLECTION).countDocuments({ tenantId });

describe('platform connections by browser redirect', () => {
  it('connects QuickBooks Online end to end; the tokens are sealed in the vault, nowhere readable', async () => {
    const owner = await adminWithCompany();
    provider.setRedirectExtras('QBO', { realmId: '9130355555' });
    const { start, location } = await followProviderFlow(owner.browser, '/api/connect/qbo');
    const authorize = new URL(String(start.headers.location));
    expect(authorize.searchParams.get('scope')).toBe('com.intuit.quickbooks.accounting');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location).toBe('/platforms?connected=qbo');

    await world.settle();
    const { sellers } = await listTenantSellers(world.services.db, {
      tenantId: owner.tenantId,
      now: world.clock.now(),
    });
    expect(sellers).toEqual([
      expect.objectContaining({
        Provider: 'QBO',
        AuthMethod: 'oauth2',
        CompanyName: 'Connect Co 1',
        Active: true,
      }),
    ]);
    const tokens = lastTokensOf('qbo-client');
    expect(tokens).toBeDefined();
    expect(await placesHolding(world, tokens?.accessToken ?? '?')).toEqual([]);
    expect(await placesHolding(world, tokens?.refreshToken ?? '?')).toEqual([]);
    expect(await vaultEntriesOf(owner.tenantId)).toBe(1);

    // The same company authorised again reconnects the seller and leaves only the new tokens.
    const again = await followProviderFlow(owner.browser, '/api/connect/qbo');
    expect(again.location).toBe('/platforms?connected=qbo');
    await world.settle();
    const after = await listTenantSellers(world.services.db, {
      tenantId: owner.tenantId,
      now: world.clock.now(),
    });
    expect(after.sellers.map((s) => s.Id)).toEqual(sellers.map((s) => s.Id));
    expect(await vaultEntriesOf(owner.tenantId)).toBe(1);
  });

  it('connects HubSpot on a plan that includes it; without the plan the portal shows why', async () => {
    const owner = await adminWithCompany();
    const refused = await followProviderFlow(owner.browser, '/api/auth/hubspot/connect');
    expect(flash(refused.location)).toEqual({ error: 'Upgrade plan to access' });
    expect(await vaultEntriesOf(owner.tenantId)).toBe(0);

    await grantProducts(world, owner.tenantId, ['integrations/hubspot']);
    const { location } = await followProviderFlow(owner.browser, '/api/auth/hubspot/connect');
    expect(location).toBe('/platforms?connected=hubspot');
    await world.settle();
    const { integrations } = await listTenantIntegrations(world.services.db, { tenantId: owner.tenantId });
    expect(integrations).toEqual([
      expect.objectContaining({ Provider: 'HUBSPOT', ProductIdentifier: null, CredentialsStatus: 'VALID' }),
    ]);
    const tokens = lastTokensOf('hubspot-client');
    expect(await placesHolding(world, tokens?.accessToken ?? '?')).toEqual([]);
    expect(await placesHolding(world, tokens?.refreshToken ?? '?')).toEqual([]);
  });

  it('connects Google with the account email as the credentials owner (ID token checked)', async () => {
    const owner = await adminWithCompany();
    provider.setUser({ sub: 'g-123', email: 'sheets@example.test', email_verified: true });
    const { start, location } = await followProviderFlow(owner.browser, '/api/auth/google/connect');
    expect(new URL(String(start.headers.location)).searchParams.get('access_type')).toBe('offline');
    expect(location).toBe('/platforms?connected=google');
    await world.settle();
    const { integrations } = await listTenantIntegrations(world.services.db, { tenantId: owner.tenantId });
    expect(integrations).toEqual([
      expect.objectContaining({ Provider: 'GOOGLE', CredentialsOwner: 'sheets@example.test' }),
    ]);
  });

  it('refuses a tampered state, a code sent without its PKCE verifier, and a cancelled consent', async () => {
    const owner = await adminWithCompany();
    const tampered = await followProviderFlow(owner.browser, '/api/connect/xero', {
      callbackUrl: (url) => url.searchParams.set('state', 'forged-state-forged-state'),
    });
    expect(flash(tampered.location)).toEqual({ error: connectMessages.failed('Xero') });

    const pkce = await followProviderFlow(owner.browser, '/api/connect/xero', {
      authorizeUrl: (url) =>
        url.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
    });
    expect(flash(pkce.location)).toEqual({ error: connectMessages.failed('Xero') });

    provider.failNextAuthorization('access_denied');
    const cancelled = await followProviderFlow(owner.browser, '/api/connect/xero');
    expect(flash(cancelled.location)).toEqual({ error: connectMessages.cancelled('Xero') });
    await world.settle();
    const { sellers } = await listTenantSellers(world.services.db, {
      tenantId: owner.tenantId,
      now: world.clock.now(),
    });
    expect(sellers).toEqual([]);
  });

  it('binds the flow to the session and tenant that started it', async () => {
    const owner = await adminWithCompany();
    const start = await owner.browser.get('/api/connect/xero');
    const atProvider = await fetch(String(start.headers.location), { redirect: 'manual' });
    const back = new URL(String(atProvider.headers.get('location')));
    // The admin switched to another company meanwhile: the tokens must not land there.
    const other = await companyFor(world, owner, { name: 'Switched Co' });
    const switched = await owner.browser.get(`${back.pathname}${back.search}`);
    expect(flash(String(switched.headers.location))).toEqual({ error: connectMessages.expired });
    await world.settle();
    for (const tenantId of [owner.tenantId, other]) {
      const { sellers } = await listTenantSellers(world.services.db, { tenantId, now: world.clock.now() });
      expect(sellers).toEqual([]);
    }
  });

  it("never links an attacker's provider account: a callback from another browser's flow is refused", async () => {
    const attacker = await adminWithCompany();
    const victim = await adminWithCompany();
    // The attacker consents with their own provider account and keeps the callback URL unopened.
    const start = await attacker.browser.get('/api/connect/xero');
    const atProvider = await fetch(String(start.headers.location), { redirect: 'manual' });
    const back = new URL(String(atProvider.headers.get('location')));
    const callback = `${back.pathname}${back.search}`;

    // The victim's browser is made to open it (a link or a top-level redirect carries their cookies),
    // first with no flow of its own, then while a flow of its own is under way.
    const withoutFlow = await victim.browser.get(callback);
    expect(flash(String(withoutFlow.headers.location))).toEqual({ error: connectMessages.failed('Xero') });
    expect((await victim.browser.get('/api/connect/xero')).statusCode).toBe(302);
    const duringOwnFlow = await victim.browser.get(callback);
    expect(flash(String(duringOwnFlow.headers.location))).toHaveProperty('error');
    await world.settle();
    for (const tenantId of [victim.tenantId, attacker.tenantId]) {
      const { sellers } = await listTenantSellers(world.services.db, { tenantId, now: world.clock.now() });
      expect(sellers).toEqual([]);
    }
  });

  it('lets only tenant admins start a connection, and Stripe only platform admins', async () => {
    const owner = await adminWithCompany();
    const guest = await world.browser().get('/api/connect/qbo');
    expect(guest.statusCode).toBe(401);
    const loner = await signUp(world, { name: 'loner' });
    expect((await loner.browser.get('/api/connect/qbo')).statusCode).toBe(403);
    expect((await owner.browser.get('/api/connect/stripe')).statusCode).toBe(403);

    const admin = await platformAdmin(world);
    await admin.browser.post('/api/auth/switchTenant', { tenantId: owner.tenantId });
    const stripe = await followProviderFlow(admin.browser, '/api/connect/stripe');
    expect(stripe.location).toBe('/platforms?connected=stripe');
  });

  it('answers a malformed callback with 422 field errors', async () => {
    const response = await world
      .browser()
      .get('/api/connect/qbo/callback?code=abc&state=xyz&realmId=not-a-number');
    expect(response.statusCode).toBe(422);
    expect(ErrorResponse.parse(response.json()).properties).toHaveProperty('realmId');
  });
});
