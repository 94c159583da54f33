/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RecordedCall } from '../../../test-support/fake-fetch';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi } from '../../sellers/seller-fixtures';
import { tenantFixture } from '../../../test-support/tenant-fixtures';
import type { TenantListRow } from '../../../api/queries/admin-tenants';
import { emptyTenantNotice } from './tenant-details';

// Whole-app renders with a table; the machine's two cores are shared with the servers.
jest.setTimeout(30_000);

const queryOf = (call: RecordedCall | undefined) =>
  Object.fromEntries(new URL(call?.url ?? '/', 'http://x').searchParams.entries());

const row = (overrides: Partial<TenantListRow>): TenantListRow => ({
  ...tenantFixture(),
  userCount: 2,
  activeSellerCount: 1,
  ...overrides,
});

const acme = row({ Id: 7, Name: 'Acme Ltd' });
const internal = row({
  Id: 8,
  Name: 'Ledgerwise Staff',
  UsageType: 'INTERNAL',
  userCount: 0,
  activeSellerCount: 0,
});
const gone = row({ Id: 9, Name: 'Gone Co', status: 'disabled', DisableReason: 'TESTING' });

const summary = { businesses: 40, firms: 3, sellers: 25 };
const pageOf = (rows: TenantListRow[], paged: boolean, total = rows.length) => ({
  rows,
  total,
  pagination: paged ? { page: 1, pageSize: 20, pageCount: Math.ceil(total / 20) } : null,
  summary,
});

/** A platform admin; the unnarrowed list has 43 tenants, 20 a page. */
const adminApi = () =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/tenants', (call) => {
      const query = queryOf(call);
      if (query.scope !== 'all') return { body: { tenants: [] } };
      if (query.search === 'nothing') return { body: pageOf([], false) };
      const narrowed = Object.keys(query).some((key) => !['scope', 'page'].includes(key));
      return { body: narrowed ? pageOf([gone], false, 612) : pageOf([acme, internal, gone], true, 43) };
    })
    .on('GET /api/tenants/8/details', { body: { users: [], sellers: [], linkedTenants: [] } })
    .on('GET /api/tenants/7/details', {
      body: {
        users: [{ Id: 3, Name: 'Ada Lovelace', Email: 'ada@example.com', Role: 'ADMIN' }],
        sellers: [{ Id: 1, CompanyName: 'Acme Demo', Provider: 'DEMO', Active: true }],
        linkedTenants: [{ Id: 12, Name: 'Advisors LLP', Classification: 'FIRM', link: 'advisor' }],
      },
    })
    .on('DELETE /api/tenants/7', { body: { ok: true } })
    .on('POST /api/tenants/9/restore', { body: { ok: true } })
    .on('DELETE /api/tenants/9', { body: { ok: true } });

const listCalls = (fake: ReturnType<typeof adminApi>) =>
  fake.callsTo('GET /api/tenants').filter((call) => queryOf(call).scope === 'all');
const lastQuery = (fake: ReturnType<typeof adminApi>) => queryOf(listCalls(fake).at(-1));

const tenantsTable = () => screen.findByRole('table', { name: 'Tenants' });

