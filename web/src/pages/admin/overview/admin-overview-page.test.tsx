/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, within } from '@testing-library/react';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi } from '../../sellers/seller-fixtures';
import { adminStatsFixture as stats } from '../statistics/admin-stats-fixture';

jest.setTimeout(30_000);

describe('the admin overview', () => {
  it('shows the cards of admin.md section 2, with Sales (All Time) and the Key Metrics download', async () => {
    renderApp({
      path: '/admin/overview',
      fake: sellerApi({ platformAdmin: true }).on('GET /api/stats', { body: { stats } }),
    });
    expect(await screen.findByText('$9,876,543')).toBeInTheDocument();
    expect(screen.getByText('Sales (All Time)')).toBeInTheDocument();
    expect(screen.getByText('$1,234,568')).toBeInTheDocument();
    expect(screen.getByText('41 / 5')).toBeInTheDocument();
    const keyMetrics = screen.getByText('Key Metrics').closest('div')!.parentElement!;
    const link = within(keyMetrics).getByRole('link', { name: 'Download spreadsheet (.xlsx)' });
    expect(link).toHaveAttribute('href', '/api/stats/key-metrics');
    expect(link).toHaveAttribute('download');
  });
});
