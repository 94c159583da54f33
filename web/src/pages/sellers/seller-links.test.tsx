/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../test-support/render-app';
import { sessionFixture, tenantRow } from '../../test-support/session-fixture';
import { listOf, teamMember } from '../../test-support/tenant-fixtures';
import { sellerApi, syncedSeller } from './seller-fixtures';

// Whole-app renders with charts and tables; the machine's two cores are shared with the servers.
jest.setTimeout(30_000);

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('the dashboard forecast card', () => {
  it("shows a synced seller's next 13 weeks of revenue and cash-in and opens the seller page", async () => {
    const fake = sellerApi()
      .on('GET /api/auth/self', {
        body: sessionFixture({ tenants: [tenantRow({ Role: 'ADMIN' })], user: { Logins: 3 } }),
      })
      .on('GET /api/subscriptions', { body: listOf([]) })
      .on('GET /api/users', (call) =>
        call.url.includes('pending') ? { body: { invites: [] } } : { body: { members: [teamMember()] } },
      )
      .on('GET /api/integrations', { body: listOf([]) })
      .on('GET /api/browser/dashboard-progress', { body: { key: 'dashboard-progress', value: null } })
      .on('PUT /api/browser/dashboard-progress', (call) => ({
        body: { key: 'dashboard-progress', ...(call.body as object) },
      }));
    const { location } = renderApp({ path: '/overview', fake });
    const card = within(await screen.findByRole('region', { name: 'Forecast: Acme Demo' }));
    await card.findByText('$2,400');
    expect(card.getByText('Revenue forecast, next 13 weeks').nextSibling).toHaveTextContent('$2,400');
    expect(card.getByText('Expected cash-in, next 13 weeks').nextSibling).toHaveTextContent('$2,500');
    await userEvent.click(card.getByRole('link', { name: 'Open Acme Demo' }));
    await waitFor(() => expect(location()).toBe('/sellers/1'));
  });
});

describe('the admin metrics chart', () => {
  const admin = () =>
    sellerApi({ platformAdmin: true }).on('GET /api/sellers', {
      body: listOf([
        syncedSeller(),
        syncedSeller({
          Id: 2,
          CompanyName: 'Other Co',
          Tenant: { Id: 8, Name: 'Other Ltd', PartnerId: null },
        }),
      ]),
    });

  it('charts Total Revenue or Total Paid of the chosen seller at the chosen frequency, by start date', async () => {
    const fake = admin().on('GET /api/metrics/sellers/2', (call) => {
      const url = new URL(call.url, 'http://x');
      return {
        body: {
          sellerId: 2,
          type: url.searchParams.get('type'),
          frequency: url.searchParams.get('frequency'),
          MetricsDate: '2026-11-20T00:05:00.000Z',
          rows: [
            { StartDate: '2026-11-09T00:00:00.000Z', Value: 123_456, Count: 3 },
            { StartDate: '2026-11-16T00:00:00.000Z', Value: 50_000, Count: 1 },
          ],
        },
      };
    });
    renderApp({ path: '/admin/metrics', fake });
    await screen.findByRole('heading', { level: 1, name: 'Metrics' });
    const seller = await screen.findByLabelText('Seller');
    await screen.findByRole('option', { name: 'Other Co (seller 2, Other Ltd)' });
    await userEvent.selectOptions(seller, '2');
    await userEvent.selectOptions(screen.getByLabelText('Metric'), 'TOTAL_PAID');
    await userEvent.selectOptions(screen.getByLabelText('Frequency'), 'WEEKLY');
    const table = await screen.findByRole('table', { name: 'Total Paid by start date' });
    await within(table).findByText('1,234.56');
    expect(rowsOf(table).slice(1)).toEqual([
      ['Nov 16, 2026', '500.00', '1'],
      ['Nov 9, 2026', '1,234.56', '3'],
    ]);
    const query = new URL(fake.callsTo('GET /api/metrics/sellers/2').at(-1)!.url, 'http://x').searchParams;
    expect(Object.fromEntries(query.entries())).toEqual({ type: 'TOTAL_PAID', frequency: 'WEEKLY' });
    // The choice lists every tenant's sellers, not the admin's own company's.
    const scopes = fake
      .callsTo('GET /api/sellers')
      .map((call) => new URL(call.url, 'http://x').searchParams.get('scope'));
    expect(scopes).toContain('all');
  });

  it('is for platform admins only: others are sent to the dashboard', async () => {
    const { location } = renderApp({ path: '/admin/metrics', fake: sellerApi() });
    await waitFor(() => expect(location()).toBe('/overview'));
  });
});

describe('the development explorers', () => {
  it('draw the customer transaction chart for any seller and customer typed in', async () => {
    const fake = sellerApi({ platformAdmin: true });
    renderApp({ path: '/admin/explorer/metrics', fake });
    await userEvent.type(await screen.findByLabelText('Seller id'), '1');
    await userEvent.type(screen.getByLabelText('Customer id'), '11');
    await screen.findByRole('table', { name: 'Invoices of Bramble Bakery' });
    expect(screen.getByRole('switch', { name: 'Show time gaps' })).not.toBeChecked();
    expect(new URL(fake.callsTo('GET /api/assets/11')[0]!.url, 'http://x').searchParams.get('sellerId')).toBe(
      '1',
    );
  });
});
