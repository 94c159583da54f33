/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Partner } from '../../../../../contracts/api/partners';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi } from '../../sellers/seller-fixtures';

jest.setTimeout(30_000);

const partner = (overrides: Partial<Partner> = {}): Partner => ({
  Id: 3,
  TenantId: 7,
  Tenant: { Id: 7, Name: 'Northwind Advisory' },
  Name: 'Northwind Partners',
  ClientPlanIdentifier: 'free_client',
  LogoURL: 'https://example.test/logo.png',
  WeeklyDay: null,
  MonthlyDay: null,
  Clients: 2,
  createdAt: '2026-11-01T00:00:00.000Z',
  ...overrides,
});

const adminApi = () =>
  sellerApi({ platformAdmin: true }).on('GET /api/partners', {
    body: {
      rows: [partner(), partner({ Id: 4, Name: 'Solo Partners', Clients: 0, LogoURL: null })],
      total: 2,
      filtered: 2,
    },
  });

describe('the admin partners table', () => {
  it('lists partners with client counts and logos; the Client report shows only with clients', async () => {
    renderApp({ path: '/admin/partners', fake: adminApi() });
    const table = await screen.findByRole('table', { name: 'Partners' });
    const northwind = await within(table).findByRole('row', { name: /Northwind Partners/ });
    expect(within(northwind).getByRole('img', { name: 'Northwind Partners logo' })).toHaveAttribute(
      'src',
      'https://example.test/logo.png',
    );
    expect(
      within(northwind).getByRole('button', { name: 'Client report of Northwind Partners' }),
    ).toBeInTheDocument();
    const solo = within(table).getByRole('row', { name: /Solo Partners/ });
    expect(within(solo).queryByRole('button', { name: /Client report/ })).not.toBeInTheDocument();
  });

  it('asks for the required fields, then shows the server’s not_unique as the spec’s text', async () => {
    const fake = adminApi().on('POST /api/partners', {
      status: 422,
      body: { message: 'Invalid', code: 'validation', properties: { Name: 'not_unique' } },
    });
    renderApp({ path: '/admin/partners', fake });
    await screen.findByRole('table', { name: 'Partners' });
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Partner' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Tenant Id is required')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/partners')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Northwind Partners');
    await userEvent.type(within(dialog).getByLabelText('Tenant Id'), '7');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Name already exists within Tenant')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/partners')[0]?.body).toEqual({
      Name: 'Northwind Partners',
      ClientPlanIdentifier: 'free_client',
      TenantId: 7,
      LogoURL: null,
    });
  });

  it('edits a partner through PATCH /api/partners/{TenantId} naming its Id', async () => {
    const fake = adminApi().on('PATCH /api/partners/7', { body: partner({ Name: 'Northwind Group' }) });
    renderApp({ path: '/admin/partners', fake });
    const table = await screen.findByRole('table', { name: 'Partners' });
    await userEvent.click(await within(table).findByRole('button', { name: 'Edit Northwind Partners' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Partner' });
    expect(within(dialog).queryByLabelText('Tenant Id')).not.toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Name'));
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Northwind Group');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Successfully updated the partner.')).toBeInTheDocument();
    await waitFor(() =>
      expect(fake.callsTo('PATCH /api/partners/7')[0]?.body).toMatchObject({
        Id: 3,
        Name: 'Northwind Group',
      }),
    );
  });
});
