/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeFetch } from '../test-support/fake-fetch';
import { renderApp } from '../test-support/render-app';
import { noSellers, oneSeller, sessionFixture, tenantRow } from '../test-support/session-fixture';

const api = (session = sessionFixture()) =>
  new FakeFetch()
    .on('GET /api/auth/self', { body: session })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('POST /api/auth/logout', { body: { loggedOut: true, reason: null } })
    .on('GET /api/sellers', { body: noSellers });

describe('the dashboard shell', () => {
  it('shows the tenant id on the name for platform admins only', async () => {
    renderApp({ path: '/overview', fake: api(sessionFixture({ user: { isPlatformAdmin: true } })) });
    expect((await screen.findByRole('tooltip', { hidden: true })).textContent).toBe('Tenant ID: 7');
  });

  it('does not show the tenant id to anyone else', async () => {
    renderApp({ path: '/overview', fake: api() });
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(screen.getAllByText('Acme Ltd').length).toBeGreaterThan(0);
    expect(screen.queryByText(/Tenant ID/)).not.toBeInTheDocument();
  });

  it('is green with Go To Clients for an advisor in their firm, black with Switch Companies otherwise', async () => {
    const firm = tenantRow({
      Id: 9,
      Name: 'Ledger & Co',
      Classification: 'FIRM',
      Role: 'ADMIN',
      MembershipClassification: 'ADVISOR',
    });
    const first = renderApp({ path: '/advisor/overview', fake: api(sessionFixture({ tenants: [firm] })) });
    const sidebar = await screen.findByTestId('sidebar');
    expect(sidebar.className).toContain('bg-emerald-800');
    expect(within(sidebar).getByRole('link', { name: 'Go To Clients' })).toBeInTheDocument();
    first.unmount();

    const admin = tenantRow({ Role: 'ADMIN' });
    renderApp({ path: '/overview', fake: api(sessionFixture({ tenants: [admin] })) });
    const plain = await screen.findByTestId('sidebar');
    expect(plain.className).toContain('bg-gray-950');
    expect(within(plain).getByRole('button', { name: 'Switch Companies' })).toBeInTheDocument();
    expect(within(plain).queryByRole('link', { name: 'Go To Clients' })).not.toBeInTheDocument();
  });

  it('shows Reports once the tenant has a connected seller', async () => {
    const fake = api().on('GET /api/sellers', { body: oneSeller });
    renderApp({ path: '/overview', fake });
    await screen.findByRole('link', { name: 'Reports' });
  });

  it('switches tenant: replaces the session, drops the old tenant data and opens the dashboard', async () => {
    const acme = tenantRow();
    const globex = tenantRow({ Id: 8, Name: 'Globex' });
    const fake = api(sessionFixture({ tenants: [acme, globex] }));
    fake.on('POST /api/auth/switchTenant', { body: sessionFixture({ tenants: [globex, acme] }) });
    const app = renderApp({ path: '/platforms', fake });
    await screen.findByRole('heading', { name: 'Connected platforms' });
    const sellerReadsBefore = fake.callsTo('GET /api/sellers').length;

    await userEvent.selectOptions(screen.getByLabelText('Switch company'), '8');

    await waitFor(() => expect(app.location()).toBe('/overview'));
    expect(fake.callsTo('POST /api/auth/switchTenant')[0]?.body).toEqual({ tenantId: 8 });
    expect((await screen.findAllByText('Globex')).length).toBeGreaterThan(0);
    await waitFor(() => expect(fake.callsTo('GET /api/sellers').length).toBeGreaterThan(sellerReadsBefore));
    const cachedTenants = app.services.queryClient
      .getQueryCache()
      .getAll()
      .map((query) => query.queryKey)
      .filter((key) => key[0] === 'tenant')
      .map((key) => key[1]);
    expect(new Set(cachedTenants)).toEqual(new Set([8]));
  });

  it('says so when a switch fails', async () => {
    const fake = api(sessionFixture({ tenants: [tenantRow(), tenantRow({ Id: 8, Name: 'Globex' })] }));
    fake.on('POST /api/auth/switchTenant', { status: 404, body: { message: 'gone', code: 'not_found' } });
    renderApp({ path: '/overview', fake });
    await userEvent.selectOptions(await screen.findByLabelText('Switch company'), '8');
    await screen.findByText('There was an error while switching to a different tenant.');
  });

  it('opens a mobile menu with Profile and Sign out', async () => {
    const fake = api();
    renderApp({ path: '/overview', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    const menu = document.getElementById('mobile-menu')!;
    expect(within(menu).getByRole('link', { name: 'Profile' })).toBeInTheDocument();
    await userEvent.click(within(menu).getByRole('button', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Log in' });
    expect(fake.callsTo('POST /api/auth/logout')).toHaveLength(1);
  });
});

describe('the idle session', () => {
  afterEach(() => jest.useRealTimers());

  it('tells the server about mouse activity at most every 30 s, so its idle clock keeps up', async () => {
    jest.useFakeTimers();
    const fake = api(sessionFixture({ idleTimeoutSeconds: 900 }));
    renderApp({ path: '/overview', fake });
    await screen.findByRole('heading', { name: 'Dashboard' });
    const asked = () => fake.callsTo('GET /api/auth/self').length;
    const before = asked();

    await act(() => jest.advanceTimersByTimeAsync(10_000));
    fireEvent.mouseMove(window);
    await act(() => jest.advanceTimersByTimeAsync(100));
    expect(asked()).toBe(before);

    // Mouse movement alone, no page request: the keep-alive is what moves the server's deadline.
    await act(() => jest.advanceTimersByTimeAsync(21_000));
    fireEvent.mouseMove(window);
    await waitFor(() => expect(asked()).toBe(before + 1));
    fireEvent.mouseMove(window);
    await act(() => jest.advanceTimersByTimeAsync(100));
    expect(asked()).toBe(before + 1);
  });

  it('warns a minute before the idle logout, clears on mouse movement, then logs out with reason Session Idle', async () => {
    jest.useFakeTimers();
    const fake = api(sessionFixture({ idleTimeoutSeconds: 180 }));
    renderApp({ path: '/overview', fake });
    await screen.findByRole('heading', { name: 'Dashboard' });
    const warning = 'Your session is about to expire in 1 minute due to inactivity.';

    act(() => jest.advanceTimersByTime(100_000));
    expect(screen.queryByText(warning)).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(21_000));
    expect(screen.getByText(warning)).toBeInTheDocument();

    fireEvent.mouseMove(window);
    act(() => jest.advanceTimersByTime(1_000));
    expect(screen.queryByText(warning)).not.toBeInTheDocument();

    // Async: the logout call and the redirect that follows run between the timers.
    await act(() => jest.advanceTimersByTimeAsync(181_000));
    await screen.findByText('You were signed out because your session was idle. Please log in again.');
    expect(fake.callsTo('POST /api/auth/logout')[0]?.body).toEqual({ reason: 'Session Idle' });
  });
});
