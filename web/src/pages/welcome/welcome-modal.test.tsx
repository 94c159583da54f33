/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeFetch } from '../../test-support/fake-fetch';
import { renderApp } from '../../test-support/render-app';
import { noSellers, sessionFixture, tenantRow } from '../../test-support/session-fixture';
import { rememberPlanIdentifier } from './plan-identifier-cookie';
import { tenantFixture } from '../../test-support/tenant-fixtures';
import type { Tenant } from '../../../../contracts/api/tenants';

const industries = [
  { Code: '541211', Title: 'Offices of Certified Public Accountants', Description: 'CPAs', Examples: [] },
  {
    Code: '423430',
    Title: 'Computer Equipment Merchant Wholesalers',
    Description: 'Wholesale',
    Examples: [],
  },
];

const createdTenant = (overrides: Partial<Tenant> = {}) =>
  tenantFixture({
    Id: 12,
    Name: 'Ledger & Co',
    Classification: 'FIRM',
    Industry: {
      FreeForm: 'Offices of Certified Public Accountants',
      NAICS2017: '541211',
      Description: 'CPAs',
    },
    ...overrides,
  });

const newcomer = () => {
  const firm = tenantRow({
    Id: 12,
    Name: 'Ledger & Co',
    Classification: 'FIRM',
    Role: 'ADMIN',
    MembershipClassification: 'ADVISOR',
  });
  return new FakeFetch()
    .on('GET /api/auth/self', { body: sessionFixture({ tenants: [] }) })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/industries', { body: industries })
    .on('GET /api/sellers', { body: noSellers })
    .on('POST /api/tenants', { status: 201, body: createdTenant() })
    .on('POST /api/auth/switchTenant', {
      body: sessionFixture({
        tenants: [firm],
        user: { PrimaryClassification: 'ADVISOR', DefaultPartnerTenantId: 12 },
      }),
    });
};

afterEach(() => {
  document.cookie = 'lw_plan_identifier=; Max-Age=0; path=/';
});

describe('the welcome modal', () => {
  it('creates the first company as a firm, then switches to it and opens the advisor dashboard', async () => {
    const fake = newcomer();
    const app = renderApp({ path: '/overview', fake });
    const go = await screen.findByRole('button', { name: "Let's go" });
    expect(screen.getByRole('dialog', { name: 'Welcome to Ledgerwise' })).toBeInTheDocument();
    expect((go as HTMLButtonElement).disabled).toBe(true);

    await userEvent.type(screen.getByLabelText('Company name'), 'Ledger & Co');
    expect((go as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByLabelText('Advising my clients'));
    expect((go as HTMLButtonElement).disabled).toBe(false);
    await userEvent.type(screen.getByLabelText('Industry'), 'Offices of Certified Public Accountants');
    await userEvent.selectOptions(screen.getByLabelText('Business model'), 'B2B');
    await userEvent.click(go);

    await waitFor(() => expect(app.location()).toBe('/advisor/overview'));
    expect(fake.callsTo('POST /api/tenants')[0]?.body).toEqual({
      Name: 'Ledger & Co',
      Industry: {
        FreeForm: 'Offices of Certified Public Accountants',
        NAICS2017: '541211',
        Description: 'CPAs',
      },
      BusinessModel: 'B2B',
      Classification: 'FIRM',
    });
    expect(fake.callsTo('POST /api/auth/switchTenant')[0]?.body).toEqual({ tenantId: 12 });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Welcome to Ledgerwise' })).not.toBeInTheDocument(),
    );
  });

  it('requires the industry and the business model before creating anything', async () => {
    const fake = newcomer();
    renderApp({ path: '/overview', fake });
    await userEvent.type(await screen.findByLabelText('Company name'), 'Acme');
    await userEvent.click(screen.getByLabelText('Managing my company'));
    await userEvent.click(screen.getByRole('button', { name: "Let's go" }));
    await screen.findByText('Please enter an industry');
    expect(screen.getByText('Please select a business model')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/tenants')).toHaveLength(0);
  });

  it('hides the usage choice when the sign-up plan says it, and sends the plan', async () => {
    rememberPlanIdentifier('growth_business');
    const fake = newcomer().on('POST /api/tenants', {
      status: 201,
      body: createdTenant({ Classification: 'BUSINESS', Name: 'Acme' }),
    });
    fake.on('POST /api/auth/switchTenant', { body: sessionFixture() });
    const app = renderApp({ path: '/overview', fake });
    await userEvent.type(await screen.findByLabelText('Company name'), 'Acme');
    expect(screen.queryByText('How will you use Ledgerwise?')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Industry'), 'Bakeries');
    await userEvent.selectOptions(screen.getByLabelText('Business model'), 'B2C');
    await userEvent.click(screen.getByRole('button', { name: "Let's go" }));
    await waitFor(() => expect(app.location()).toBe('/overview'));
    expect(fake.callsTo('POST /api/tenants')[0]?.body).toEqual({
      Name: 'Acme',
      Industry: { FreeForm: 'Bakeries' },
      BusinessModel: 'B2C',
      Classification: 'BUSINESS',
      planIdentifier: 'growth_business',
    });
  });

  it('shows server field errors against their fields', async () => {
    const fake = newcomer().on('POST /api/tenants', {
      status: 422,
      body: {
        code: 'validation',
        message: 'There was an error while updating the company.',
        properties: { 'Industry.FreeForm': 'Please enter an industry' },
      },
    });
    renderApp({ path: '/overview', fake });
    await userEvent.type(await screen.findByLabelText('Company name'), 'Acme');
    await userEvent.click(screen.getByLabelText('Managing my company'));
    await userEvent.type(screen.getByLabelText('Industry'), 'x');
    await userEvent.selectOptions(screen.getByLabelText('Business model'), 'B2B');
    await userEvent.click(screen.getByRole('button', { name: "Let's go" }));
    await screen.findByText('Please enter an industry');
    expect(screen.getByLabelText('Industry').getAttribute('aria-invalid')).toBe('true');
  });

  it('says the server’s message when its field error names no field of the form', async () => {
    const fake = newcomer().on('POST /api/tenants', {
      status: 422,
      body: {
        code: 'validation',
        message: 'The operation failed. Please validate your selection and try again.',
        properties: { 'Industry.Description': 'Too big' },
      },
    });
    renderApp({ path: '/overview', fake });
    await userEvent.type(await screen.findByLabelText('Company name'), 'Acme');
    await userEvent.click(screen.getByLabelText('Managing my company'));
    await userEvent.type(screen.getByLabelText('Industry'), 'Bakeries');
    await userEvent.selectOptions(screen.getByLabelText('Business model'), 'B2B');
    await userEvent.click(screen.getByRole('button', { name: "Let's go" }));
    await screen.findByText('The operation failed. Please validate your selection and try again.');
  });
});
