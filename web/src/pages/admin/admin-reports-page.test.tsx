/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Job } from '../../../../contracts/api/jobs';
import { renderApp } from '../../test-support/render-app';
import { sellerApi, syncedSeller } from '../sellers/seller-fixtures';

// Whole-app renders with a table; the machine's two cores are shared with the servers.
jest.setTimeout(30_000);

const acme = syncedSeller({ Tenant: { Id: 7, Name: 'Acme Ltd', PartnerId: null } });
const other = syncedSeller({
  Id: 2,
  TenantId: 8,
  CompanyName: 'Other Co',
  Tenant: { Id: 8, Name: 'Other Ltd', PartnerId: null },
});

const reportJob = (sellerId: number): Job => ({
  Id: 50 + sellerId,
  Kind: 'report',
  Type: 'weekly',
  Status: 'created',
  TenantId: 7,
  SellerId: sellerId,
  Parameters: {},
  WorkflowId: `report-${50 + sellerId}`,
  Progress: null,
  Result: null,
  Failure: null,
  createdAt: '2026-11-25T20:00:00.000Z',
  startedAt: null,
  finishedAt: null,
});

const adminApi = () =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/sellers', { body: { rows: [acme, other], total: 2, filtered: 2 } })
    .on('GET /api/reports/archived', {
      body: {
        rows: [
          {
            Id: 9,
            Type: 'MONTHLY_REPORT',
            Extension: 'pdf',
            DisplayName: 'Monthly Report 2026-10',
            Size: 4096,
            createdAt: '2026-11-07T07:00:00.000Z',
            SellerId: 2,
            TenantId: 8,
            Seller: { CompanyName: 'Other Co' },
          },
        ],
      },
    });

describe('the admin reports page', () => {
  it('offers the send buttons only once a seller is selected, and sends with the chosen options', async () => {
    const fake = adminApi().on('POST /api/reports', (call) => ({
      body: { jobs: ((call.body as { sellerIds: number[] }).sellerIds ?? []).map(reportJob) },
    }));
    renderApp({ path: '/admin/reports', fake });
    const table = await screen.findByRole('table', { name: 'Active sellers' });
    await within(table).findByText('Other Co');
    expect(screen.queryByRole('button', { name: 'Send reports' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start workflow' })).not.toBeInTheDocument();

    await userEvent.click(within(table).getByRole('checkbox', { name: 'Select Other Co' }));
    await userEvent.selectOptions(screen.getByLabelText('Report'), 'monthly');
    await userEvent.click(screen.getByLabelText('Include customer sheet'));
    await userEvent.click(screen.getByRole('button', { name: 'Send reports' }));
    expect(await screen.findByText('Jobs created for 1 selected seller')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/reports')[0]?.body).toEqual({
      type: 'REPORTS',
      sellerIds: [2],
      frequency: 'monthly',
      admin: false,
      archive: false,
      includeCustomerSheet: true,
      includeCustomerReviewSheet: false,
      includePrioritizedInvoices: false,
      includeForecast: false,
    });

    // The workflow defaults of admin.md section 9: noOverride and noRecent on.
    await userEvent.click(screen.getByRole('button', { name: 'Start workflow' }));
    await waitFor(() => expect(fake.callsTo('POST /api/reports')).toHaveLength(2));
    expect(fake.callsTo('POST /api/reports')[1]?.body).toMatchObject({
      type: 'WORKFLOW',
      sellerIds: [2],
      frequency: 'weekly',
      noOverride: true,
      noRecent: true,
      onlyArchive: false,
      skipRecentDataChecks: false,
    });
  });

  it('shows the catalogue error when a send is refused', async () => {
    const fake = adminApi().on('POST /api/reports', {
      status: 409,
      body: { code: 'conflict', message: 'A previous request to send the report is still processing.' },
    });
    renderApp({ path: '/admin/reports', fake });
    const table = await screen.findByRole('table', { name: 'Active sellers' });
    await userEvent.click(await within(table).findByRole('checkbox', { name: 'Select Acme Demo' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send reports' }));
    expect(
      await screen.findByText(
        'There was an error: A previous request to send the report is still processing.',
      ),
    ).toBeInTheDocument();
  });

  it("lists a seller's archived reports in its expanded row", async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/reports', fake });
    const table = await screen.findByRole('table', { name: 'Active sellers' });
    await userEvent.click(await within(table).findByRole('button', { name: 'Archived reports of Other Co' }));
    const archive = await screen.findByRole('table', { name: 'Report archive' });
    expect(await within(archive).findByText('Monthly Report 2026-10')).toBeInTheDocument();
    const call = fake.callsTo('GET /api/reports/archived')[0];
    expect(new URL(call?.url ?? '/', 'http://x').searchParams.get('sellerId')).toBe('2');
  });
});
