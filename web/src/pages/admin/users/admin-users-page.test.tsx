/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserWithTenants } from '../../../../../contracts/api/users';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi } from '../../sellers/seller-fixtures';

jest.setTimeout(30_000);

const user = {
  Id: 21,
  Email: 'ann@example.test',
  GivenName: 'Ann',
  FamilyName: 'Lee',
  Name: 'Ann Lee',
  JobTitle: null,
  PrimaryClassification: 'MEMBER',
  AuthProvider: 'password',
  Logins: 3,
  LastLogin: null,
  LastLoginMethod: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  DefaultPartnerTenantId: null,
  ActiveCampaignId: '77',
  AssignToAllClients: false,
  EmailVerified: true,
  PasswordResetRequired: false,
  deleted: false,
} as const;

const withTenants: UserWithTenants = {
  ...user,
  Tenants: [
    {
      Id: 7,
      Name: 'Acme Ltd',
      Classification: 'BUSINESS',
      UsageType: 'NORMAL',
      disabled: false,
      Membership: {
        TenantId: 7,
        Status: 'ACTIVE',
        Role: 'ADMIN',
        Classification: 'MEMBER',
        JobTitle: null,
        SendWeekly: true,
        SendMonthly: true,
        joinedAt: '2026-11-01T00:00:00.000Z',
      },
    },
  ],
};

const adminApi = () =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/users', (call) => {
      const search = new URL(call.url, 'http://x').searchParams.get('search');
      const users = search === 'nobody' ? [] : [{ ...user, TenantCount: 1 }];
      return { body: { users, total: users.length, page: 1, pageSize: 25 } };
    })
    .on('GET /api/users/21', { body: withTenants })
    .on('DELETE /api/users/21/auth', { body: { ok: true } });

describe('the admin users table', () => {
  it("lists users with their marketing and analytics links, and opens a user's tenants", async () => {
    renderApp({ path: '/admin/users', fake: adminApi() });
    const table = await screen.findByRole('table', { name: 'Users' });
    const row = await within(table).findByRole('row', { name: /Ann Lee/ });
    expect(within(row).getByRole('link', { name: 'Marketing contact of Ann Lee' })).toHaveAttribute(
      'href',
      'https://app.activecampaign.com/app/contacts/77',
    );
    await userEvent.click(within(row).getByRole('button', { name: 'Tenants of Ann Lee' }));
    const tenants = await screen.findByRole('table', { name: 'Tenants of Ann Lee' });
    expect(within(tenants).getByRole('row', { name: /Acme Ltd/ })).toHaveTextContent('ann@example.test');
    expect(within(tenants).getByRole('button', { name: 'Switch to Acme Ltd' })).toBeInTheDocument();
  });

  it("downloads an advisor's Client Performance PDF; members have no such button", async () => {
    const fake = sellerApi({ platformAdmin: true })
      .on('GET /api/users', {
        body: {
          users: [
            { ...user, TenantCount: 1 },
            {
              ...user,
              Id: 22,
              Name: 'Ada Advisor',
              Email: 'ada@example.test',
              PrimaryClassification: 'ADVISOR',
              TenantCount: 2,
            },
          ],
          total: 2,
          page: 1,
          pageSize: 25,
        },
      })
      .on('GET /api/users/22/reports/client', {
        body: {
          encoding: 'base64',
          data: 'JVBERg==',
          contentType: 'application/pdf',
          fileName: 'clients.pdf',
        },
      });
    renderApp({ path: '/admin/users', fake });
    const table = await screen.findByRole('table', { name: 'Users' });
    const ann = await within(table).findByRole('row', { name: /Ann Lee/ });
    expect(within(ann).queryByRole('button', { name: /client report/ })).not.toBeInTheDocument();
    const ada = within(table).getByRole('row', { name: /Ada Advisor/ });
    await userEvent.click(within(ada).getByRole('button', { name: 'PDF client report of Ada Advisor' }));
    await waitFor(() => expect(fake.callsTo('GET /api/users/22/reports/client')).toHaveLength(1));
    expect(fake.callsTo('GET /api/users/22/reports/client')[0]?.url).toContain('format=pdf');
  });

  it('resets the sign-in only after the word reset, and shows No Users Found for no match', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/users', fake });
    const table = await screen.findByRole('table', { name: 'Users' });
    await userEvent.click(await within(table).findByRole('button', { name: 'Reset Auth of Ann Lee' }));
    const dialog = await screen.findByRole('alertdialog');
    const confirm = within(dialog).getByRole('button', { name: 'Reset Auth' });
    await userEvent.type(within(dialog).getByLabelText('Type reset to confirm'), 'delete');
    expect(confirm).toBeDisabled();
    await userEvent.clear(within(dialog).getByLabelText('Type reset to confirm'));
    await userEvent.type(within(dialog).getByLabelText('Type reset to confirm'), 'reset');
    await userEvent.click(confirm);
    expect(await screen.findByText('The sign-in of Ann Lee was reset.')).toBeInTheDocument();
    expect(fake.callsTo('DELETE /api/users/21/auth')).toHaveLength(1);
    await userEvent.type(screen.getByLabelText('Search users'), 'nobody');
    await waitFor(() => expect(within(table).getByText('No Users Found')).toBeInTheDocument());
  });
});
