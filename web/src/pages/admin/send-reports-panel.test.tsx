/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Job } from '../../../../contracts/api/jobs';
import { renderApp } from '../../test-support/render-app';
import { sellerApi, syncedSeller } from '../sellers/seller-fixtures';

// Whole-app renders with a table; the machine's two cores are shared with the servers.
jest.setTimeout(30_000);

const clientPerformanceJob: Job = {
  Id: 77,
  Kind: 'report',
  Type: 'CLIENT_PERFORMANCE',
  Status: 'created',
  TenantId: 7,
  SellerId: null,
  Parameters: {},
  WorkflowId: 'report-client-performance-job-77',
  Progress: null,
  Result: null,
  Failure: null,
  createdAt: '2026-11-26T18:00:00.000Z',
  startedAt: null,
  finishedAt: null,
};

const adminApi = () =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/sellers', { body: { rows: [syncedSeller()], total: 1, filtered: 1 } })
    .on('GET /api/reports/archived', { body: { rows: [] } })
    .on('POST /api/reports', { body: { jobs: [clientPerformanceJob] } });

describe('Send Report to Advisors (admin reports page)', () => {
  it('sends the Client Performance report with its options, no seller needed', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/reports', fake });
    const form = await screen.findByRole('region', { name: 'Send Report to Advisors' });
    await userEvent.click(within(form).getByLabelText('Exclude platform admins'));
    await userEvent.click(within(form).getByLabelText(/^Dry run/));
    await userEvent.click(within(form).getByRole('button', { name: 'Send Client Performance' }));
    expect(await screen.findByText('Job created for 1 Client Performance report')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/reports')[0]?.body).toEqual({
      type: 'CLIENT_PERFORMANCE',
      excludeAdmins: true,
      hasSellers: false,
      dryRun: true,
      admin: false,
    });

    // One advisor, their report sent to the admin asking.
    await userEvent.type(within(form).getByLabelText(/^Advisor user id/), '42');
    await userEvent.click(within(form).getByLabelText("Send every advisor's report to me instead"));
    await userEvent.click(within(form).getByRole('button', { name: 'Send Client Performance' }));
    await waitFor(() => expect(fake.callsTo('POST /api/reports')).toHaveLength(2));
    expect(fake.callsTo('POST /api/reports')[1]?.body).toMatchObject({ userId: 42, admin: true });
  });

  it('sends nothing while the user id is not a number', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/reports', fake });
    const form = await screen.findByRole('region', { name: 'Send Report to Advisors' });
    await userEvent.type(within(form).getByLabelText(/^Advisor user id/), 'ada');
    expect(within(form).getByText('Enter a user id, or leave it empty.')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Send Client Performance' })).toBeDisabled();
    expect(fake.callsTo('POST /api/reports')).toHaveLength(0);
  });
});
