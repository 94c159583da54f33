import { providerSignInMessages } from '../../contracts/api/oidc';
import { SessionResponse } from '../../contracts/auth';
import { ErrorResponse } from '../../contracts/errors';
import { pointProvidersAt, startLocalOAuthServer, type LocalOAuthServer } from '../oauth/local-oauth-server';
import { followProviderFlow } from '../oauth/redirect-chain';
import { signUp } from './fixtures';
import { useGatewayWorld } from './gateway-world';
import { userStream } from '../../contracts/stream-ids';

const world = useGatewayWorld(__filename);
let provider: LocalOAuthServer;

beforeAll(async () => {
  provider = await startLocalOAuthServer({ publicUrl: world.config.PUBLIC_URL });
  pointProvidersAt(world.config, provider);
});
afterAll(() => provider.close());
afterEach(() => world.clock.reset());

const person = (name: string, extra: { email_verified?: boolean; xms_edov?: boolean } = {}) => ({
  sub: `sub-${name}`,
  email: world.email(name),
  given_name: name,
  family_name: 'Oidc',
  email_verified: true,
  ...extra,
});

const loginError = (location: string) => new URL(location, 'http://x').searchParams.get('error');

const selfOf = async (browser: ReturnType<typeof world.browser>) => {
  const self = await browser.get('/api/auth/self');
  return self.statusCode === 200 ? SessionResponse.parse(self.json()) : null;
};

