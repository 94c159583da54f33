import { SessionResponse, loginMessages, recoverySentMessage } from '../../contracts/auth';
import { ErrorResponse } from '../../contracts/errors';
import { useGatewayWorld } from './gateway-world';
import { companyFor, platformAdmin, signUp, strongPassword } from './fixtures';
import { pathOf, waitForEmail } from './maildev';

const world = useGatewayWorld(__filename);
let admin: Promise<Awaited<ReturnType<typeof platformAdmin>>> | undefined;
/** The file's one platform admin (their address is the world's only admin email). */
const adminBrowser = async () => (await (admin ??= platformAdmin(world))).browser;

describe('auth: register, sign in, sessions', () => {
  it('registers, answers the session, and refuses the same email again with not_unique', async () => {
    const { browser, session, email } = await signUp(world, {
      name: 'ada',
      givenName: 'Ada',
      familyName: 'Lovelace',
    });
    expect(session.user).toMatchObject({
      Email: email,
      Name: 'Ada Lovelace',
      isPlatformAdmin: false,
      EmailVerified: false,
    });
    expect(session.tenant).toBeNull();
    const self = await browser.get('/api/auth/self');
    expect(SessionResponse.parse(self.json()).user.Email).toBe(email);

    const again = await world.browser().post('/api/auth/register', {
      givenName: 'Ada',
      familyName: 'Again',
      email: email.toUpperCase(),
      password: strongPassword,
    });
    expect(again.statusCode).toBe(422);
    expect(ErrorResponse.parse(again.json())).toMatchObject({
      message: 'The email is already in use.',
      properties: { email: 'not_unique' },
    });
  });

  it('answers a weak password and missing names with 422 field errors', async () => {
    const response = await world.browser().post('/api/auth/register', {
      givenName: '',
      familyName: 'X',
      email: world.email('weak'),
      password: 'short',
    });
    expect(response.statusCode).toBe(422);
    const body = ErrorResponse.parse(response.json());
    expect(body.properties).toMatchObject({
      givenName: 'First name is required',
      password: 'The supplied value is too short.',
    });
  });

  it('verifies the email through the emailed link, once', async () => {
    const { browser, email } = await signUp(world, { name: 'verify' });
    const mail = await waitForEmail(world.config, { to: email, subject: /Confirm your email/ });
    const link = mail.links.find((l) => l.includes('/api/auth/verify'));
    expect(link).toBeDefined();
    // Opened in the same browser, as a user clicking the link in their mail usually does.
    const followed = await browser.get(pathOf(link ?? ''));
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe('/email-verified');
    const self = SessionResponse.parse((await browser.get('/api/auth/self')).json());
    expect(self.user.EmailVerified).toBe(true);

    const tampered = await world.browser().get(`${pathOf(link ?? '')}x`);
    expect(tampered.headers.location).toBe('/verification-failed');
  });

  it('logs out, logs in with the password, and counts logins', async () => {
    const { browser, email, password } = await signUp(world, { name: 'login' });
    // The web app signs out with a POST; a GET (the spec's form) must carry the anti-forgery header.
    const out = await browser.post('/api/auth/logout', { reason: 'Session Idle' });
    expect(out.json()).toEqual({ loggedOut: true, reason: 'Session Idle' });
    expect((await browser.get('/api/auth/self')).statusCode).toBe(401);

    const wrong = await browser.post('/api/auth/login', { email, password: 'Wrong-password-1' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ message: loginMessages.invalidCredentials });

    const login = await browser.post('/api/auth/login', { email, password });
    expect(login.statusCode).toBe(200);
    const session = SessionResponse.parse(login.json());
    expect(session.user).toMatchObject({ Logins: 2, LastLoginMethod: 'password' });
  });

  it('locks an account for 30 minutes after five failures, with the spec text and Retry-After', async () => {
    const { email, password } = await signUp(world, { name: 'locked' });
    const browser = world.browser();
    for (let i = 0; i < 5; i += 1)
      await browser.post('/api/auth/login', { email, password: `Wrong-${i}-Password` });
    const locked = await browser.post('/api/auth/login', { email, password });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ message: loginMessages.tooManyAttempts });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(29 * 60);

    world.clock.advance(31 * 60_000);
    try {
      expect((await browser.post('/api/auth/login', { email, password })).statusCode).toBe(200);
    } finally {
      world.clock.reset();
    }
  });

  it('answers an unknown email exactly as a wrong password', async () => {
    const response = await world.browser().post('/api/auth/login', {
      email: world.email('nobody'),
      password: strongPassword,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ message: loginMessages.invalidCredentials });
  });

  it('refuses writes without the CSRF token', async () => {
    const response = await world.browser().request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: world.email('csrf'), password: strongPassword },
      withoutCsrf: true,
    });
    expect(response.statusCode).toBe(403);
  });

  it('switches only into companies the user belongs to; a platform admin anywhere', async () => {
    const owner = await signUp(world, { name: 'owner' });
    const tenantId = await companyFor(world, owner, { name: 'Owner Co' });
    const self = SessionResponse.parse((await owner.browser.get('/api/auth/self')).json());
    expect(self.tenant).toMatchObject({ Id: tenantId, Name: 'Owner Co' });
    expect(self.user.Role).toBe('ADMIN');

    const stranger = await signUp(world, { name: 'stranger' });
    const refused = await stranger.browser.post('/api/auth/switchTenant', { tenantId });
    expect(refused.statusCode).toBe(403);

    const platform = await (admin ??= platformAdmin(world));
    expect(platform.session.user.isPlatformAdmin).toBe(true);
    const switched = await platform.browser.post('/api/auth/switchTenant', { tenantId });
    expect(switched.statusCode).toBe(200);
    expect(SessionResponse.parse(switched.json()).user.Role).toBe('PLATFORM_ADMIN');
  });
});

