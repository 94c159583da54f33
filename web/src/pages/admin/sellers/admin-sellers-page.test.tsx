/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Job } from '../../../../../contracts/api/jobs';
import type { SellerResponse } from '../../../../../contracts/api/sellers';
import type { RecordedCall } from '../../../test-support/fake-fetch';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi, syncedSeller } from '../../sellers/seller-fixtures';

// Whole-app renders with a table; the machine's two cores are shared with the servers.
jest.setTimeout(30_000);

const queryOf = (call: RecordedCall | undefined) =>
  Object.fromEntries(new URL(call?.url ?? '/', 'http://x').searchParams.entries());

const acme = (overrides: Partial<SellerResponse> = {}) =>
  syncedSeller({ Tenant: { Id: 7, Name: 'Acme Ltd', PartnerId: null }, ...overrides });
const other = syncedSeller({
  Id: 2,
  TenantId: 8,
  CompanyName: 'Other Co',
  Provider: 'QBO',
  Tenant: { Id: 8, Name: 'Other Ltd', PartnerId: 3 },
});

const jobOf = (overrides: Partial<Job> = {}): Job => ({
  Id: 41,
  Kind: 'forecast',
  Type: 'forecasts',
  Status: 'created',
  TenantId: 7,
  SellerId: 1,
  Parameters: { sellerId: 1, onlyMissing: false },
  WorkflowId: 'metrics-job-41',
  Progress: null,
  Result: null,
  Failure: null,
  createdAt: '2026-11-25T20:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  ...overrides,
});

/** A platform admin; the platform has 5 sellers, 2 of them match the table's filters. */
const adminApi = (rows: () => SellerResponse[] = () => [acme(), other]) =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/sellers', (call) =>
      queryOf(call).scope === 'all'
        ? { body: { rows: rows(), total: 5, filtered: 2 } }
        : { body: { rows: [acme()], total: 1, filtered: 1 } },
    )
    .on('POST /api/metrics/sellers', (call) => ({
      body: { jobs: [jobOf({ Type: queryOf(call).jobType ?? 'sellers' })] },
    }));

const adminCalls = (fake: ReturnType<typeof adminApi>) =>
  fake.callsTo('GET /api/sellers').filter((call) => queryOf(call).scope === 'all');

const sellersTable = () => screen.findByRole('table', { name: 'Sellers' });

