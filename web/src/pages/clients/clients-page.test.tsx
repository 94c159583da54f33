/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClientRow } from '../../../../contracts/api/clients';
import { FakeFetch } from '../../test-support/fake-fetch';
import { fieldErrorOf } from '../../test-support/field-error';
import { renderApp } from '../../test-support/render-app';
import { noSellers, sessionFixture, tenantRow } from '../../test-support/session-fixture';
import { tenantFixture } from '../settings/tenant-fixture';
import { teamMember } from '../team/team-fixtures';
import { BulkEditForm, noBulkChange } from './bulk-edit-modal';
import { canChangePlan } from './client-filters';
import { NewClientForm } from './new-client-modal';

const client = (input: Partial<ClientRow> & { Id: number; Name: string }): ClientRow => ({
  Role: 'Advisor',
  Access: true,
  Platforms: [],
  Recipients: 0,
  Subscription: {
    PlanIdentifier: 'free_client',
    PlanName: 'Quickstart',
    BillingTenantId: 7,
    PaymentStatus: null,
  },
  HasClientMatch: false,
  Classification: 'BUSINESS',
  UsageType: 'NORMAL',
  isDemo: false,
  ...input,
});

const rows = [
  client({ Id: 20, Name: 'Demo Client', isDemo: true, UsageType: 'DEMO', Platforms: ['DEMO'] }),
  client({ Id: 21, Name: 'zeta Foods', Platforms: ['QBO'], HasClientMatch: true }),
  client({
    Id: 22,
    Name: 'Alpha Works',
    Access: false,
    Subscription: {
      PlanIdentifier: 'growth_client',
      PlanName: 'Plus',
      BillingTenantId: 99,
      PaymentStatus: null,
    },
  }),
];

const firm = tenantRow({
  Id: 7,
  Name: 'Ledger & Co',
  Classification: 'FIRM',
  Role: 'ADMIN',
  MembershipClassification: 'ADVISOR',
});

const advisorApi = () =>
  new FakeFetch()
    .on('GET /api/auth/self', {
      body: sessionFixture({ tenants: [firm], user: { PrimaryClassification: 'ADVISOR' } }),
    })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/sellers', { body: noSellers })
    .on('GET /api/industries', {
      body: [{ Code: '445110', Title: 'Supermarkets', Description: 'Grocery stores', Examples: [] }],
    })
    .on('GET /api/users', {
      body: { members: [teamMember({ Id: 3, Name: 'Ada Lovelace', Membership: { Role: 'ADMIN' } })] },
    })
    .on('GET /api/clients', { body: { clients: rows } });

const clientNames = () =>
  within(screen.getByRole('table', { name: 'Clients' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]?.textContent);

describe('client rules', () => {
  it('requires a company name, an industry and a business model for a new client', () => {
    const parsed = NewClientForm.safeParse({ Name: ' ', Industry: '', BusinessModel: '' });
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['Name', 'Please enter company name'],
      ['Industry', 'Please enter an industry'],
      ['BusinessModel', 'Please select a classification'],
    ]);
  });

  it('sends a batch only when a setting is chosen', () => {
    expect(BulkEditForm.safeParse(noBulkChange).error?.issues).toEqual([
      expect.objectContaining({ path: ['root'], message: 'Choose at least one setting to change.' }),
    ]);
    expect(BulkEditForm.parse({ ...noBulkChange, MonthlyEmails: 'off', WeeklyDay: '0' })).toStrictEqual({
      WeeklyDay: 0,
      MonthlyEmailsDisabled: true,
    });
  });

  it('offers Change Plan to a platform admin, or a tenant admin billing the client', () => {
    const billedHere = rows[1]!;
    const billedElsewhere = rows[2]!;
    const tenantAdmin = { isPlatformAdmin: false, isTenantAdmin: true, tenantId: 7 };
    expect(canChangePlan(billedHere, tenantAdmin)).toBe(true);
    expect(canChangePlan(billedElsewhere, tenantAdmin)).toBe(false);
    expect(canChangePlan(billedHere, { ...tenantAdmin, isTenantAdmin: false })).toBe(false);
    expect(canChangePlan(billedElsewhere, { isPlatformAdmin: true, isTenantAdmin: false, tenantId: 7 })).toBe(
      true,
    );
  });
});

