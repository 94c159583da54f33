/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeFetch } from '../../test-support/fake-fetch';
import { renderApp } from '../../test-support/render-app';
import { oneSeller, sessionFixture, tenantRow } from '../../test-support/session-fixture';
import { listOf, tenantFixture } from '../../test-support/tenant-fixtures';

jest.setTimeout(30_000);

const saved = {
  id: 'quarter-review',
  name: 'Quarter review',
  sections: ['summary', 'invoices-to-chase'],
};

/** The browser-state store as the server keeps it: what was PUT comes back. */
const templatesApi = (initial: unknown) => {
  let stored = initial;
  return new FakeFetch()
    .on('GET /api/auth/self', {
      body: sessionFixture({ tenants: [tenantRow({ Role: 'ADMIN' })], user: { isPlatformAdmin: true } }),
    })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/tenants/7', { body: tenantFixture() })
    .on('GET /api/sellers', { body: oneSeller })
    .on('GET /api/subscriptions', { body: listOf([]) })
    .on('GET /api/reports/archived', { body: { rows: [] } })
    .on('GET /api/reports/managed', { body: { rows: [] } })
    .on('GET /api/jobs', { body: { jobs: [] } })
    .on('GET /api/browser/report-templates', () => ({ body: { key: 'report-templates', value: stored } }))
    .on('PUT /api/browser/report-templates', (call) => {
      stored = (call.body as { value: unknown }).value;
      return { body: { key: 'report-templates', value: stored } };
    });
};

describe('report templates (development only)', () => {
  it('creates a template from chosen sections and lists it on the reports page', async () => {
    const fake = templatesApi(null);
    renderApp({ path: '/reports/new', fake });
    const form = await screen.findByRole('form', { name: 'Report template' });
    await userEvent.click(within(form).getByRole('checkbox', { name: /Summary/ }));
    await userEvent.click(within(form).getByRole('checkbox', { name: /Open receivables/ }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save template' }));
    // Neither a name nor a section: both said against their fields, nothing saved.
    expect(await within(form).findByText('Name is required')).toBeInTheDocument();
    expect(within(form).getByText('Choose at least one section')).toBeInTheDocument();
    expect(fake.callsTo('PUT /api/browser/report-templates')).toHaveLength(0);

    await userEvent.type(within(form).getByLabelText('Name'), 'Cash focus');
    await userEvent.click(within(form).getByRole('checkbox', { name: /Collections forecast/ }));
    await userEvent.click(within(form).getByRole('checkbox', { name: /Invoices to chase/ }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save template' }));
    await screen.findByRole('heading', { name: 'Reports' });
    const body = fake.callsTo('PUT /api/browser/report-templates')[0]?.body as {
      value: { name: string; sections: string[] }[];
    };
    // Sections keep the print order, whatever order they were ticked in.
    expect(body.value).toEqual([
      expect.objectContaining({
        name: 'Cash focus',
        sections: ['invoices-to-chase', 'collections-forecast'],
      }),
    ]);
    expect(await screen.findByText('Cash focus')).toBeInTheDocument();
  });

  it('edits a saved template and sends its on-demand report for a platform admin', async () => {
    const fake = templatesApi([saved]).on('POST /api/reports', { body: { jobs: [] } });
    renderApp({ path: '/reports', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Send Quarter review now' }));
    await waitFor(() => expect(fake.callsTo('POST /api/reports')).toHaveLength(1));
    expect(fake.callsTo('POST /api/reports')[0]?.body).toMatchObject({
      type: 'REPORTS',
      frequency: 'ondemand',
      sellerIds: [1],
      sections: ['summary', 'invoices-to-chase'],
    });

    await userEvent.click(screen.getByRole('link', { name: 'Edit' }));
    const name = await screen.findByLabelText('Name');
    await waitFor(() => expect(name).toHaveValue('Quarter review'));
    await userEvent.clear(name);
    await userEvent.type(name, 'Quarter close');
    await userEvent.click(screen.getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(fake.callsTo('PUT /api/browser/report-templates')).toHaveLength(1));
    expect(fake.callsTo('PUT /api/browser/report-templates')[0]?.body).toEqual({
      value: [{ id: 'quarter-review', name: 'Quarter close', sections: ['summary', 'invoices-to-chase'] }],
    });
  });
});
