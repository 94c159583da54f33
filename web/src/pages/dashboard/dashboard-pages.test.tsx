/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeFetch } from '../../test-support/fake-fetch';
import { renderApp } from '../../test-support/render-app';
import { noSellers, oneSeller, sessionFixture, tenantRow } from '../../test-support/session-fixture';
import { listOf, recipient, teamMember, tenantFixture } from '../../test-support/tenant-fixtures';

const admin = tenantRow({ Role: 'ADMIN' });

const business = (input: { logins?: number } = {}) =>
  new FakeFetch()
    .on('GET /api/auth/self', {
      body: sessionFixture({ tenants: [admin], user: { Logins: input.logins ?? 1 } }),
    })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/tenants/7', { body: tenantFixture() })
    .on('GET /api/sellers', { body: noSellers })
    .on('GET /api/subscriptions', { body: listOf([]) })
    .on('GET /api/users', (call) =>
      call.url.includes('pending') ? { body: { invites: [] } } : { body: { members: [teamMember()] } },
    )
    .on('GET /api/integrations', { body: listOf([]) })
    .on('GET /api/jobs', { body: { jobs: [] } })
    .on('GET /api/browser/dashboard-progress', { body: { key: 'dashboard-progress', value: null } })
    .on('PUT /api/browser/dashboard-progress', (call) => ({
      body: { key: 'dashboard-progress', ...(call.body as object) },
    }));

const stepState = (key: string) => within(screen.getByTestId(`setup-step-${key}`));

afterEach(() => window.localStorage.clear());

