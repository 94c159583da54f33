/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ServerMessage } from '../../../../contracts/live';
import type { SocketLike } from '../../live/live-socket';
import { FakeFetch } from '../../test-support/fake-fetch';
import { fieldErrorOf } from '../../test-support/field-error';
import { renderApp } from '../../test-support/render-app';
import { noSellers, oneSeller, sessionFixture, tenantRow } from '../../test-support/session-fixture';
import { listOf, tenantFixture } from '../../test-support/tenant-fixtures';

const admin = tenantRow({ Role: 'ADMIN' });
const subscribed = tenantFixture({
  Subscription: {
    Id: 1,
    BillingTenantId: 7,
    Plan: { id: 2, name: 'Growth', identifier: 'growth_business' },
    StartedAt: '2030-01-01T00:00:00.000Z',
    PaymentStatus: 'active',
    PaymentMethod: 'card',
  },
});

/** Every plan-gated connection (gateway/use-cases/platforms/plan-features.ts). */
const everyFeature = [
  'integrations/active_campaign',
  'integrations/hubspot',
  'integrations/hubspot_revops',
  'integrations/salesforce',
  'platforms/qbd_web_connector',
  'platforms/sage',
];

const platformsApi = () =>
  new FakeFetch()
    .on('GET /api/auth/self', { body: sessionFixture({ tenants: [admin] }) })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/tenants/7', { body: subscribed })
    .on('GET /api/tenants/7/features', { body: { Features: everyFeature } })
    .on('GET /api/sellers', { body: noSellers })
    .on('GET /api/integrations', { body: listOf([]) })
    .on('GET /api/jobs', { body: { jobs: [] } });

