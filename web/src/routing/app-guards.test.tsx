/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeFetch } from '../test-support/fake-fetch';
import { renderApp } from '../test-support/render-app';
import { noSellers, sessionFixture } from '../test-support/session-fixture';

const guestApi = () =>
  new FakeFetch()
    .on('GET /api/auth/self', { status: 401, body: { message: 'Unauthorized', code: 'unauthorized' } })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('POST /api/auth/logout', { body: { loggedOut: true, reason: null } });

const signedInApi = (session = sessionFixture()) =>
  guestApi().on('GET /api/auth/self', { body: session }).on('GET /api/sellers', { body: noSellers });

describe('the guards in the running app', () => {
  it('sends a guest to the login page with the return address, then logs in and goes there', async () => {
    const fake = guestApi().on('GET /api/sellers', { body: noSellers });
    const app = renderApp({ path: '/platforms', fake });
    await screen.findByRole('heading', { name: 'Log in' });
    expect(app.location()).toBe('/login?returnTo=%2Fplatforms');
    expect(document.title).toBe('Ledgerwise - Login');

    fake.on('POST /api/auth/login', { body: sessionFixture() });
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Secret123');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));

    await screen.findByRole('heading', { name: 'Connected platforms' });
    expect(app.location()).toBe('/platforms');
    expect(fake.callsTo('POST /api/auth/login')[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'Secret123',
    });
  });

  it('does nothing but name the missing fields when the login form is incomplete', async () => {
    const fake = guestApi();
    renderApp({ path: '/login', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Log in' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/auth/login')).toHaveLength(0);
  });

  it('shows the catalogue texts of a refused login', async () => {
    const fake = guestApi().on(
      'POST /api/auth/login',
      { status: 401, body: { message: 'Invalid credentials supplied.', code: 'unauthorized' } },
      {
        status: 429,
        body: { message: 'slow down', code: 'rate_limited' },
        headers: { 'retry-after': '1800' },
      },
    );
    renderApp({ path: '/login', fake });
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Invalid credentials supplied.');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByText('Too many login attempts. Please wait 30 minutes and try again.');
  });

  it('reminds the user of the method they last logged in with', async () => {
    window.localStorage.setItem('ledgerwise.lastLoginMethod', 'google');
    renderApp({ path: '/login', fake: guestApi() });
    await screen.findByText('Last time you logged in with Google.');
    window.localStorage.clear();
  });

  it('sends a signed-in user away from the guest-only pages', async () => {
    const app = renderApp({ path: '/register', fake: signedInApi() });
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(app.location()).toBe('/overview');
  });

  it('sends a user who must reset their password to /reset-password', async () => {
    const app = renderApp({
      path: '/platforms',
      fake: signedInApi(sessionFixture({ resetPasswordRequired: true })),
    });
    await screen.findByRole('heading', { name: 'Reset password' });
    expect(app.location()).toBe('/reset-password');
  });

  it('sends a standard user away from the settings and the admin area', async () => {
    const app = renderApp({ path: '/settings', fake: signedInApi() });
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(app.location()).toBe('/overview');
  });

  it('sends a standard user away from every admin and devops page, unknown ones too', async () => {
    for (const path of [
      '/admin',
      '/admin/overview',
      '/admin/tenants',
      '/admin/tenants/5',
      '/admin/tenants/5/audit?name=Acme',
      '/admin/no-such-page',
      '/devops/queues',
      '/devops/nothing',
    ]) {
      const app = renderApp({ path, fake: signedInApi() });
      await screen.findByRole('heading', { name: 'Dashboard' });
      expect(app.location()).toBe('/overview');
      app.unmount();
    }
  });

  it('sends a guest from an admin page to the login, keeping the page to return to', async () => {
    const app = renderApp({ path: '/admin/tenants/5/audit?name=Acme', fake: guestApi() });
    await screen.findByRole('heading', { name: 'Log in' });
    expect(app.location()).toBe(`/login?returnTo=${encodeURIComponent('/admin/tenants/5/audit?name=Acme')}`);
  });

  it('shows a platform admin the overview for /admin and the 404 page for unknown admin paths', async () => {
    const admin = () =>
      signedInApi(sessionFixture({ user: { isPlatformAdmin: true } })).on('GET /api/stats', {
        body: {
          stats: {
            partners: 3,
            activeSellers: 12,
            inactiveSellers: 4,
            customers: 0,
            invoices: 0,
            invoiceRevenue: 0,
            businesses: 20,
            firms: 2,
            directSubscriptions: 5,
            channelSubscriptions: 1,
            trialSubscriptions: 2,
            salesAllTime: 0,
          },
        },
      });
    const overview = renderApp({ path: '/admin', fake: admin() });
    await screen.findByRole('heading', { name: 'Admin Overview' });
    expect(overview.location()).toBe('/admin/overview');
    expect(document.title).toBe('Ledgerwise - Admin Overview');
    expect(await screen.findByText('12 / 4')).toBeInTheDocument();
    overview.unmount();

    const unknown = renderApp({ path: '/admin/no-such-page', fake: admin() });
    await screen.findByRole('heading', { name: '404 Not Found' });
    expect(unknown.location()).toBe('/admin/no-such-page');
    expect(document.title).toBe('Ledgerwise - Not Found');
  });

  it('logs the user out on the invite-cancelled page and shows its text', async () => {
    const fake = signedInApi();
    renderApp({ path: '/invite-cancelled', fake });
    await screen.findByText('Oops! It seems that this invitation is no longer valid.');
    expect(fake.callsTo('POST /api/auth/logout')).toHaveLength(1);
  });

  it('shows the 404 page with its texts and links for any other path', async () => {
    renderApp({ path: '/no/such/page', fake: guestApi() });
    await screen.findByRole('heading', { name: '404 Not Found' });
    expect(screen.getByText('Oops! It seems that this page does not exist.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe('/register');
    expect(document.title).toBe('Ledgerwise - Not Found');
  });

  it('logs out with reason Access Denied when an API call is refused', async () => {
    const fake = signedInApi().on('GET /api/sellers', {
      status: 403,
      body: { message: 'Access Denied', code: 'forbidden' },
    });
    const app = renderApp({ path: '/overview', fake });
    await screen.findByText('Access Denied. Please log in again.');
    expect(app.location()).toBe('/login?returnTo=%2Foverview');
    expect(fake.callsTo('POST /api/auth/logout')[0]?.body).toEqual({ reason: 'Access Denied' });
    expect(fake.callsTo('POST /api/auth/logout')[0]?.headers['x-csrf-token']).toBe('csrf-1');
  });

  it('redirects /reports to / while the tenant has no connected seller', async () => {
    const app = renderApp({ path: '/reports', fake: signedInApi() });
    await waitFor(() => expect(app.location()).toBe('/overview'));
  });
});
