/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { IntegrationResponse } from '../../../../../contracts/api/integrations';
import { defaultCrmSettings } from '../../../../../contracts/events/integration';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi } from '../../sellers/seller-fixtures';

jest.setTimeout(30_000);

const account = (overrides: Partial<IntegrationResponse> = {}): IntegrationResponse => ({
  Id: 5,
  TenantId: 7,
  Provider: 'HUBSPOT',
  ProductIdentifier: null,
  AuthMethod: 'oauth2',
  Active: false,
  CredentialsStatus: 'VALID',
  CredentialsProblem: null,
  CredentialsOwner: 'owner@example.test',
  URL: null,
  SyncDate: null,
  Settings: { ...defaultCrmSettings, Locked: false },
  Sync: { runningJobId: null, last: null },
  Purge: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  disconnectedAt: null,
  Tenant: { Id: 7, Name: 'Acme Ltd' },
  // An inactive account with valid credentials (admin.md section 4).
  Actions: ['purge', 'activate', 'lock', 'disconnect', 'delete'],
  ...overrides,
});

const adminApi = () =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/integrations', { body: { rows: [account()], total: 1, filtered: 1 } })
    .on('POST /api/integrations/5/purge', {
      body: { integrationId: 5, jobId: 9, action: 'purge', message: 'Successfully created 1 purge job' },
    })
    .on('POST /api/integrations/5/unlink', {
      body: { integrationId: 5, jobId: 10, action: 'unlink', message: 'Successfully created 1 unlink job' },
    })
    .on('PATCH /api/integrations/5', { body: account({ Active: true }) });

const table = () => screen.findByRole('table', { name: 'Integrations' });

describe('the admin integrations table', () => {
  it("offers the actions of the account's state, and unlinks only once the word unlink is typed", async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/integrations', fake });
    const rows = await table();
    const row = await within(rows).findByRole('row', { name: /Acme Ltd/ });
    const labels = within(row)
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(labels).toEqual(
      expect.arrayContaining([
        'Switch',
        'Edit',
        'Purge',
        'Unlink',
        'Activate',
        'Lock',
        'Disconnect',
        'Delete',
      ]),
    );
    expect(labels).not.toContain('Sync');
    expect(labels).not.toContain('Deactivate');

    await userEvent.click(within(row).getByRole('button', { name: 'Unlink HubSpot account 5' }));
    const dialog = await screen.findByRole('alertdialog');
    const confirm = within(dialog).getByRole('button', { name: 'Unlink' });
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Type unlink to confirm'), 'unlink');
    await userEvent.click(confirm);
    expect(await screen.findByText('Successfully created 1 unlink job')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/integrations/5/unlink')).toHaveLength(1);

    // Purge, with its option to unlink too.
    await userEvent.click(within(row).getByRole('button', { name: 'Purge HubSpot account 5' }));
    const purge = await screen.findByRole('alertdialog');
    await userEvent.click(
      within(purge).getByLabelText('Also unlink the records from their accounting customers'),
    );
    await userEvent.type(within(purge).getByLabelText('Type purge to confirm'), 'purge');
    await userEvent.click(within(purge).getByRole('button', { name: 'Purge' }));
    expect(await screen.findByText('Successfully created 1 purge job')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/integrations/5/purge')[0]?.body).toEqual({ unlink: true });
  });

  it('says the action was cancelled, and shows the failure text of admin.md section 8', async () => {
    const fake = adminApi().on('PATCH /api/integrations/5', {
      status: 409,
      body: { message: 'The account cannot be activated now.', code: 'conflict' },
    });
    renderApp({ path: '/admin/integrations', fake });
    const row = await within(await table()).findByRole('row', { name: /Acme Ltd/ });
    await userEvent.click(within(row).getByRole('button', { name: 'Delete HubSpot account 5' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }),
    );
    expect(await screen.findByText('Cancelling delete request!')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Activate HubSpot account 5' }));
    expect(
      await screen.findByText('There was an error while changing the Active state of the account.'),
    ).toBeInTheDocument();
  });

  it('edits the CRM settings, sending only what changed', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/integrations', fake });
    const row = await within(await table()).findByRole('row', { name: /Acme Ltd/ });
    await userEvent.click(within(row).getByRole('button', { name: 'Edit HubSpot account 5' }));
    await userEvent.click(await screen.findByLabelText('Skip Sales Data'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fake.callsTo('PATCH /api/integrations/5')).toHaveLength(1));
    expect(fake.callsTo('PATCH /api/integrations/5')[0]?.body).toEqual({ Settings: { SkipSalesData: true } });
  });

  it('filters by provider and product on the server', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/integrations', fake });
    await table();
    await userEvent.selectOptions(screen.getByLabelText('Provider'), 'SALESFORCE');
    await userEvent.selectOptions(screen.getByLabelText('Product'), 'REVOPS');
    await waitFor(() =>
      expect(
        fake
          .callsTo('GET /api/integrations')
          .map((call) => Object.fromEntries(new URL(call.url, 'http://x').searchParams.entries())),
      ).toContainEqual({ scope: 'all', provider: 'SALESFORCE', product: 'REVOPS' }),
    );
  });

  it('shows the Customers column: linked customers of CRM accounts, blank for cloud accounts', async () => {
    const fake = sellerApi({ platformAdmin: true }).on('GET /api/integrations', {
      body: {
        rows: [
          account({ CustomerCount: 1234 }),
          account({
            Id: 6,
            Provider: 'GOOGLE',
            Settings: { Locked: false },
            Tenant: { Id: 8, Name: 'Cloud Co' },
            CustomerCount: null,
          }),
        ],
        total: 2,
        filtered: 2,
      },
    });
    renderApp({ path: '/admin/integrations', fake });
    const rows = await table();
    await within(rows).findByRole('row', { name: /Cloud Co/ });
    const headers = within(rows)
      .getAllByRole('columnheader')
      .map((header) => header.textContent?.trim());
    const customersAt = headers.findIndex((text) => text?.startsWith('Customers'));
    expect(customersAt).toBeGreaterThan(0);
    const cells = (name: RegExp) =>
      within(within(rows).getByRole('row', { name }))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells(/Acme Ltd/)[customersAt]).toBe('1,234');
    expect(cells(/Cloud Co/)[customersAt]).toBe('');
  });
});
