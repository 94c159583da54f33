/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi } from '../../sellers/seller-fixtures';

jest.setTimeout(30_000);

const adminApi = () =>
  sellerApi({ platformAdmin: true })
    .on('POST /api/datasets', { body: { jobs: [] } })
    .on('GET /api/sellers/1/datasets', {
      body: {
        files: [
          {
            jobId: 31,
            createdAt: '2026-11-20T10:00:00.000Z',
            dataset: 'seller_analytics_weekly',
            contentType: 'csv',
            objectKey: 'tenants/7/datasets/31/seller_analytics_weekly-1.csv',
            fileName: 'seller_analytics_weekly-1-2023-09-01-2026-09-01.csv',
            mimeType: 'text/csv',
            bytes: 2048,
            rows: 157,
            startDate: '2023-09-01',
            endDate: '2026-09-01',
          },
        ],
      },
    })
    .on('GET /api/sellers/1/datasets/ar_forecast_aiml', {
      status: 404,
      body: {
        message: 'No ar_forecast_aiml data set has been generated for this seller yet.',
        code: 'not_found',
      },
    });

describe('the admin data-sets page', () => {
  it('needs a selected seller to generate, then asks for one job per selected seller with the defaults', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/datasets', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('No Seller Selected')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/datasets')).toHaveLength(0);

    await userEvent.click(screen.getByRole('tab', { name: 'Analytics' }));
    await userEvent.selectOptions(screen.getByLabelText('Content type'), 'csv');
    const table = screen.getByRole('table', { name: 'Sellers' });
    await userEvent.click(within(table).getAllByRole('checkbox').at(-1)!);
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(fake.callsTo('POST /api/datasets')).toHaveLength(1));
    expect(fake.callsTo('POST /api/datasets')[0]!.body).toEqual({
      dataset: 'seller_analytics_weekly',
      contentType: 'csv',
      sellerIds: [1],
    });
  });

  it('lists a seller’s generated files when its row opens, and titles a failed download after the data set', async () => {
    renderApp({ path: '/admin/datasets', fake: adminApi() });
    const table = await screen.findByRole('table', { name: 'Sellers' });
    await userEvent.click(await within(table).findByRole('button', { name: /^Data sets of / }));
    expect(
      await screen.findByText(/seller_analytics_weekly-1-2023-09-01-2026-09-01\.csv \(157 rows/),
    ).toBeInTheDocument();
    await userEvent.click(within(table).getByRole('button', { name: /^Download ar_forecast_aiml of / }));
    expect(
      await screen.findByText(
        'There was an error: No ar_forecast_aiml data set has been generated for this seller yet.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Download ar_forecast_aiml DataSet')).toBeInTheDocument();
  });
});
