/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, within } from '@testing-library/react';
import type { ManagedReport } from '../../../../contracts/api/reports';
import { FakeFetch } from '../../test-support/fake-fetch';
import { renderApp } from '../../test-support/render-app';
import { oneSeller, sessionFixture, tenantRow } from '../../test-support/session-fixture';
import { listOf, tenantFixture } from '../../test-support/tenant-fixtures';
import { relativeTimeOf } from './report-texts';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const googleSheet: ManagedReport = {
  Type: 'CUSTOMER_SHEET',
  Provider: 'GOOGLE',
  StorageUrl: 'https://docs.google.com/spreadsheets/d/1AbcDEF',
  DisplayName: 'Acme Demo - Customer Sheet',
  updatedAt: minutesAgo(5),
  Seller: { CompanyName: 'Acme Demo' },
};
const excelForecast: ManagedReport = {
  Type: 'AR_FORECAST_SHEET',
  Provider: 'MICROSOFT',
  StorageUrl:
    'https://contoso-my.sharepoint.com/personal/ann/Documents/Ledgerwise/Acme%20Demo%20-%20AR%20Forecast.xlsx',
  DisplayName: 'Acme Demo - AR Forecast',
  updatedAt: minutesAgo(60 * 26),
  Seller: { CompanyName: 'Acme Demo' },
};

const api = (rows: ManagedReport[]) =>
  new FakeFetch()
    .on('GET /api/auth/self', { body: sessionFixture({ tenants: [tenantRow({ Role: 'USER' })] }) })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/tenants/7', { body: tenantFixture() })
    .on('GET /api/sellers', { body: oneSeller })
    .on('GET /api/subscriptions', { body: listOf([]) })
    .on('GET /api/reports/archived', { body: { rows: [] } })
    .on('GET /api/reports/managed', { body: { rows } })
    .on('GET /api/jobs', { body: { jobs: [] } });

describe('the Live Reports table', () => {
  it('lists each live report with its provider, company and how long ago it was refreshed, newest first', async () => {
    renderApp({ path: '/reports', fake: api([excelForecast, googleSheet]) });
    const table = await screen.findByRole('table', { name: 'Live reports' });
    const link = await within(table).findByRole('link', { name: /Acme Demo - Customer Sheet/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Customer sheet', 'Google Sheets', 'Acme Demo - Customer Sheet', 'Acme Demo', '5 minutes ago'],
      ['AR forecast sheet', 'Microsoft Excel', 'Acme Demo - AR Forecast', 'Acme Demo', 'yesterday'],
    ]);
    // The link opens the file at its provider in a new tab, without giving it this window.
    expect(link).toHaveAttribute('href', googleSheet.StorageUrl);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener') as string);
    expect(within(table).getByRole('link', { name: /AR Forecast/ })).toHaveAttribute(
      'href',
      excelForecast.StorageUrl,
    );
  });

  it('says how to get live reports when there are none', async () => {
    renderApp({ path: '/reports', fake: api([]) });
    const table = await screen.findByRole('table', { name: 'Live reports' });
    expect(
      await within(table).findByText(/^No Live Reports\. Connect Google or Microsoft/),
    ).toBeInTheDocument();
  });
});

describe('relative update times', () => {
  const now = new Date('2030-01-10T12:00:00.000Z');
  it.each([
    ['2030-01-10T11:59:30.000Z', 'just now'],
    ['2030-01-10T11:30:00.000Z', '30 minutes ago'],
    ['2030-01-10T10:30:00.000Z', '1 hour ago'],
    ['2030-01-09T12:00:00.000Z', 'yesterday'],
    ['2029-12-20T12:00:00.000Z', '3 weeks ago'],
    ['2029-10-01T12:00:00.000Z', '3 months ago'],
  ])('%s reads %s', (iso, text) => {
    expect(relativeTimeOf(iso, now)).toBe(text);
  });
});
