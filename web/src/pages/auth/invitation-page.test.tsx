/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeFetch } from '../../test-support/fake-fetch';
import { renderApp } from '../../test-support/render-app';
import { noSellers, sessionFixture } from '../../test-support/session-fixture';

const inviteId = '0b7e4c1e-6f3a-4d2b-9a55-1c2d3e4f5a6b';
const token = 'A'.repeat(40) + '-_b';
const emailedLink = `/invitation#invite=${inviteId}&token=${token}`;

const guestApi = () =>
  new FakeFetch()
    .on('GET /api/auth/self', { status: 401, body: { message: 'Unauthorized', code: 'unauthorized' } })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('POST /api/auth/logout', { body: { loggedOut: true, reason: null } })
    .on('GET /api/sellers', { body: noSellers });

const acceptButton = () => screen.findByRole('button', { name: 'Accept invitation' });

// Whole-app renders with a login on the way: slow on a loaded machine, not a timing assertion.
jest.setTimeout(30_000);

afterEach(() => window.sessionStorage.clear());

describe('the invitation page', () => {
  it('accepts nothing on opening; Accept posts the link with the anti-forgery header', async () => {
    const fake = guestApi().on('POST /api/auth/invitation/accept', {
      body: { outcome: 'joined', tenantId: 7, next: '/reset-password' },
    });
    const app = renderApp({ path: emailedLink, fake });
    await acceptButton();
    // The token leaves the address: a reload or a shared screen shows /invitation alone.
    await waitFor(() => expect(app.router.state.location.hash).toBe(''));
    expect(fake.callsTo('POST /api/auth/invitation/accept')).toHaveLength(0);

    fake.on('GET /api/auth/self', { body: sessionFixture({ resetPasswordRequired: true }) });
    await userEvent.click(await acceptButton());
    await waitFor(() => expect(app.location()).toBe('/reset-password'));
    const [call] = fake.callsTo('POST /api/auth/invitation/accept');
    expect(call?.body).toEqual({ inviteId, token });
    expect(call?.headers['x-csrf-token']).toBe('csrf-1');
  });

  it('sends the owner of an existing account to log in, then resumes with the kept link', async () => {
    const fake = guestApi().on('POST /api/auth/invitation/accept', {
      body: { outcome: 'signInRequired', email: 'ada@example.com' },
    });
    const app = renderApp({ path: emailedLink, fake });
    await userEvent.click(await acceptButton());
    await userEvent.click(await screen.findByRole('link', { name: 'Log in to accept' }));
    await screen.findByRole('heading', { name: 'Log in' });
    expect(app.location()).toBe('/login?returnTo=%2Finvitation');

    fake.on('POST /api/auth/login', { body: sessionFixture() }).on('POST /api/auth/invitation/accept', {
      body: { outcome: 'joined', tenantId: 7, next: '/overview' },
    });
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Secret123');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await userEvent.click(await acceptButton());
    await waitFor(() => expect(app.location()).toBe('/overview'));
    expect(fake.callsTo('POST /api/auth/invitation/accept').map((c) => c.body)).toEqual([
      { inviteId, token },
      { inviteId, token },
    ]);
  });

  it('shows why another account cannot accept, and offers to sign out', async () => {
    const fake = guestApi()
      .on('GET /api/auth/self', { body: sessionFixture() })
      .on('POST /api/auth/invitation/accept', {
        status: 403,
        body: { message: 'This invitation was sent to a different email address.', code: 'forbidden' },
      });
    const app = renderApp({ path: emailedLink, fake });
    await userEvent.click(await acceptButton());
    await screen.findByText('This invitation was sent to a different email address.');
    expect(app.location()).toBe('/invitation');
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(fake.callsTo('POST /api/auth/logout')).toHaveLength(1));
  });

  it('moves to the invite-cancelled page when the invitation is no longer valid', async () => {
    const fake = guestApi().on('POST /api/auth/invitation/accept', {
      status: 409,
      body: { message: 'Oops! It seems that this invitation is no longer valid.', code: 'conflict' },
    });
    const app = renderApp({ path: emailedLink, fake });
    await userEvent.click(await acceptButton());
    await screen.findByText('Oops! It seems that this invitation is no longer valid.');
    expect(app.location()).toBe('/invite-cancelled');
    expect(window.sessionStorage.length).toBe(0);
  });
});
