/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi } from '../../sellers/seller-fixtures';
import { adminStatsFixture as stats } from './admin-stats-fixture';

jest.setTimeout(30_000);

describe('the admin statistics screen', () => {
  it("shows the platform's counts and the ledger's T36M figures, amounts from cents", async () => {
    renderApp({
      path: '/admin/statistics',
      fake: sellerApi({ platformAdmin: true }).on('GET /api/stats', { body: { stats } }),
    });
    expect(await screen.findByText('12,345')).toBeInTheDocument();
    expect(screen.getByText('678,901')).toBeInTheDocument();
    expect(screen.getByText('1,234,567.89')).toBeInTheDocument();
    expect(screen.getByText('9,876,543.21')).toBeInTheDocument();
    expect(screen.getByText('Inactive Sellers')).toBeInTheDocument();
  });

  it("downloads a seller's newest data set, a failure titled Download {dataset} DataSet", async () => {
    const fake = sellerApi({ platformAdmin: true })
      .on('GET /api/stats', { body: { stats } })
      .on('GET /api/sellers/9/datasets/seller_analytics_monthly', {
        status: 409,
        body: { message: 'This data set is too large to open here.', code: 'conflict' },
      });
    renderApp({ path: '/admin/statistics', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'seller_analytics_monthly' }));
    expect(await screen.findByText('Enter a seller id.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Seller id'), '9');
    await userEvent.click(screen.getByRole('button', { name: 'seller_analytics_monthly' }));
    await waitFor(() =>
      expect(fake.callsTo('GET /api/sellers/9/datasets/seller_analytics_monthly')).toHaveLength(1),
    );
    expect(
      await screen.findByText('There was an error: This data set is too large to open here.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Download seller_analytics_monthly DataSet')).toBeInTheDocument();
  });
});