describe('the business dashboard', () => {
  it('shows the setup steps of a new company and saves them as browser state', async () => {
    const fake = business();
    renderApp({ path: '/overview', fake });
    await screen.findByText('Set up your account');
    expect(stepState('account').getByText('Done')).toBeInTheDocument();
    expect(stepState('addPlatform').getByRole('link', { name: 'Connect' }).getAttribute('href')).toBe(
      '/platforms',
    );
    expect(stepState('firstReport').getByText('Not yet available')).toBeInTheDocument();
    expect(stepState('subscriptionPayment').getByText('Not yet available')).toBeInTheDocument();

    await waitFor(() => expect(fake.callsTo('PUT /api/browser/dashboard-progress')).toHaveLength(1));
    expect(fake.callsTo('PUT /api/browser/dashboard-progress')[0]?.body).toEqual({
      value: {
        addPlatform: 'pending',
        firstReport: 'disabled',
        recipient: 'pending',
        inviteUser: 'pending',
        subscriptionPayment: 'disabled',
      },
    });
    expect(JSON.parse(window.localStorage.getItem('ledgerwise:dashboard-progress:7')!)).toMatchObject({
      addPlatform: 'pending',
    });
  });

  it('keeps a No thanks: the step shows as skipped and is saved as dismissed', async () => {
    const fake = business();
    renderApp({ path: '/overview', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'No thanks: Invited user' }));
    expect(stepState('inviteUser').getByText('Skipped')).toBeInTheDocument();
    await waitFor(() =>
      expect(fake.callsTo('PUT /api/browser/dashboard-progress').at(-1)?.body).toMatchObject({
        value: { inviteUser: 'dismissed' },
      }),
    );
  });

  it('reads a dismissal saved on another device', async () => {
    const fake = business().on('GET /api/browser/dashboard-progress', {
      body: { key: 'dashboard-progress', value: { recipient: 'dismissed' } },
    });
    renderApp({ path: '/overview', fake });
    await screen.findByText('Set up your account');
    await waitFor(() => expect(stepState('recipient').getByText('Skipped')).toBeInTheDocument());
  });

  it('follows the platform step while the first sync runs, with its live progress', async () => {
    const fake = business()
      .on('GET /api/sellers', { body: { ...oneSeller, progress: 'syncing' } })
      .on('GET /api/jobs', {
        body: {
          jobs: [
            {
              Id: 40,
              Kind: 'sync',
              Type: 'populate',
              Status: 'running',
              TenantId: 7,
              SellerId: 1,
              Parameters: {},
              WorkflowId: 'sync-1',
              Progress: { stage: 'invoices', done: 120, total: 480, recordedAt: '2030-01-01T00:00:00.000Z' },
              Result: null,
              Failure: null,
              createdAt: '2030-01-01T00:00:00.000Z',
              startedAt: '2030-01-01T00:00:00.000Z',
              finishedAt: null,
            },
          ],
        },
      });
    renderApp({ path: '/overview', fake });
    await screen.findByText('Set up your account');
    expect(stepState('addPlatform').getByText('Syncing...')).toBeInTheDocument();
    const bars = await screen.findAllByRole('progressbar', { name: 'Syncing data: invoices 120 of 480' });
    expect(bars[0]?.getAttribute('aria-valuenow')).toBe('25');
  });

  it('shows the stat cards once setup is complete: team, recipients, integrations, trial days, payment', async () => {
    const startedAt = new Date(Date.now() + 10.5 * 24 * 60 * 60 * 1000).toISOString();
    const fake = business({ logins: 3 })
      .on('GET /api/tenants/7', {
        body: tenantFixture({
          Subscription: {
            Id: 1,
            BillingTenantId: 7,
            Plan: { id: 1, name: 'Free', identifier: 'free_business' },
            StartedAt: startedAt,
            PaymentStatus: 'trialing',
            PaymentMethod: 'card',
          },
          AdvisoryPartner: { Id: 4, Name: 'Ledger & Co' },
        }),
      })
      .on('GET /api/subscriptions', { body: listOf([recipient(), recipient({ Id: 2 })]) })
      .on('GET /api/users', (call) =>
        call.url.includes('pending')
          ? { body: { invites: [] } }
          : {
              body: {
                members: [
                  teamMember(),
                  teamMember({ Id: 5, Name: 'Grace Hopper', Membership: { Classification: 'ADVISOR' } }),
                ],
              },
            },
      );
    renderApp({ path: '/overview', fake });
    const teamCard = (await screen.findByText('Team members')).closest('div')!;
    expect(within(teamCard).getByText('2')).toBeInTheDocument();
    expect(screen.queryByText('Set up your account')).not.toBeInTheDocument();
    expect(
      within(screen.getByText('Trial days remaining').closest('div')!).getByText('10'),
    ).toBeInTheDocument();
    expect(within(screen.getByText('Payment method').closest('div')!).getByText('Card')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade plan' })).toBeInTheDocument();
    expect(screen.getByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByText('Ledger & Co')).toBeInTheDocument();
  });

  it('tells an admin that the last payment failed and sends them to the billing portal', async () => {
    const fake = business()
      .on('GET /api/tenants/7', {
        body: tenantFixture({
          Subscription: {
            Id: 1,
            BillingTenantId: 7,
            Plan: { id: 6, name: 'Growth', identifier: 'growth_business' },
            StartedAt: new Date(Date.now() - 40 * 86_400_000).toISOString(),
            PaymentStatus: 'past_due',
            PaymentMethod: 'card',
          },
        }),
      })
      .on('POST /api/billing/session', { body: { url: 'https://billing.example.test/session/1' } });
    const { services } = renderApp({ path: '/overview', fake });
    const leaveApp = jest.fn();
    services.leaveApp = leaveApp;
    expect(await screen.findByText('Your last payment failed')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Update payment method' }));
    await waitFor(() => expect(fake.callsTo('POST /api/billing/session')).toHaveLength(1));
    expect(fake.callsTo('POST /api/billing/session')[0]?.body).toEqual({ tenantId: 7 });
    await waitFor(() => expect(leaveApp).toHaveBeenCalledWith('https://billing.example.test/session/1'));
  });

  it('shows the demo card on a demo tenant, without setup steps', async () => {
    const demo = tenantRow({ UsageType: 'DEMO', Name: 'Demo Client' });
    const fake = business().on('GET /api/auth/self', { body: sessionFixture({ tenants: [demo] }) });
    renderApp({ path: '/overview', fake });
    await screen.findByText('You are exploring the Demo Client');
    expect(screen.queryByText('Set up your account')).not.toBeInTheDocument();
  });

  it('shows a synced seller’s revenue, payments and purchase gap in the company’s currency, month by month', async () => {
    const synced = {
      ...oneSeller,
      rows: [
        {
          ...oneSeller.rows[0],
          CollectionDate: '2026-11-01T10:00:00.000Z',
          MetricsDate: '2026-11-01T10:05:00.000Z',
          Progress: 'completed',
        },
      ],
    };
    const metric = (rows: { StartDate: string; Value: number }[]) => ({
      sellerId: 1,
      MetricsDate: '2026-11-01T10:05:00.000Z',
      rows: rows.map((row) => ({ ...row, Count: 1 })),
    });
    const fake = business()
      .on('GET /api/tenants/7', {
        body: tenantFixture({
          Settings: {
            ...tenantFixture().Settings,
            Reporting: { ...tenantFixture().Settings.Reporting, Currency: 'GBP' },
          },
        }),
      })
      .on('GET /api/sellers', { body: synced })
      .on('GET /api/metrics/sellers/1', (call) => {
        const url = new URL(call.url, 'http://x');
        const type = url.searchParams.get('type');
        const frequency = url.searchParams.get('frequency');
        if (frequency === 'TRAILING12MONTHS')
          return {
            body: {
              ...metric([
                { StartDate: '2026-10-01T00:00:00.000Z', Value: type === 'TOTAL_PAID' ? 900000 : 1250000 },
                {
                  StartDate: '2026-11-01T00:00:00.000Z',
                  Value:
                    type === 'AVG_DAYS_BETWEEN_PURCHASES' ? 3125 : type === 'TOTAL_PAID' ? 1000000 : 1500000,
                },
              ]),
              type,
              frequency,
            },
          };
        return {
          body: {
            ...metric([
              { StartDate: '2026-10-01T00:00:00.000Z', Value: type === 'TOTAL_PAID' ? 40000 : 50000 },
              { StartDate: '2026-11-01T00:00:00.000Z', Value: type === 'TOTAL_PAID' ? 10000 : 70000 },
            ]),
            type,
            frequency,
          },
        };
      });
    renderApp({ path: '/overview', fake });
    const card = within(await screen.findByRole('region', { name: 'Receivables: Acme Demo' }));
    // The figures arrive query by query, each re-rendering the card: wait for the element to stay.
    await waitFor(() => expect(card.getByText('£15,000')).toBeInTheDocument());
    expect(card.getByText('£10,000')).toBeInTheDocument();
    expect(card.getByText('31.3 days')).toBeInTheDocument();
    const table = card.getByRole('table', { name: 'Revenue and payments by month, Acme Demo' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toEqual(['MonthRevenuePaid', 'Oct 2026£500£400', 'Nov 2026£700£100']);
  });
});

describe('the advisor firm dashboard', () => {
  const firm = tenantRow({
    Id: 9,
    Name: 'Ledger & Co',
    Classification: 'FIRM',
    Role: 'ADMIN',
    MembershipClassification: 'ADVISOR',
  });
  const clientRow = (id: number, overrides: Record<string, unknown> = {}) => ({
    Id: id,
    Name: `Client ${id}`,
    Role: 'Advisor',
    Access: true,
    Platforms: ['QBO'],
    Recipients: 1,
    Subscription: { PlanIdentifier: null, PlanName: null, BillingTenantId: null, PaymentStatus: null },
    HasClientMatch: false,
    Classification: 'BUSINESS',
    UsageType: 'NORMAL',
    isDemo: false,
    ...overrides,
  });
  const advisorApi = (clients: unknown[]) =>
    business()
      .on('GET /api/auth/self', {
        body: sessionFixture({ tenants: [firm], user: { PrimaryClassification: 'ADVISOR' } }),
      })
      .on('GET /api/tenants/9', { body: tenantFixture({ Id: 9, Classification: 'FIRM' }) })
      .on('GET /api/clients', { body: { clients } })
      .on('GET /api/clients/users', {
        body: {
          users: [
            {
              Client: { Id: 1, Name: 'Client 1' },
              User: { Id: 20, Name: 'Bo' },
              Email: 'bo@x.com',
              JobTitle: null,
              Role: 'Admin',
              TenantRole: 'ADMIN',
              Status: 'ACTIVE',
            },
            {
              Client: { Id: 2, Name: 'Client 2' },
              User: { Id: 21, Name: 'Cy' },
              Email: 'cy@x.com',
              JobTitle: null,
              Role: 'User',
              TenantRole: 'USER',
              Status: 'ACTIVE',
            },
          ],
        },
      });

  it('shows onboarding until every step is done or declined, then the client and user tiles', async () => {
    const fake = advisorApi([clientRow(1), clientRow(99, { Name: 'Demo Client', isDemo: true })]);
    renderApp({ path: '/advisor/overview', fake });
    await screen.findByText('Onboarding progress');
    expect(stepState('addClient').getByText('Done')).toBeInTheDocument();
    expect(stepState('addClient').queryByRole('button', { name: /No thanks/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'No thanks: Invite an additional advisor' }));
    await userEvent.click(
      screen.getByRole('button', { name: "No thanks: Connect your firm's own platform" }),
    );

    const clients = (await screen.findByText('Clients')).closest('div')!;
    expect(within(clients).getByText('1')).toBeInTheDocument();
    expect(within(clients).getByRole('link', { name: 'Add' }).getAttribute('href')).toBe('/clients');
    const users = screen.getByText('Users across your clients').closest('div')!;
    expect(within(users).getByText('2')).toBeInTheDocument();
    expect(within(users).getByRole('link', { name: 'Manage' }).getAttribute('href')).toBe('/manage-users');
  });

  it('shows the Client Performance Summary by the client-count criteria', async () => {
    const first = renderApp({
      path: '/advisor/overview',
      fake: advisorApi([clientRow(1, { Platforms: [] })]),
    });
    await screen.findByText('Onboarding progress');
    expect(screen.queryByText('Client Performance Summary')).not.toBeInTheDocument();
    first.unmount();

    const some = renderApp({ path: '/advisor/overview', fake: advisorApi([clientRow(1), clientRow(2)]) });
    await screen.findByText('Client Performance Summary');
    expect(screen.getByText(/Your 2 connected clients are summarised/)).toBeInTheDocument();
    some.unmount();

    const many = Array.from({ length: 30 }, (_, i) => clientRow(i + 1));
    renderApp({ path: '/advisor/overview', fake: advisorApi(many) });
    await screen.findByText('Client Performance Summary');
    expect(screen.getByText(/their figures move to the Customer Sheet/)).toBeInTheDocument();
  });
});