describe('Clients page', () => {
  it('lists clients by name with Demo Client last, links only those with access', async () => {
    renderApp({ path: '/clients', fake: advisorApi() });
    await screen.findByText('zeta Foods');
    expect(clientNames()).toEqual(['Alpha Works', 'zeta Foods', 'Demo Client']);
    expect(screen.getByRole('button', { name: 'Switch to zeta Foods' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Switch to Alpha Works' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Client' }));
    expect(clientNames()).toEqual(['zeta Foods', 'Alpha Works', 'Demo Client']);
    expect(screen.getByRole('button', { name: 'Change plan of zeta Foods' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change plan of Alpha Works' })).not.toBeInTheDocument();
  });

  it('filters by platforms, client match and plan, saying No Clients Matched', async () => {
    renderApp({ path: '/clients', fake: advisorApi() });
    await screen.findByText('zeta Foods');
    await userEvent.selectOptions(screen.getByLabelText('Platforms'), 'with');
    expect(clientNames()).toEqual(['zeta Foods', 'Demo Client']);
    await userEvent.selectOptions(screen.getByLabelText('Client match'), 'matched');
    expect(clientNames()).toEqual(['zeta Foods']);
    await userEvent.selectOptions(screen.getByLabelText('Plan'), 'Plus');
    expect(screen.getByRole('status').textContent).toBe('No Clients Matched');
  });

  it('says No Clients Connected when there are none', async () => {
    renderApp({ path: '/clients', fake: advisorApi().on('GET /api/clients', { body: { clients: [] } }) });
    expect(await screen.findByText('No Clients Connected')).toBeInTheDocument();
  });

  it('bulk edits the selected clients', async () => {
    const fake = advisorApi().on('PUT /api/tenants/batch', { body: { tenants: [] } });
    renderApp({ path: '/clients', fake });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select zeta Foods' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Demo Client' }));
    await userEvent.click(screen.getByRole('button', { name: 'Bulk edit (2)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 2 selected clients' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(within(dialog).getByText('Choose at least one setting to change.')).toBeInTheDocument();
    await userEvent.selectOptions(within(dialog).getByLabelText('Weekly report day'), 'Monday');
    await userEvent.selectOptions(
      within(dialog).getByLabelText('Add an advisor from your team'),
      'Ada Lovelace',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Updated 2 clients.')).toBeInTheDocument();
    const body = fake.callsTo('PUT /api/tenants/batch')[0]?.body as { Id: number[] };
    expect({ ...body, Id: [...body.Id].sort() }).toEqual({ Id: [20, 21], WeeklyDay: 1, TeamMemberId: 3 });
  });

  it("downloads the advisor's client report, and shows a failure in a dialog", async () => {
    const saved: Blob[] = [];
    URL.createObjectURL = (blob: Blob) => {
      saved.push(blob);
      return 'blob:client-report';
    };
    URL.revokeObjectURL = () => undefined;
    const fake = advisorApi().on(
      'GET /api/users/3/reports/client',
      {
        body: {
          encoding: 'base64',
          data: btoa('%PDF-1.7 clients'),
          contentType: 'application/pdf',
          fileName: 'Client Performance Summary.pdf',
        },
      },
      { status: 409, body: { code: 'conflict', message: 'You have no clients to report on.' } },
    );
    renderApp({ path: '/clients', fake });
    const download = await screen.findByRole('button', { name: 'Download client report' });
    await userEvent.click(download);
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.type).toBe('application/pdf');
    expect(fake.callsTo('GET /api/users/3/reports/client')[0]?.url).toContain('format=pdf');
    await userEvent.click(download);
    const dialog = await screen.findByRole('alertdialog', { name: 'Client report' });
    expect(
      within(dialog).getByText('There was an error: You have no clients to report on.'),
    ).toBeInTheDocument();
  });

  it('shows the catalogue text when a bulk edit fails', async () => {
    const fake = advisorApi().on('PUT /api/tenants/batch', { status: 500 });
    renderApp({ path: '/clients', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Change plan of zeta Foods' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change plan' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Plan'), 'Max');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(
      await within(dialog).findByText('There was an error while updating the selected clients.'),
    ).toBeInTheDocument();
    expect(fake.callsTo('PUT /api/tenants/batch')[0]?.body).toEqual({
      Id: [21],
      PlanIdentifier: 'expansion_client',
    });
  });

  it('shows a server error against the bulk edit field it names, with the catalogue text', async () => {
    const fake = advisorApi().on('PUT /api/tenants/batch', {
      status: 422,
      body: {
        code: 'validation',
        message: 'The operation failed. Please validate your selection and try again.',
        properties: { TeamMemberId: 'is not an active member of this firm' },
      },
    });
    renderApp({ path: '/clients', fake });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select zeta Foods' }));
    await userEvent.click(screen.getByRole('button', { name: 'Bulk edit (1)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 1 selected client' });
    await userEvent.selectOptions(
      within(dialog).getByLabelText('Add an advisor from your team'),
      'Ada Lovelace',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(
      await within(dialog).findByText('There was an error while updating the selected clients.'),
    ).toBeInTheDocument();
    expect(fieldErrorOf('Add an advisor from your team', dialog)).toBe(
      'is not an active member of this firm',
    );
  });

  it('adds a client with Enter, switches to it and opens the overview', async () => {
    const created = tenantFixture({ Id: 30, Name: 'Fresh Grocer' });
    const fake = advisorApi()
      .on('POST /api/tenants', { status: 201, body: created })
      .on('POST /api/auth/switchTenant', {
        body: sessionFixture({
          tenants: [
            tenantRow({ Id: 30, Name: 'Fresh Grocer', Role: 'ADMIN', MembershipClassification: 'ADVISOR' }),
            firm,
          ],
          user: { PrimaryClassification: 'ADVISOR' },
        }),
      });
    const app = renderApp({ path: '/clients', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Add client' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add client' });
    await userEvent.type(within(dialog).getByLabelText('Company name'), '{Enter}');
    expect(fieldErrorOf('Company name', dialog)).toBe('Please enter company name');
    await userEvent.type(within(dialog).getByLabelText('Industry'), 'Supermarkets');
    await userEvent.selectOptions(within(dialog).getByLabelText('Business model'), 'B2C');
    await userEvent.type(within(dialog).getByLabelText('Company name'), 'Fresh Grocer{Enter}');
    await waitFor(() => expect(app.location()).toBe('/overview'));
    expect(fake.callsTo('POST /api/tenants')[0]?.body).toEqual({
      Name: 'Fresh Grocer',
      Classification: 'BUSINESS',
      BusinessModel: 'B2C',
      Industry: { FreeForm: 'Supermarkets', NAICS2017: '445110', Description: 'Grocery stores' },
    });
    expect(fake.callsTo('POST /api/auth/switchTenant')[0]?.body).toEqual({ tenantId: 30 });
  });

  it('shows the server’s errors against the new client’s fields, and its message', async () => {
    const fake = advisorApi().on('POST /api/tenants', {
      status: 422,
      body: {
        code: 'validation',
        message: 'The operation failed. Please validate your selection and try again.',
        properties: { Classification: 'required' },
      },
    });
    renderApp({ path: '/clients', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Add client' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add client' });
    await userEvent.type(within(dialog).getByLabelText('Company name'), 'Fresh');
    await userEvent.type(within(dialog).getByLabelText('Industry'), 'Bakeries');
    await userEvent.selectOptions(within(dialog).getByLabelText('Business model'), 'B2C');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add client' }));
    expect(
      await within(dialog).findByText('The operation failed. Please validate your selection and try again.'),
    ).toBeInTheDocument();
    expect(fieldErrorOf('Business model', dialog)).toBe('This field is required.');
    expect(within(dialog).getByRole('button', { name: 'Add client' })).toBeEnabled();
  });

  it('says when switching to a client failed', async () => {
    const fake = advisorApi().on('POST /api/auth/switchTenant', { status: 500 });
    renderApp({ path: '/clients', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Switch to zeta Foods' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Switch Client' });
    expect(within(dialog).getByText('There was an error while switching clients.')).toBeInTheDocument();
  });
});

describe('Manage Users Across Your Clients', () => {
  it('lists users with their client, which switches to the client', async () => {
    const fake = advisorApi()
      .on('GET /api/clients/users', {
        body: {
          users: [
            {
              Client: { Id: 21, Name: 'zeta Foods' },
              User: { Id: 8, Name: 'Zoe Grocer' },
              Email: 'zoe@zeta.example',
              JobTitle: 'Business Owner',
              Role: 'Admin',
              TenantRole: 'ADMIN',
              Status: 'ACTIVE',
            },
          ],
        },
      })
      .on('POST /api/auth/switchTenant', {
        body: sessionFixture({ tenants: [tenantRow({ Id: 21, Name: 'zeta Foods' })] }),
      });
    const app = renderApp({ path: '/manage-users', fake });
    expect(await screen.findByText('zoe@zeta.example')).toBeInTheDocument();
    expect(screen.getByText('Business Owner')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Switch to zeta Foods' }));
    await waitFor(() => expect(app.location()).toBe('/overview'));
  });

  it('says No Users Found when there are none', async () => {
    renderApp({
      path: '/manage-users',
      fake: advisorApi().on('GET /api/clients/users', { body: { users: [] } }),
    });
    expect(await screen.findByText('No Users Found')).toBeInTheDocument();
  });
});
