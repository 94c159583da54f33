/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ArchivedReport } from '../../../../contracts/api/reports';
import { FakeFetch } from '../../test-support/fake-fetch';
import { noLiveReports } from './managed-reports-table';
import { renderApp } from '../../test-support/render-app';
import { oneSeller, sessionFixture, tenantRow } from '../../test-support/session-fixture';
import { listOf, recipient, tenantFixture } from '../../test-support/tenant-fixtures';

const archived = (overrides: Partial<ArchivedReport> = {}): ArchivedReport => ({
  Id: 11,
  Type: 'WEEKLY_REPORT',
  Extension: 'pdf',
  DisplayName: 'Weekly Report 2030-01-06',
  Size: 2048,
  createdAt: '2030-01-06T07:00:00.000Z',
  SellerId: 1,
  TenantId: 7,
  Seller: { CompanyName: 'Acme Demo' },
  ...overrides,
});

const ada = recipient();
const grace = recipient({
  Id: 2,
  SubscriberId: null,
  Subscriber: { Id: null, Email: 'grace@acme.com', GivenName: 'Grace', FamilyName: 'Hopper', JobTitle: null },
});
const demoContact = recipient({
  Id: 3,
  SubscriberId: null,
  Subscriber: {
    Id: null,
    Email: 'cfo@demo-client.ledgerwise.local',
    GivenName: 'Demo',
    FamilyName: 'CFO',
    JobTitle: null,
  },
});

const reportsApi = (options: { role?: 'ADMIN' | 'USER'; platformAdmin?: boolean } = {}) =>
  new FakeFetch()
    .on('GET /api/auth/self', {
      body: sessionFixture({
        tenants: [tenantRow({ Role: options.role ?? 'USER' })],
        user: { isPlatformAdmin: options.platformAdmin ?? false },
      }),
    })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/tenants/7', { body: tenantFixture() })
    .on('GET /api/sellers', { body: oneSeller })
    .on('GET /api/subscriptions', { body: listOf([ada, grace, demoContact]) })
    .on('GET /api/reports/archived', { body: { rows: [archived()] } })
    .on('GET /api/reports/managed', { body: { rows: [] } })
    .on('GET /api/jobs', { body: { jobs: [] } });