describe('the admin tenants table', () => {
  it('shows the summary cards and a page of 20 from the server, with pages only while nothing narrows it', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/tenants', fake });
    const table = await tenantsTable();
    await within(table).findByRole('row', { name: /Acme Ltd/ });
    expect(screen.getByText('40')).toBeInTheDocument();
    expect(screen.getByText('25')).toBeInTheDocument();
    expect(lastQuery(fake)).toEqual({ scope: 'all', page: '1' });
    expect(screen.getByRole('navigation', { name: 'Pages' })).toHaveTextContent('Page 1 of 3');

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastQuery(fake)).toEqual({ scope: 'all', page: '2' }));

    // A filter asks the server for every match: no page number, no pagination, and the cap notice.
    await userEvent.selectOptions(screen.getByLabelText('Has users'), 'true');
    await waitFor(() => expect(lastQuery(fake)).toEqual({ scope: 'all', hasUsers: 'true' }));
    await within(table).findByRole('row', { name: /Gone Co/ });
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
    expect(screen.getByText(/Showing the first 1 of 612 matching tenants/)).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Usage type'), 'TEST');
    await userEvent.selectOptions(screen.getByLabelText('Classification'), 'FIRM');
    await userEvent.selectOptions(screen.getByLabelText('Has active sellers'), 'false');
    await userEvent.click(within(table).getByRole('button', { name: 'Users' }));
    await waitFor(() =>
      expect(lastQuery(fake)).toEqual({
        scope: 'all',
        hasUsers: 'true',
        usageType: 'TEST',
        classification: 'FIRM',
        hasActiveSellers: 'false',
        sort: 'userCount',
        direction: 'asc',
      }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Reset Filters' }));
    await waitFor(() => expect(lastQuery(fake)).toEqual({ scope: 'all', page: '1' }));
    await screen.findByRole('navigation', { name: 'Pages' });
  });

  it('searches on the server and says when nothing matches', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/tenants', fake });
    await tenantsTable();
    await userEvent.type(screen.getByLabelText('Search tenants'), 'nothing');
    await screen.findByText('No tenants match the search and filters.');
    expect(lastQuery(fake)).toEqual({ scope: 'all', search: 'nothing' });
  });

  it('offers Disable except on INTERNAL tenants, and Restore and Purge only on disabled ones', async () => {
    renderApp({ path: '/admin/tenants', fake: adminApi() });
    const table = await tenantsTable();
    const acmeRow = await within(table).findByRole('row', { name: /Acme Ltd/ });
    expect(within(acmeRow).getByRole('button', { name: 'Disable Acme Ltd' })).toBeInTheDocument();
    expect(within(acmeRow).queryByRole('button', { name: 'Restore Acme Ltd' })).toBeNull();
    const internalRow = within(table).getByRole('row', { name: /Ledgerwise Staff/ });
    expect(within(internalRow).queryByRole('button', { name: /Disable/ })).toBeNull();
    const goneRow = within(table).getByRole('row', { name: /Gone Co/ });
    expect(within(goneRow).getByRole('button', { name: 'Restore Gone Co' })).toBeInTheDocument();
    expect(within(goneRow).getByRole('button', { name: 'Purge Gone Co' })).toBeInTheDocument();
    expect(within(goneRow).queryByRole('button', { name: /Disable/ })).toBeNull();
    expect(within(goneRow).getByRole('link', { name: 'Audit history of Gone Co' })).toHaveAttribute(
      'href',
      '/admin/tenants/9/audit?name=Gone%20Co',
    );
  });

  it('disables only once "disable" is typed, sending the chosen reason', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/tenants', fake });
    const table = await tenantsTable();
    const acmeRow = await within(table).findByRole('row', { name: /Acme Ltd/ });
    await userEvent.click(within(acmeRow).getByRole('button', { name: 'Disable Acme Ltd' }));
    const confirm = await screen.findByLabelText('Type disable to confirm');
    const submit = screen.getByRole('button', { name: 'Disable' });
    await userEvent.selectOptions(screen.getByLabelText('Reason'), 'DUPLICATE');
    await userEvent.type(confirm, 'Disable');
    expect(submit).toBeDisabled();
    await userEvent.clear(confirm);
    await userEvent.type(confirm, 'disable');
    expect(submit).toBeEnabled();
    await userEvent.click(submit);
    await screen.findByText('Acme Ltd (7) was disabled.');
    expect(fake.callsTo('DELETE /api/tenants/7').map((call) => queryOf(call))).toEqual([
      { reason: 'DUPLICATE' },
    ]);
  });

  it('purges with "purge", and permanently only with "permanent" typed too; restores at a click', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/tenants', fake });
    const table = await tenantsTable();
    const goneRow = await within(table).findByRole('row', { name: /Gone Co/ });
    await userEvent.click(within(goneRow).getByRole('button', { name: 'Purge Gone Co' }));
    await userEvent.type(await screen.findByLabelText('Type purge to confirm'), 'purge');
    await userEvent.click(screen.getByLabelText("Remove the tenant's record permanently"));
    const submit = screen.getByRole('button', { name: 'Purge' });
    expect(submit).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Type permanent to remove it permanently'), 'permanent');
    await userEvent.click(submit);
    await screen.findByText('Gone Co (9) was purged.');
    expect(fake.callsTo('DELETE /api/tenants/9').map((call) => queryOf(call))).toEqual([
      { purge: 'true', permanent: 'true' },
    ]);

    await userEvent.click(within(goneRow).getByRole('button', { name: 'Restore Gone Co' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Restore' }));
    await screen.findByText('Gone Co (9) was restored.');
    expect(fake.callsTo('POST /api/tenants/9/restore')).toHaveLength(1);
  });

  it('expands a row into its users, sellers and linked tenants, or the notice when it has neither', async () => {
    renderApp({ path: '/admin/tenants', fake: adminApi() });
    const table = await tenantsTable();
    await within(table).findByRole('row', { name: /Acme Ltd/ });
    await userEvent.click(
      within(table).getByRole('button', { name: 'Users, sellers and linked tenants of Acme Ltd' }),
    );
    const details = await screen.findByTestId('tenant-details-7');
    expect(details).toHaveTextContent('Ada Lovelace (ada@example.com), ADMIN');
    expect(details).toHaveTextContent('Acme Demo (id 1), DEMO, active');
    expect(within(details).getByRole('link', { name: 'Advisors LLP (12)' })).toHaveAttribute(
      'href',
      '/admin/tenants/12',
    );
    expect(details).not.toHaveTextContent(emptyTenantNotice);
    await userEvent.click(
      within(table).getByRole('button', { name: 'Users, sellers and linked tenants of Ledgerwise Staff' }),
    );
    expect(await screen.findByTestId('tenant-details-8')).toHaveTextContent(emptyTenantNotice);
  });
});
