/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RecordedCall } from '../../test-support/fake-fetch';
import { renderApp } from '../../test-support/render-app';
import {
  customerForecastFixture,
  customerRow,
  customersPage,
  forecastsFixture,
  sellerApi,
  syncedSeller,
} from './seller-fixtures';

// Whole-app renders with charts and tables; the machine's two cores are shared with the servers.
jest.setTimeout(30_000);

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

const queryOf = (call: RecordedCall | undefined) =>
  Object.fromEntries(new URL(call?.url ?? '/', 'http://x').searchParams.entries());

describe('the seller page', () => {
  it('shows the KPI cards: revenue, open and overdue balances, DSO, the next 13 weeks', async () => {
    renderApp({ path: '/sellers/1', fake: sellerApi() });
    await screen.findByRole('heading', { level: 1, name: 'Acme Demo' });
    const card = (label: string) => screen.getByText(label, { selector: 'p' }).parentElement!;
    await waitFor(() => expect(card('Revenue, last 12 months')).toHaveTextContent('$48,000'));
    await waitFor(() => expect(card('Open balance')).toHaveTextContent('$3,000'));
    expect(card('Overdue')).toHaveTextContent('$1,000');
    // The DSO of the latest month with sales, in days (rows hold hundredths).
    await waitFor(() => expect(card('DSO, latest month')).toHaveTextContent('38.5 days'));
    expect(card('Revenue forecast, next 13 weeks')).toHaveTextContent('$2,400');
    expect(card('Expected cash-in, next 13 weeks')).toHaveTextContent('$2,500');
  });

  it('charts the revenue forecast with its 80 and 95 percent bands, weekly or monthly, and the collections forecast', async () => {
    renderApp({ path: '/sellers/1', fake: sellerApi() });
    const weekly = await screen.findByRole('table', { name: 'Revenue by week: history and forecast' });
    expect(rowsOf(weekly)).toEqual([
      ['Period', 'History', 'Forecast', '80% interval', '95% interval'],
      ['Nov 2, 2026', '$1,000', '', '', ''],
      ['Nov 9, 2026', '$1,200', '', '', ''],
      ['Nov 16, 2026', '$1,100', '', '', ''],
      ['Nov 23, 2026', '', '$1,150', '$1,050 to $1,250', '$950 to $1,350'],
      ['Nov 30, 2026', '', '$1,250', '$1,050 to $1,450', '$850 to $1,650'],
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Monthly' }));
    expect(screen.getByRole('button', { name: 'Monthly' })).toHaveAttribute('aria-pressed', 'true');
    const monthly = screen.getByRole('table', { name: 'Revenue by month: history and forecast' });
    expect(rowsOf(monthly).slice(1)).toEqual([
      ['Oct 2026', '$4,800', '', '', ''],
      ['Dec 2026', '', '$5,000', '$4,500 to $5,500', '$4,000 to $6,000'],
    ]);

    const collections = within(screen.getByRole('region', { name: 'Collections forecast' }));
    expect(
      collections.getByText(/\$2,500 of the \$3,000 open in 4 invoices is expected in the next 13 weeks/),
    ).toBeInTheDocument();
    expect(rowsOf(collections.getByRole('table', { name: 'Expected cash-in by week' })).slice(1)).toEqual([
      ['Nov 23, 2026', '$1,500', '$1,200 to $1,800', '$900 to $2,100'],
      ['Nov 30, 2026', '$1,000', '$700 to $1,300', '$400 to $1,600'],
    ]);
  });

  it('charts standard and countback DSO by month, a month without sales as a gap rather than zero', async () => {
    renderApp({ path: '/sellers/1', fake: sellerApi() });
    const table = await screen.findByRole('table', { name: 'DSO by month, standard and countback' });
    expect(rowsOf(table)).toEqual([
      ['Month', 'Standard DSO', 'Countback DSO'],
      ['Sep 2026', '42.1 days', '39.0 days'],
      ['Oct 2026', 'No sales', 'No sales'],
      ['Nov 2026', '38.5 days', '36.0 days'],
    ]);
  });

  it('asks for the aging as of the chosen day and shows its buckets', async () => {
    const fake = sellerApi();
    renderApp({ path: '/sellers/1', fake });
    const aging = within(await screen.findByRole('region', { name: 'Aging' }));
    await aging.findByRole('table', { name: 'Aging as of Nov 20, 2026' });
    fireEvent.change(aging.getByLabelText('As of'), { target: { value: '2026-06-30' } });
    const table = await aging.findByRole('table', { name: 'Aging as of Jun 30, 2026' });
    expect(queryOf(fake.callsTo('GET /api/sellers/1/aging').at(-1))).toEqual({ asOf: '2026-06-30' });
    expect(rowsOf(table).slice(1)).toEqual([
      ['Current', '$2,000', '2'],
      ['1 to 30 days', '$500', '1'],
      ['31 to 60 days', '$300', '1'],
      ['61 to 90 days', '$0', '0'],
      ['Over 90 days', '$200', '1'],
    ]);
    expect(
      aging.getByText(/\$3,000 open in 5 invoices on Jun 30, 2026, \$1,000 of it overdue/),
    ).toBeInTheDocument();
  });

  it('pages and sorts the customers on the server, with their figures and risk', async () => {
    const fake = sellerApi().on('GET /api/sellers/1/customers', (call) => {
      const query = queryOf(call);
      return {
        body: customersPage(
          [customerRow({ name: query.search ? 'Bramble Bakery' : `Customer on page ${query.page}` })],
          { page: Number(query.page), total: 60 },
        ),
      };
    });
    renderApp({ path: '/sellers/1', fake });
    const table = await screen.findByRole('table', { name: 'Customers' });
    await within(table).findByText('Customer on page 1');
    expect(queryOf(fake.callsTo('GET /api/sellers/1/customers')[0])).toEqual({
      page: '1',
      pageSize: '25',
      sort: 'openBalance',
      order: 'desc',
    });
    const row = within(table).getByRole('row', { name: /Customer on page 1/ });
    expect(within(row).getByText('Medium')).toBeInTheDocument();
    expect(within(row).getByText('$1,200')).toBeInTheDocument();
    expect(within(row).getByText('34.5 days')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await within(table).findByText('Customer on page 2');
    expect(screen.getByText('Page 2 of 3 (60 rows)')).toBeInTheDocument();
    expect(queryOf(fake.callsTo('GET /api/sellers/1/customers').at(-1))).toMatchObject({ page: '2' });

    await userEvent.click(within(table).getByRole('button', { name: /Customer/ }));
    await waitFor(() =>
      expect(queryOf(fake.callsTo('GET /api/sellers/1/customers').at(-1))).toMatchObject({
        page: '1',
        sort: 'name',
        order: 'asc',
      }),
    );
  });

  it('searches the customers on the server from the first page, each name opening the customer view', async () => {
    const fake = sellerApi().on('GET /api/sellers/1/customers', (call) => {
      const query = queryOf(call);
      return {
        body: customersPage(
          [customerRow({ name: query.search ? 'Bramble Bakery' : `Customer on page ${query.page}` })],
          { page: Number(query.page), total: 60 },
        ),
      };
    });
    const { location } = renderApp({ path: '/sellers/1', fake });
    const table = await screen.findByRole('table', { name: 'Customers' });
    await userEvent.click(await screen.findByRole('button', { name: 'Next page' }));
    await within(table).findByText('Customer on page 2');
    await userEvent.type(screen.getByLabelText('Search customers'), 'bram');
    await within(table).findByText('Bramble Bakery');
    expect(queryOf(fake.callsTo('GET /api/sellers/1/customers').at(-1))).toMatchObject({
      page: '1',
      search: 'bram',
    });
    await userEvent.click(within(table).getByRole('link', { name: 'Bramble Bakery' }));
    await waitFor(() => expect(location()).toBe('/sellers/1/customers/11'));
  });

  it('says what brings the figures before the first sync: a sync from Platforms', async () => {
    const fake = sellerApi().on('GET /api/sellers/1', {
      body: syncedSeller({ MetricsDate: null, Progress: 'syncing', ProgressBadge: null }),
    });
    renderApp({ path: '/sellers/1', fake });
    await screen.findByText('No figures yet');
    expect(screen.getByRole('link', { name: 'Run a sync from Platforms' })).toHaveAttribute(
      'href',
      '/platforms',
    );
    expect(fake.callsTo('GET /api/forecasts/sellers/1')).toHaveLength(0);
  });

  it('explains a missing forecast: the seller flag when it is off, the next sync when it is on', async () => {
    const off = sellerApi().on('GET /api/forecasts/sellers/1', {
      body: forecastsFixture({ enabled: false, revenue: { weekly: null, monthly: null }, collections: null }),
    });
    const first = renderApp({ path: '/sellers/1', fake: off });
    expect(await screen.findAllByText(/Forecasting is turned off for this seller/)).toHaveLength(2);
    first.unmount();

    const on = sellerApi().on('GET /api/forecasts/sellers/1', {
      body: forecastsFixture({ revenue: { weekly: null, monthly: null }, collections: null }),
    });
    renderApp({ path: '/sellers/1', fake: on });
    expect(await screen.findAllByText(/No revenue forecast yet|No collections forecast yet/)).toHaveLength(2);
  });

  it('shows a seller of another company as not found', async () => {
    const fake = sellerApi().on('GET /api/sellers/1', {
      status: 404,
      body: { message: 'Not Found', code: 'not_found' },
    });
    renderApp({ path: '/sellers/1', fake });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This seller does not exist or belongs to another company.',
    );
  });
});

describe('the customer view', () => {
  it('lists the invoices with days since the previous one and the moving-average DBT', async () => {
    renderApp({ path: '/sellers/1/customers/11', fake: sellerApi() });
    await screen.findByRole('heading', { level: 1, name: 'Bramble Bakery' });
    const table = screen.getByRole('table', { name: 'Invoices of Bramble Bakery' });
    expect(rowsOf(table)).toEqual([
      ['Date▼', 'Amount↕', 'Days Since Previous Txn↕', 'MovingAvg DBT↕'],
      ['Apr 15, 2026', '$50', '90', '50.0 days'],
      ['Jan 15, 2026', '$250', '10', '10.0 days'],
      ['Jan 5, 2026', '$100', '—', '—'],
    ]);
    expect(screen.getByRole('link', { name: 'Back to Acme Demo' })).toHaveAttribute('href', '/sellers/1');
  });

  it('switches the chart to running totals and, showing time gaps, to a scatter chart', async () => {
    renderApp({ path: '/sellers/1/customers/11', fake: sellerApi() });
    const amounts = await screen.findByRole('table', { name: 'Amount by invoice date, Bramble Bakery' });
    expect(rowsOf(amounts).slice(1)).toEqual([
      ['Jan 5, 2026', '$100'],
      ['Jan 15, 2026', '$250'],
      ['Apr 15, 2026', '$50'],
    ]);
    const chart = screen.getByTestId('customer-transaction-chart');
    expect(chart).toHaveAttribute('data-chart', 'line');

    await userEvent.click(screen.getByRole('switch', { name: 'Cumulative' }));
    const totals = screen.getByRole('table', { name: 'Cumulative amount by invoice date, Bramble Bakery' });
    expect(rowsOf(totals).slice(1)).toEqual([
      ['Jan 5, 2026', '$100'],
      ['Jan 15, 2026', '$350'],
      ['Apr 15, 2026', '$400'],
    ]);

    await userEvent.click(screen.getByRole('switch', { name: 'Show time gaps' }));
    expect(screen.getByTestId('customer-transaction-chart')).toHaveAttribute('data-chart', 'scatter');
    expect(screen.getByRole('switch', { name: 'Cumulative' })).toBeChecked();
  });

  it("shows the customer's expected cash-in and each open invoice's expected payment", async () => {
    renderApp({ path: '/sellers/1/customers/11', fake: sellerApi() });
    const cashIn = within(await screen.findByRole('region', { name: 'Expected cash-in' }));
    await cashIn.findByText(/\$40 expected in the next 13 weeks from 1 invoice open/);
    const table = cashIn.getByRole('table', { name: 'Open invoices and their expected payment' });
    expect(rowsOf(table)[1]).toEqual([
      '1003',
      'May 15, 2026',
      '$50',
      'Nov 25, 2026',
      'Nov 22, 2026 to Dec 10, 2026',
      '80%',
    ]);
  });

  it('says when no collections forecast covers the customer yet', async () => {
    const fake = sellerApi().on('GET /api/forecasts/sellers/1/customers/11', {
      body: customerForecastFixture({ issuedAt: null, asOf: null, weeks: [], invoices: [] }),
    });
    renderApp({ path: '/sellers/1/customers/11', fake });
    await screen.findByText(/No collections forecast yet/);
  });
});