describe('the reports page', () => {
  it('shows the archive, the live reports and the recipients', async () => {
    renderApp({ path: '/reports', fake: reportsApi() });
    const archive = await screen.findByRole('table', { name: 'Report archive' });
    expect(await within(archive).findByText('Weekly Report 2030-01-06')).toBeInTheDocument();
    expect(within(archive).getByText('pdf')).toBeInTheDocument();
    const live = screen.getByRole('table', { name: 'Live reports' });
    expect(await within(live).findByText(noLiveReports)).toBeInTheDocument();
    const recipients = screen.getByRole('table', { name: 'Report recipients' });
    expect(within(recipients).getByText('Grace Hopper')).toBeInTheDocument();
    // Activate, deactivate and delete are the platform admin's.
    expect(within(recipients).queryByRole('button', { name: /Deactivate/ })).not.toBeInTheDocument();
  });

  it('lets a standard user toggle only their own report emails', async () => {
    renderApp({ path: '/reports', fake: reportsApi() });
    const own = await screen.findByRole('switch', { name: 'Send weekly to Ada Lovelace' });
    const other = screen.getByRole('switch', { name: 'Send weekly to Grace Hopper' });
    expect(own).toBeEnabled();
    expect(other).toBeDisabled();
  });

  it('requests a report for the chosen recipients and confirms it', async () => {
    const fake = reportsApi().on('POST /api/sellers/1/reports/monthly', { body: { jobs: [] } });
    renderApp({ path: '/reports', fake });
    await userEvent.selectOptions(await screen.findByLabelText('Report'), 'monthly');
    await userEvent.click(screen.getByRole('button', { name: 'Request Report' }));
    const modal = await screen.findByRole('dialog', { name: 'Request monthly report' });
    // The requester is ticked already; demo addresses cannot be.
    expect(within(modal).getByRole('checkbox', { name: /Ada Lovelace/ })).toBeChecked();
    expect(within(modal).getByRole('checkbox', { name: /Demo CFO/ })).toBeDisabled();
    await userEvent.click(within(modal).getByRole('checkbox', { name: /Grace Hopper/ }));
    await userEvent.click(within(modal).getByRole('button', { name: 'Send report' }));
    const done = await screen.findByRole('dialog', { name: 'Report Request Received' });
    expect(within(done).getByText(/check your email in a few minutes/)).toBeInTheDocument();
    expect(fake.callsTo('POST /api/sellers/1/reports/monthly')[0]?.body).toEqual({ recipientIds: [1, 2] });
  });

  it('refuses a request without the current user, before calling the server', async () => {
    const fake = reportsApi();
    renderApp({ path: '/reports', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Request Report' }));
    const modal = await screen.findByRole('dialog', { name: 'Request weekly report' });
    await userEvent.click(within(modal).getByRole('checkbox', { name: /Ada Lovelace/ }));
    await userEvent.click(within(modal).getByRole('checkbox', { name: /Grace Hopper/ }));
    await userEvent.click(within(modal).getByRole('button', { name: 'Send report' }));
    expect(await within(modal).findByRole('alert')).toHaveTextContent(
      'Select yourself among the recipients.',
    );
    expect(fake.callsTo('POST /api/sellers/1/reports/weekly')).toHaveLength(0);
  });

  it('shows the catalogue error when a request is still processing', async () => {
    const fake = reportsApi().on('POST /api/sellers/1/reports/weekly', {
      status: 409,
      body: { code: 'conflict', message: 'A previous request to send the report is still processing.' },
    });
    renderApp({ path: '/reports', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Request Report' }));
    const modal = await screen.findByRole('dialog', { name: 'Request weekly report' });
    await userEvent.click(within(modal).getByRole('button', { name: 'Send report' }));
    const error = await screen.findByRole('alertdialog', { name: 'Error Sending Report' });
    expect(
      within(error).getByText('A previous request to send the report is still processing.'),
    ).toBeInTheDocument();
  });

  it('downloads an archived report through its content', async () => {
    const fake = reportsApi().on('GET /api/reports/archived/11/content', {
      body: {
        encoding: 'base64',
        data: btoa('%PDF-1.4'),
        contentType: 'application/pdf',
        fileName: 'weekly.pdf',
      },
    });
    const created: Blob[] = [];
    URL.createObjectURL = (blob: Blob) => {
      created.push(blob);
      return 'blob:report';
    };
    URL.revokeObjectURL = () => undefined;
    renderApp({ path: '/reports', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Download Weekly Report 2030-01-06' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]?.type).toBe('application/pdf');
    expect(created[0]?.size).toBe(8);
  });

  it('gives a platform admin the recipient state actions, with a confirmation before delete', async () => {
    const fake = reportsApi({ platformAdmin: true }).on('DELETE /api/subscriptions/2', {
      body: { ok: true },
    });
    renderApp({ path: '/reports', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Grace Hopper' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete recipient' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fake.callsTo('DELETE /api/subscriptions/2')).toHaveLength(1));
  });

  it("adds a recipient from the platforms page's link, with the catalogue texts", async () => {
    const fake = reportsApi().on(
      'POST /api/subscriptions',
      {
        status: 422,
        body: {
          code: 'validation',
          message: 'The email is already in use.',
          properties: { email: 'not_unique' },
        },
      },
      { body: grace },
    );
    renderApp({ path: '/reports?sellerId=1', fake });
    const modal = await screen.findByRole('dialog', { name: 'Add recipient' });
    await userEvent.type(within(modal).getByLabelText('Email'), 'not an email');
    await userEvent.click(within(modal).getByRole('button', { name: 'Add recipient' }));
    expect(await within(modal).findByText('Email is invalid')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/subscriptions')).toHaveLength(0);

    await userEvent.clear(within(modal).getByLabelText('Email'));
    await userEvent.type(within(modal).getByLabelText('Email'), 'grace@acme.com');
    await userEvent.type(within(modal).getByLabelText('Name'), 'Grace Hopper');
    await userEvent.click(within(modal).getByRole('button', { name: 'Add recipient' }));
    expect(await within(modal).findByText('The email is already in use.')).toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('button', { name: 'Add recipient' }));
    expect(await screen.findByText('Recipient Added Successfully')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/subscriptions')[1]?.body).toEqual({
      sellerId: 1,
      email: 'grace@acme.com',
      name: 'Grace Hopper',
      SendWeekly: true,
      SendMonthly: true,
    });
  });
});