describe('the admin sellers table', () => {
  it("lists every tenant's sellers from the server with the summary counts, filtering, searching and sorting there", async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/sellers', fake });
    const table = await sellersTable();
    const acmeRow = await within(table).findByRole('row', { name: /Acme Demo/ });
    expect(within(acmeRow).getByRole('link', { name: 'Acme Demo' })).toHaveAttribute('href', '/sellers/1');
    expect(acmeRow).toHaveTextContent('Acme Ltd (7)');
    expect(acmeRow).toHaveTextContent('DEMO');
    expect(within(acmeRow).getByRole('switch', { name: 'Active: Acme Demo' })).toBeChecked();
    expect(acmeRow).toHaveTextContent('Last sync on');
    expect(acmeRow).toHaveTextContent('Nov 20, 2026');
    expect(within(table).getByRole('row', { name: /Other Co/ })).toHaveTextContent('Other Ltd (8)');
    expect(screen.getByText('Total: 5, Filtered: 2')).toBeInTheDocument();
    // Opens on the active sellers, newest first, one page of 25.
    expect(queryOf(adminCalls(fake)[0])).toEqual({
      scope: 'all',
      Active: 'true',
      sort: 'Id',
      direction: 'desc',
      offset: '0',
      limit: '25',
    });

    await userEvent.selectOptions(screen.getByLabelText('Provider'), 'QBO');
    await userEvent.selectOptions(screen.getByLabelText('Collection date'), 'stale');
    await waitFor(() => expect(queryOf(adminCalls(fake).at(-1))).toMatchObject({ provider: 'QBO' }));
    await waitFor(() => expect(queryOf(adminCalls(fake).at(-1))).toMatchObject({ collection: 'stale' }));
    await userEvent.type(screen.getByLabelText('Search sellers'), 'acme');
    await waitFor(() => expect(queryOf(adminCalls(fake).at(-1))).toMatchObject({ search: 'acme' }));
    await userEvent.click(within(table).getByRole('button', { name: /Company/ }));
    await waitFor(() =>
      expect(queryOf(adminCalls(fake).at(-1))).toMatchObject({
        sort: 'CompanyName',
        direction: 'asc',
        provider: 'QBO',
        search: 'acme',
      }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    await waitFor(() =>
      expect(queryOf(adminCalls(fake).at(-1))).toEqual({
        scope: 'all',
        sort: 'CompanyName',
        direction: 'asc',
        offset: '0',
        limit: '25',
      }),
    );
  });

  it('asks for the job of the button pressed for that seller and says the jobs were created', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/sellers', fake });
    const table = await sellersTable();
    await userEvent.click(
      await within(table).findByRole('button', { name: 'F S: Seller forecasts for Other Co' }),
    );
    expect(await screen.findByText('Jobs created...')).toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('Only missing periods (every job button)'));
    await userEvent.click(within(table).getByRole('button', { name: 'C: Customer metrics for Acme Demo' }));
    await waitFor(() => expect(fake.callsTo('POST /api/metrics/sellers')).toHaveLength(2));
    const [forecasts, customers] = fake.callsTo('POST /api/metrics/sellers');
    expect(queryOf(forecasts)).toEqual({ jobType: 'forecasts' });
    expect(forecasts?.body).toEqual({ id: 2, onlyMissing: false });
    expect(queryOf(customers)).toEqual({ jobType: 'customers' });
    expect(customers?.body).toEqual({ id: 1, onlyMissing: true });
    // Every row opens to its archived reports and has the four buttons of admin.md section 2, edit and
    // switch; an active seller offers no delete.
    const row = within(table).getByRole('row', { name: /Acme Demo/ });
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label') ?? button.textContent),
    ).toEqual([
      'Archived reports of Acme Demo',
      'S: Seller metrics for Acme Demo',
      'F S: Seller forecasts for Acme Demo',
      'F C: Customer forecasts for Acme Demo',
      'C: Customer metrics for Acme Demo',
      'Edit Acme Demo',
      'Switch to Tenant of Acme Demo',
    ]);
  });

  it('shows the reason when a job cannot be created', async () => {
    const fake = adminApi().on('POST /api/metrics/sellers', {
      status: 422,
      body: { message: 'Seller not found.', code: 'validation', properties: { id: 'Unknown seller' } },
    });
    renderApp({ path: '/admin/sellers', fake });
    const table = await sellersTable();
    await userEvent.click(
      await within(table).findByRole('button', { name: 'S: Seller metrics for Acme Demo' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('There was an error: Seller not found.');
    expect(screen.queryByText('Jobs created...')).not.toBeInTheDocument();
  });

  it('captures historical metrics and forecasts for the seller id typed in', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/sellers', fake });
    await sellersTable();
    await userEvent.click(screen.getByRole('button', { name: 'Capture historical' }));
    expect(await screen.findByText('Enter a seller id.')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/metrics/sellers')).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Seller id'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Capture historical' }));
    expect(await screen.findByText('Job created...')).toBeInTheDocument();
    const [call] = fake.callsTo('POST /api/metrics/sellers');
    expect(queryOf(call)).toEqual({ jobType: 'historical' });
    expect(call?.body).toEqual({ id: 2, onlyMissing: false });
  });

  it("turns a seller's forecasting on through its forecasts.Receivables flag and shows the new state", async () => {
    let forecasting = false;
    const fake = adminApi(() => [acme({ Forecasting: forecasting }), other]).on(
      'POST /api/sellers/1/flags/forecasts',
      () => {
        forecasting = true;
        return { body: acme({ Forecasting: true }) };
      },
    );
    renderApp({ path: '/admin/sellers', fake });
    const table = await sellersTable();
    const toggle = await within(table).findByRole('switch', { name: 'Forecasting for Acme Demo' });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() =>
      expect(within(table).getByRole('switch', { name: 'Forecasting for Acme Demo' })).toBeChecked(),
    );
    const [call] = fake.callsTo('POST /api/sellers/1/flags/forecasts');
    expect(call?.body).toEqual({ state: true, section: 'Receivables' });
    // The state shown is the server's, read again after the change.
    expect(adminCalls(fake).length).toBeGreaterThanOrEqual(2);
  });

  it('offers delete on an inactive seller only, and deletes once the word delete is typed', async () => {
    let rows = [acme(), { ...other, Active: false }];
    const fake = adminApi(() => rows).on('DELETE /api/sellers/2', () => {
      rows = [acme()];
      return { body: { ok: true } };
    });
    renderApp({ path: '/admin/sellers', fake });
    const table = await sellersTable();
    await within(table).findByRole('row', { name: /Other Co/ });
    expect(within(table).queryByRole('button', { name: 'Delete Acme Demo' })).not.toBeInTheDocument();
    // Cancelling says so and deletes nothing.
    await userEvent.click(within(table).getByRole('button', { name: 'Delete Other Co' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Cancelling delete seller request!')).toBeInTheDocument();
    expect(fake.callsTo('DELETE /api/sellers/2')).toHaveLength(0);
    await userEvent.click(within(table).getByRole('button', { name: 'Delete Other Co' }));
    const confirm = await screen.findByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Type delete to confirm'), 'delete');
    await userEvent.click(confirm);
    expect(await screen.findByText('Other Co was deleted.')).toBeInTheDocument();
    expect(fake.callsTo('DELETE /api/sellers/2')).toHaveLength(1);
  });

  it('is for platform admins only: others are sent to the dashboard and see no link to it', async () => {
    const { location } = renderApp({ path: '/admin/sellers', fake: sellerApi() });
    await waitFor(() => expect(location()).toBe('/overview'));
    expect(screen.queryByRole('link', { name: 'Admin Sellers' })).not.toBeInTheDocument();
  });

  it('is linked from the sidebar for platform admins, beside the metrics chart', async () => {
    const { location } = renderApp({ path: '/overview', fake: adminApi() });
    const sidebar = within(await screen.findByTestId('sidebar'));
    expect(sidebar.getByRole('link', { name: 'Admin Metrics' })).toHaveAttribute('href', '/admin/metrics');
    await userEvent.click(sidebar.getByRole('link', { name: 'Admin Sellers' }));
    await waitFor(() => expect(location()).toBe('/admin/sellers'));
    await sellersTable();
  });
});