describe('the platforms page', () => {
  it('connects the demo platform and announces it', async () => {
    const fake = platformsApi().on('POST /api/sellers', { body: oneSeller.rows[0] });
    renderApp({ path: '/platforms', fake });
    await screen.findByText('No Platforms Connected');
    fake.on('GET /api/sellers', { body: oneSeller });
    await userEvent.click(screen.getByRole('button', { name: 'Connect Demo platform' }));
    const modal = await screen.findByRole('dialog', { name: 'Connected' });
    expect(within(modal).getByText(/usually within 10 minutes/)).toBeInTheDocument();
    expect(fake.callsTo('POST /api/sellers')[0]?.body).toEqual({ provider: 'DEMO' });
    await screen.findByText('Acme Demo');
    expect(screen.getByText('Pending sync...')).toBeInTheDocument();
    expect(screen.getByText('Syncing...')).toBeInTheDocument();
    // Once a platform is connected its cards go away for a company admin.
    expect(screen.queryByTestId('connect-card-QBO')).not.toBeInTheDocument();
  });

  it('shows a revoked QuickBooks Online seller as Authentication Revoked with a reconnect link', async () => {
    const revoked = {
      ...oneSeller.rows[0],
      CompanyName: 'Craig’s Design and Landscaping',
      Provider: 'QBO',
      AuthMethod: 'oauth2',
      AuthToken: { Owner: null, RefreshedAt: null, Status: 'REVOKED' },
      Status: { kind: 'revoked', text: 'Authentication Revoked' },
      ProgressBadge: null,
    };
    renderApp({
      path: '/platforms',
      fake: platformsApi().on('GET /api/sellers', { body: { ...oneSeller, rows: [revoked] } }),
    });
    await screen.findByText('Authentication Revoked');
    expect(screen.getByRole('link', { name: 'Reconnect' })).toHaveAttribute('href', '/api/connect/qbo');
  });

  it('opens the error dialog from a redirect flash', async () => {
    renderApp({
      path: '/platforms?error=There%20was%20an%20error%20connecting%20Xero.',
      fake: platformsApi(),
    });
    const dialog = await screen.findByRole('alertdialog', { name: 'Connection failed' });
    expect(within(dialog).getByText('There was an error connecting Xero.')).toBeInTheDocument();
  });

  it('asks before disconnecting, with the catalogue text', async () => {
    const fake = platformsApi()
      .on('GET /api/sellers', { body: oneSeller })
      .on('POST /api/sellers/1/disconnect', { body: oneSeller.rows[0] });
    renderApp({ path: '/platforms', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Disconnect Acme Demo' });
    expect(
      within(dialog).getByText('Are you sure? You will need to contact Support to revert this action.'),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(fake.callsTo('POST /api/sellers/1/disconnect')).toHaveLength(1));
  });

  it('requires the Sage credentials, and shows a refusal inside the modal without signing out', async () => {
    const fake = platformsApi().on('POST /api/sellers', {
      status: 403,
      body: { code: 'forbidden', message: 'Upgrade plan to access' },
    });
    fake.on('POST /api/auth/logout', { body: { loggedOut: true, reason: null } });
    renderApp({ path: '/platforms', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Connect Sage Intacct' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to Sage' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    expect(within(dialog).getByText('Company ID is required')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/sellers')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('Company ID'), 'ACME');
    await userEvent.type(within(dialog).getByLabelText('User ID'), 'api');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'secret');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await within(dialog).findByText(
      'There was an error while connecting to Sage Intacct with those credentials. Upgrade plan to access',
    );
    expect(fake.callsTo('POST /api/auth/logout')).toHaveLength(0);
  });
});

describe('the QuickBooks Desktop flow', () => {
  afterEach(() => jest.useRealTimers());

  it('checks the .qbw path, then shows the one-time password with a copy button enabled after 3 seconds', async () => {
    const fake = platformsApi().on('POST /api/qbd/config', {
      body: { Id: 5, xml: '<QBWCXML/>', password: 'otp-123', fileName: 'ledgerwise.qwc' },
    });
    URL.createObjectURL = jest.fn(() => 'blob:qwc');
    URL.revokeObjectURL = jest.fn();
    renderApp({ path: '/platforms', fake });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Get Web Connector file for QuickBooks Desktop' }),
    );
    const form = await screen.findByRole('dialog', { name: 'QuickBooks Desktop Web Connector' });
    await userEvent.type(within(form).getByLabelText('Company file path'), 'a.qbb');
    await userEvent.click(within(form).getByRole('button', { name: 'Download Web Connector file' }));
    expect(fieldErrorOf('Company file path', form)).toBe('The company file path must end in .qbw.');
    expect(fake.callsTo('POST /api/qbd/config')).toHaveLength(0);

    await userEvent.clear(within(form).getByLabelText('Company file path'));
    jest.useFakeTimers({ advanceTimers: true });
    await userEvent.click(within(form).getByRole('button', { name: 'Download Web Connector file' }));
    const modal = await screen.findByRole('dialog', { name: 'Your Web Connector password' });
    expect(within(modal).getByTestId('qbd-password').textContent).toBe('otp-123');
    expect(fake.callsTo('POST /api/qbd/config')[0]?.body).toEqual({});
    const copy = within(modal).getByRole<HTMLButtonElement>('button', { name: 'Copy password' });
    expect(copy.disabled).toBe(true);
    act(() => jest.advanceTimersByTime(3000));
    expect(copy.disabled).toBe(false);
  });
});

describe('the QuickBooks Desktop form', () => {
  it('shows a server error against the company file path', async () => {
    const fake = platformsApi().on('POST /api/qbd/config', {
      status: 422,
      body: {
        code: 'validation',
        message: 'The operation failed. Please validate your selection and try again.',
        properties: { companyFilename: 'invalid' },
      },
    });
    renderApp({ path: '/platforms', fake });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Get Web Connector file for QuickBooks Desktop' }),
    );
    const form = await screen.findByRole('dialog', { name: 'QuickBooks Desktop Web Connector' });
    await userEvent.type(within(form).getByLabelText('Company file path'), 'C:\\acme.QBW');
    await userEvent.click(within(form).getByRole('button', { name: 'Download Web Connector file' }));
    await waitFor(() => expect(fieldErrorOf('Company file path', form)).toBe('This value is not valid.'));
    expect(fake.callsTo('POST /api/qbd/config')[0]?.body).toEqual({ companyFilename: 'C:\\acme.QBW' });
    // Every server error sits on the field, so no form-level message repeats it.
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
  });
});

/** The live socket, held open so a test can push server messages. */
class FakeLiveSocket implements SocketLike {
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  send() {}
  close() {}
  receive(message: ServerMessage) {
    act(() => this.onmessage?.({ data: JSON.stringify(message) }));
  }
}

const connectButton = (card: string) =>
  within(screen.getByTestId(`connect-card-${card}`)).getByRole<HTMLButtonElement>('button');

describe('plan gating of the connect cards', () => {
  it("locks the cards the plan lacks with Upgrade plan to access, following the tenant's features", async () => {
    const fake = platformsApi().on('GET /api/tenants/7/features', {
      body: { Features: ['platforms/sage'] },
    });
    renderApp({ path: '/platforms', fake });
    const qbd = await screen.findByTestId('connect-card-QBD');
    await waitFor(() => expect(within(qbd).getByText('Upgrade plan to access')).toBeInTheDocument());
    const locked = within(qbd).getByRole<HTMLButtonElement>('button', {
      name: 'Get Web Connector file for QuickBooks Desktop',
    });
    expect(locked.disabled).toBe(true);
    expect(locked.getAttribute('aria-describedby')).toBe(within(qbd).getByText('Upgrade plan to access').id);
    for (const card of ['HUBSPOT', 'HUBSPOT_REVOPS', 'SALESFORCE', 'ACTIVE_CAMPAIGN'])
      expect(
        within(screen.getByTestId(`connect-card-${card}`)).getByText('Upgrade plan to access'),
      ).toBeInTheDocument();

    const sage = screen.getByTestId('connect-card-SAGE');
    expect(connectButton('SAGE').disabled).toBe(false);
    expect(within(sage).queryByText('Upgrade plan to access')).not.toBeInTheDocument();
    // Cards no plan gates stay open.
    expect(screen.getByRole('link', { name: 'Connect QuickBooks Online' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connect Google' })).toBeInTheDocument();
    expect(fake.callsTo('GET /api/tenants/7/features')).toHaveLength(1);
  });

  it('unlocks a card when a billing notice says the plan changed', async () => {
    const socket = new FakeLiveSocket();
    const fake = platformsApi().on('GET /api/tenants/7/features', { body: { Features: [] } });
    renderApp({ path: '/platforms', fake, openLiveSocket: () => socket });
    const sage = await screen.findByTestId('connect-card-SAGE');
    await waitFor(() => expect(within(sage).getByText('Upgrade plan to access')).toBeInTheDocument());

    fake.on('GET /api/tenants/7/features', { body: { Features: ['platforms/sage'] } });
    socket.receive({ type: 'invalidate', entity: 'billing', id: 12, tenantId: 7, position: 3 });
    await waitFor(() => expect(within(sage).queryByText('Upgrade plan to access')).not.toBeInTheDocument());
    expect(connectButton('SAGE').disabled).toBe(false);
    expect(fake.callsTo('GET /api/tenants/7/features')).toHaveLength(2);
  });

  it('keeps the gated cards shut, without a hint, until the plan is known', async () => {
    // The features answer is held back until the rest of the page has loaded.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const fake = platformsApi();
    const answer = fake.fetch;
    const fetchHoldingFeatures: typeof fetch = (input, init) =>
      typeof input === 'string' && input.endsWith('/features')
        ? held.then(() => answer(input, init))
        : answer(input, init);
    renderApp({ path: '/platforms', fake: Object.assign(fake, { fetch: fetchHoldingFeatures }) });
    await screen.findByText('No Platforms Connected');
    expect(connectButton('SAGE').disabled).toBe(true);
    expect(
      within(screen.getByTestId('connect-card-SAGE')).queryByText('Upgrade plan to access'),
    ).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect Demo platform' })).toBeInTheDocument();
    release();
    await waitFor(() => expect(connectButton('SAGE').disabled).toBe(false));
  });

  it('on a demo tenant hides the platforms and locks the integrations with Disabled for the demo client', async () => {
    const demo = tenantRow({ Role: 'ADMIN', Name: 'Demo Client', UsageType: 'DEMO' });
    const fake = platformsApi().on('GET /api/auth/self', { body: sessionFixture({ tenants: [demo] }) });
    renderApp({ path: '/platforms', fake });
    const hubspot = await screen.findByTestId('connect-card-HUBSPOT');
    expect(within(hubspot).getByText('Disabled for the demo client')).toBeInTheDocument();
    expect(connectButton('HUBSPOT').disabled).toBe(true);
    expect(connectButton('ACTIVE_CAMPAIGN').disabled).toBe(true);
    expect(
      within(screen.getByTestId('connect-card-SALESFORCE')).getByText('Disabled for the demo client'),
    ).toBeInTheDocument();
    for (const card of ['QBD', 'QBO', 'SAGE', 'DEMO', 'STRIPE'])
      expect(screen.queryByTestId(`connect-card-${card}`)).not.toBeInTheDocument();
    // A demo tenant has every plan feature, so the plan is not asked.
    expect(fake.callsTo('GET /api/tenants/7/features')).toHaveLength(0);
  });

  it('shows a platform admin Stripe and the platforms beside a seller, still behind the plan', async () => {
    const fake = platformsApi()
      .on('GET /api/auth/self', {
        body: sessionFixture({ tenants: [admin], user: { isPlatformAdmin: true } }),
      })
      .on('GET /api/sellers', { body: oneSeller })
      .on('GET /api/tenants/7/features', { body: { Features: ['integrations/salesforce'] } });
    renderApp({ path: '/platforms', fake });
    await screen.findByText('Acme Demo');
    expect(await screen.findByRole('link', { name: 'Connect Stripe' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connect Xero' })).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(screen.getByTestId('connect-card-SAGE')).getByText('Upgrade plan to access'),
      ).toBeInTheDocument(),
    );
    expect(screen.getByRole('link', { name: 'Connect Salesforce' })).toBeInTheDocument();
  });
});
