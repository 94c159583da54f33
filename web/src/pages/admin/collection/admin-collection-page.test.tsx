/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RecordedCall } from '../../../test-support/fake-fetch';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi, syncedSeller } from '../../sellers/seller-fixtures';

jest.setTimeout(30_000);

const providerOf = (call: RecordedCall) => new URL(call.url, 'http://x').searchParams.get('provider');

const collectionApi = () =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/sellers', (call) => {
      const provider = providerOf(call);
      const row = syncedSeller({
        Id: provider === 'QBD' ? 42 : 1,
        Provider: provider === 'QBD' ? 'QBD' : 'QBO',
        CompanyName: provider === 'QBD' ? 'Desktop Books' : 'Online Books',
      });
      return { body: { rows: provider === 'XERO' ? [] : [row], total: 1, filtered: 1 } };
    })
    .on('POST /api/sellers/sync', {
      body: { jobs: [{ sellerId: 1, jobId: 9, mode: 'sync' }], skipped: [], message: 'Started 1 sync.' },
    });

describe('the admin collection page', () => {
  it('lists each platform’s sellers in its tab and syncs a platform’s active sellers', async () => {
    const fake = collectionApi();
    renderApp({ path: '/admin/collection', fake });
    const qbo = await screen.findByRole('table', { name: 'QuickBooks Online sellers' });
    expect(await within(qbo).findByText('Online Books')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sync all active QuickBooks Online sellers' }));
    expect(await screen.findByText('Started 1 sync.')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/sellers/sync')[0]?.body).toEqual({ provider: 'QBO', active: true });

    await userEvent.click(screen.getByRole('tab', { name: 'Xero' }));
    const xero = await screen.findByRole('table', { name: 'Xero sellers' });
    expect(await within(xero).findByText('No sellers')).toBeInTheDocument();
  });

  it('links each QuickBooks Desktop seller to its logs and offers no sync', async () => {
    renderApp({ path: '/admin/collection', fake: collectionApi() });
    await userEvent.click(await screen.findByRole('tab', { name: 'QuickBooks Desktop' }));
    const table = await screen.findByRole('table', { name: 'QuickBooks Desktop sellers' });
    const link = await within(table).findByRole('link', { name: 'Logs of 42' });
    expect(link).toHaveAttribute('href', '/admin/collection/qbd-logs/42');
    expect(screen.queryByRole('button', { name: /Sync all active/ })).not.toBeInTheDocument();
  });
});