describe('sign-up and sign-in with Google and Microsoft (OIDC, PKCE)', () => {
  it('signs a new Google user up, carrying the sign-up parameters, and opens a session', async () => {
    const ada = person('ada.google');
    provider.setUser(ada);
    const browser = world.browser();
    const { start, location } = await followProviderFlow(
      browser,
      '/api/auth/google/signup?referrer=partner-site&planIdentifier=free_business&landingPage=undefined',
    );
    const authorize = new URL(String(start.headers.location));
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('scope')).toBe('openid email profile');
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(location).toBe('/overview');
    expect(browser.cookies.has('lw_login')).toBe(true);

    const self = await selfOf(browser);
    expect(self?.user).toMatchObject({
      Email: ada.email,
      Name: 'ada.google Oidc',
      AuthProvider: 'google',
      LastLoginMethod: 'google',
      EmailVerified: true,
    });
    const events = await world.services.decode(
      await world.services.writeSide.store.readStream(userStream(self?.user.Id ?? 0)),
    );
    expect(events[0]?.data).toMatchObject({
      Referrer: 'partner-site',
      PlanIdentifier: 'free_business',
      LandingPage: null,
      PasswordHash: null,
    });
  });

  it('signs an existing user in by their verified email, without a second account', async () => {
    const existing = await signUp(world, { name: 'bob.existing' });
    provider.setUser({ ...person('bob.existing'), email: existing.email.toUpperCase() });
    const browser = world.browser();
    const { location } = await followProviderFlow(browser, '/api/auth/google/login');
    expect(location).toBe('/overview');
    const self = await selfOf(browser);
    expect(self?.user.Id).toBe(existing.session.user.Id);
    expect(self?.user).toMatchObject({ LastLoginMethod: 'google', AuthProvider: 'password' });
  });

  it('returns to the path the login started from', async () => {
    provider.setUser(person('cleo.return'));
    const { location } = await followProviderFlow(
      world.browser(),
      '/api/auth/microsoft/login?returnTo=%2Fplatforms',
    );
    expect(location).toBe('/platforms');
  });

  it('signs a Microsoft user up with an unverified address, but never into an existing account with one', async () => {
    provider.setUser(person('dan.microsoft', { email_verified: undefined }));
    const browser = world.browser();
    const { location } = await followProviderFlow(browser, '/api/auth/microsoft/signup');
    expect(location).toBe('/overview');
    expect((await selfOf(browser))?.user).toMatchObject({ AuthProvider: 'microsoft', EmailVerified: false });

    const victim = await signUp(world, { name: 'eve.victim' });
    provider.setUser({ ...person('eve.victim'), email: victim.email, email_verified: false });
    const attacker = world.browser();
    const refused = await followProviderFlow(attacker, '/api/auth/microsoft/login');
    expect(loginError(refused.location)).toBe(providerSignInMessages.unverifiedEmail);
    expect(await selfOf(attacker)).toBeNull();

    // Microsoft's xms_edov claim (the domain owner verified the address) is trusted.
    provider.setUser({
      ...person('eve.victim'),
      email: victim.email,
      email_verified: undefined,
      xms_edov: true,
    });
    const owner = world.browser();
    expect((await followProviderFlow(owner, '/api/auth/microsoft/login')).location).toBe('/overview');
    expect((await selfOf(owner))?.user.Id).toBe(victim.session.user.Id);
  });

  it('refuses a callback whose state was tampered with, or that another browser started', async () => {
    provider.setUser(person('fay.state'));
    const browser = world.browser();
    const tampered = await followProviderFlow(browser, '/api/auth/google/login', {
      callbackUrl: (url) => url.searchParams.set('state', 'forged-state-forged-state'),
    });
    expect(tampered.location).toBe(`/login?error=${encodeURIComponent(providerSignInMessages.failed)}`);
    expect(await selfOf(browser)).toBeNull();

    // A callback link planted in another browser (login CSRF) has no flow cookie there.
    const start = await world.browser().get('/api/auth/google/login');
    const atProvider = await fetch(String(start.headers.location), { redirect: 'manual' });
    const planted = new URL(String(atProvider.headers.get('location')));
    const victim = world.browser();
    const answer = await victim.get(`${planted.pathname}${planted.search}`);
    expect(loginError(String(answer.headers.location))).toBe(providerSignInMessages.failed);
    expect(await selfOf(victim)).toBeNull();
  });

  it('refuses an ID token whose nonce is not the one the flow sent', async () => {
    provider.setUser(person('gus.nonce'));
    const browser = world.browser();
    const { location } = await followProviderFlow(browser, '/api/auth/google/login', {
      authorizeUrl: (url) => url.searchParams.set('nonce', 'a-nonce-the-gateway-never-sent'),
    });
    expect(loginError(location)).toBe(providerSignInMessages.failed);
    expect(await selfOf(browser)).toBeNull();
  });

  it('sends the PKCE verifier: a code issued for another challenge is refused by the provider', async () => {
    provider.setUser(person('hal.pkce'));
    const browser = world.browser();
    const refusedBefore = provider.refusals.length;
    const { location } = await followProviderFlow(browser, '/api/auth/microsoft/login', {
      authorizeUrl: (url) =>
        url.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
    });
    expect(loginError(location)).toBe(providerSignInMessages.failed);
    expect(provider.refusals.slice(refusedBefore)).toEqual([
      expect.objectContaining({ error: 'invalid_grant', reason: 'PKCE verification failed' }),
    ]);
    expect(await selfOf(browser)).toBeNull();
  });

  it('answers a cancelled consent and an expired flow with readable messages', async () => {
    provider.failNextAuthorization('access_denied');
    const cancelled = await followProviderFlow(world.browser(), '/api/auth/google/login');
    expect(loginError(cancelled.location)).toBe(providerSignInMessages.cancelled);

    provider.setUser(person('ivy.slow'));
    const browser = world.browser();
    const start = await browser.get('/api/auth/google/login');
    const atProvider = await fetch(String(start.headers.location), { redirect: 'manual' });
    const back = new URL(String(atProvider.headers.get('location')));
    world.clock.advance(11 * 60 * 1000);
    const late = await browser.get(`${back.pathname}${back.search}`);
    expect(loginError(String(late.headers.location))).toBe(providerSignInMessages.expired);
  });

  it('answers bad query parameters with 422 field errors', async () => {
    const outside = await world.browser().get('/api/auth/google/login?returnTo=%2F%2Fevil.example');
    expect(outside.statusCode).toBe(422);
    expect(ErrorResponse.parse(outside.json()).properties).toHaveProperty('returnTo');

    const unknown = await world.browser().get('/api/auth/microsoft/signup?admin=1');
    expect(unknown.statusCode).toBe(422);
  });
});
