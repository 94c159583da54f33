/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeFetch } from '../../test-support/fake-fetch';
import { renderApp } from '../../test-support/render-app';
import { noSellers, sessionFixture, tenantRow } from '../../test-support/session-fixture';
import { listOf, teamMember, tenantFixture } from '../../test-support/tenant-fixtures';

const firm = tenantRow({
  Id: 9,
  Name: 'Ledger & Co',
  Classification: 'FIRM',
  Role: 'ADMIN',
  MembershipClassification: 'ADVISOR',
});

const clientUser = (input: { clientId: number; userId: number; email: string }) => ({
  Client: { Id: input.clientId, Name: `Client ${input.clientId}` },
  User: { Id: input.userId, Name: `User ${input.userId}` },
  Email: input.email,
  JobTitle: null,
  Role: 'Admin',
  TenantRole: 'ADMIN',
  Status: 'ACTIVE',
});

/** An advisor firm whose onboarding is done (a client added, the other steps declined). */
const advisorFirmApi = () =>
  new FakeFetch()
    .on('GET /api/auth/self', {
      body: sessionFixture({ tenants: [firm], user: { PrimaryClassification: 'ADVISOR' } }),
    })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/tenants/9', { body: tenantFixture({ Id: 9, Classification: 'FIRM' }) })
    .on('GET /api/sellers', { body: noSellers })
    .on('GET /api/subscriptions', { body: listOf([]) })
    .on('GET /api/users', (call) =>
      call.url.includes('pending') ? { body: { invites: [] } } : { body: { members: [teamMember()] } },
    )
    .on('GET /api/jobs', { body: { jobs: [] } })
    .on('GET /api/browser/dashboard-progress', {
      body: { key: 'dashboard-progress', value: { inviteUser: 'dismissed', addPlatform: 'dismissed' } },
    })
    .on('PUT /api/browser/dashboard-progress', (call) => ({
      body: { key: 'dashboard-progress', ...(call.body as object) },
    }))
    .on('GET /api/clients', {
      body: {
        clients: [
          {
            Id: 1,
            Name: 'Client 1',
            Role: 'Advisor',
            Access: true,
            Platforms: ['QBO'],
            Recipients: 1,
            Subscription: {
              PlanIdentifier: null,
              PlanName: null,
              BillingTenantId: null,
              PaymentStatus: null,
            },
            HasClientMatch: false,
            Classification: 'BUSINESS',
            UsageType: 'NORMAL',
            isDemo: false,
          },
        ],
      },
    })
    .on('GET /api/clients/users', {
      body: {
        users: [
          clientUser({ clientId: 1, userId: 20, email: 'bo@client1.example' }),
          clientUser({ clientId: 1, userId: 21, email: 'cy@client1.example' }),
        ],
      },
    });

const usersTile = () => within(screen.getByText('Users across your clients').closest('div')!);

afterEach(() => window.localStorage.clear());

// The dashboard's tile and the Manage Users page read the same cache entry: within the stale time the
// second page is served the first one's copy, so both must agree on what the entry holds.
describe('client users shared by the advisor dashboard and Manage Users', () => {
  it('lists the users after following Manage, and still counts them after going back', async () => {
    const queryClient = new QueryClient({
      defaultOptions: { queries: { staleTime: 30_000, retry: false }, mutations: { retry: false } },
    });
    const app = renderApp({ path: '/advisor/overview', fake: advisorFirmApi(), queryClient });
    await screen.findByText('Users across your clients');
    expect(usersTile().getByText('2')).toBeInTheDocument();

    await userEvent.click(usersTile().getByRole('link', { name: 'Manage' }));
    const table = await screen.findByRole('table', { name: 'Users across your clients' });
    expect(within(table).getByText('bo@client1.example')).toBeInTheDocument();
    expect(within(table).getByText('cy@client1.example')).toBeInTheDocument();

    await act(() => app.router.navigate(-1));
    await waitFor(() => expect(app.location()).toBe('/advisor/overview'));
    expect(await screen.findByText('Users across your clients')).toBeInTheDocument();
    expect(usersTile().getByText('2')).toBeInTheDocument();
  });
});
