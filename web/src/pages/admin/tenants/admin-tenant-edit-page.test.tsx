/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../../test-support/render-app';
import { tenantFixture } from '../../../test-support/tenant-fixtures';
import { sellerApi } from '../../sellers/seller-fixtures';

jest.setTimeout(30_000);

const api = () =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/tenants/42', {
      body: tenantFixture({ Id: 42, Name: 'Other Co', Referrer: 'partner-site', UsageType: 'TEST' }),
    })
    .on('PUT /api/tenants/42', (call) => ({
      body: tenantFixture({ Id: 42, Name: 'Other Co', ...(call.body as object) }),
    }));

describe('the admin tenant edit page', () => {
  it('edits any tenant in vertical tabs Company, Reporting and Logo, with the platform admin fields', async () => {
    const fake = api();
    renderApp({ path: '/admin/tenants/42', fake });
    await screen.findByRole('heading', { name: 'Other Co (42)' });
    const tabs = screen.getByRole('tablist', { name: 'Tenant settings' });
    expect(tabs).toHaveAttribute('aria-orientation', 'vertical');
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Company', 'Reporting', 'Logo']);
    expect(screen.getByText('Tenant id:').parentElement).toHaveTextContent('Tenant id:42');
    expect(screen.getByLabelText('Tenant type')).toHaveValue('TEST');
    expect(screen.getByLabelText('Referrer')).toHaveValue('partner-site');

    await userEvent.clear(screen.getByLabelText('Referrer'));
    await userEvent.type(screen.getByLabelText('Referrer'), 'newsletter');
    await userEvent.click(screen.getByRole('button', { name: 'Save admin settings' }));
    await screen.findByText('Successfully updated the company.');
    expect(fake.callsTo('PUT /api/tenants/42')[0]?.body).toMatchObject({ Referrer: 'newsletter' });

    // Arrow keys move between the tabs, as in any vertical tab list.
    within(tabs).getByRole('tab', { name: 'Company' }).focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(within(tabs).getByRole('tab', { name: 'Reporting' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Display currency');
    await userEvent.keyboard('{ArrowDown}');
    expect(within(tabs).getByRole('tab', { name: 'Logo' })).toHaveFocus();
  });
});