describe('auth: disabled companies', () => {
  it('refuses the members of a disabled company on member routes', async () => {
    const owner = await signUp(world, { name: 'disabled-owner' });
    const tenantId = await companyFor(world, owner, { name: 'Soon Disabled Co' });
    expect((await owner.browser.get('/api/users')).statusCode).toBe(200);
    const admin = await adminBrowser();
    const disabled = await admin.delete(`/api/tenants/${tenantId}?reason=STOPPED_PAYING`);
    expect(disabled.statusCode).toBe(200);
    // Another user's change reaches the owner once the read models have it.
    await world.settle();
    expect((await owner.browser.get('/api/users')).statusCode).toBe(403);
  });
});

describe('auth: password recovery', () => {
  it('emails a single-use link valid for 30 minutes that leads to a mandatory reset', async () => {
    const { email } = await signUp(world, { name: 'recover' });
    const browser = world.browser();
    const answer = await browser.post('/api/auth/recoverPassword', { email });
    expect(answer.json()).toEqual({ message: recoverySentMessage });
    const mail = await waitForEmail(world.config, { to: email, subject: /Reset your/ });
    const link = pathOf(mail.links.find((l) => l.includes('/api/auth/recover')) ?? '');

    const opened = await browser.get(link);
    expect(opened.headers.location).toBe('/reset-password');
    const self = SessionResponse.parse((await browser.get('/api/auth/self')).json());
    expect(self.resetPasswordRequired).toBe(true);
    // Nothing else is reachable until the password is set.
    expect((await browser.get('/api/admin/streams/tenant-1/history')).statusCode).toBe(403);

    const reset = await browser.post('/api/auth/resetPassword', { password: 'Brand-new-Pass-9' });
    expect(reset.statusCode).toBe(200);
    const login = await world.browser().post('/api/auth/login', { email, password: 'Brand-new-Pass-9' });
    expect(login.statusCode).toBe(200);

    // Used once: the same link now fails.
    expect((await world.browser().get(link)).headers.location).toBe('/recovery-failed');
  });

  it('refuses a recovery link after 30 minutes', async () => {
    const { email } = await signUp(world, { name: 'expired' });
    await world.browser().post('/api/auth/recoverPassword', { email });
    const mail = await waitForEmail(world.config, { to: email, subject: /Reset your/ });
    const link = pathOf(mail.links.find((l) => l.includes('/api/auth/recover')) ?? '');
    world.clock.advance(31 * 60_000);
    try {
      expect((await world.browser().get(link)).headers.location).toBe('/recovery-failed');
    } finally {
      world.clock.reset();
    }
  });

  it('answers an unknown address the same as a known one', async () => {
    const response = await world.browser().post('/api/auth/recoverPassword', { email: world.email('ghost') });
    expect(response.json()).toEqual({ message: recoverySentMessage });
  });

  it('needs the current password to change it, and ends the other sessions', async () => {
    const { browser, email, password } = await signUp(world, { name: 'change' });
    const other = world.browser();
    await other.post('/api/auth/login', { email, password });
    const missing = await browser.post('/api/auth/resetPassword', { password: 'Another-Pass-7' });
    expect(missing.statusCode).toBe(422);
    expect(ErrorResponse.parse(missing.json()).properties).toEqual({
      currentPassword: 'required',
    });

    const changed = await browser.post('/api/auth/resetPassword', {
      password: 'Another-Pass-7',
      currentPassword: password,
    });
    expect(changed.statusCode).toBe(200);
    expect((await browser.get('/api/auth/self')).statusCode).toBe(200);
    expect((await other.get('/api/auth/self')).statusCode).toBe(401);
  });
});

// Invitations and logout: test/gateway/invitations.test.ts.
