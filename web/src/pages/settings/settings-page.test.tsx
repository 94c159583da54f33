/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, waitForElementToBeRemoved, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { logoMaxBytes, type Tenant } from '../../../../contracts/api/tenants';
import { FakeFetch } from '../../test-support/fake-fetch';
import { fieldErrorOf } from '../../test-support/field-error';
import { renderApp } from '../../test-support/render-app';
import { noSellers, sessionFixture, tenantRow } from '../../test-support/session-fixture';
import { logoFileError, ordinal, reportingWithDefaults } from './settings-rules';
import { tenantFixture } from './tenant-fixture';

const apiFor = (tenant: Tenant, options: { platformAdmin?: boolean } = {}) =>
  new FakeFetch()
    .on('GET /api/auth/self', {
      body: sessionFixture({
        tenants: [
          tenantRow({ Role: 'ADMIN', Classification: tenant.Classification, UsageType: tenant.UsageType }),
        ],
        user: { isPlatformAdmin: options.platformAdmin ?? false },
      }),
    })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/sellers', { body: noSellers })
    .on('GET /api/industries', {
      body: [
        {
          Code: '541211',
          Title: 'Offices of Certified Public Accountants',
          Description: 'CPAs',
          Examples: [],
        },
      ],
    })
    .on('GET /api/tenants/7', { body: tenant });

const company = () => screen.getByRole('form', { name: 'Company settings' });
const logoLabel = 'Logo file (JPEG, PNG, GIF or SVG)';
const reporting = () => screen.getByRole('form', { name: 'Reporting settings' });

describe('settings rules', () => {
  it('fills missing reporting settings with the defaults: weekly 2, monthly 7, USD, AUTO', () => {
    expect(reportingWithDefaults({ WeeklyDay: 5 })).toEqual({
      RetentionPeriod: 'AUTO',
      WeeklyDay: 5,
      MonthlyDay: 7,
      Currency: 'USD',
      WeeklyEmailsDisabled: false,
      MonthlyEmailsDisabled: false,
    });
  });

  it('labels monthly days with ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 28].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '28th',
    ]);
  });

  it('accepts one jpeg, png, gif or svg file only', () => {
    const file = (name: string, type: string) => new File(['x'], name, { type });
    expect(logoFileError([file('logo.png', 'image/png')])).toBeNull();
    expect(logoFileError([file('logo.svg', 'image/svg+xml')])).toBeNull();
    expect(logoFileError([file('logo.pdf', 'application/pdf')])).toBe(
      'The logo must be a JPEG, PNG, GIF or SVG image.',
    );
    expect(logoFileError([file('a.png', 'image/png'), file('b.png', 'image/png')])).toBe(
      'Upload one file only.',
    );
    expect(logoFileError([])).toBe('Choose a logo file.');
    expect(
      logoFileError([new File([new Uint8Array(logoMaxBytes + 1)], 'logo.png', { type: 'image/png' })]),
    ).toBe('The logo must be at most 2 MB.');
  });
});

describe('Settings page', () => {
  it('saves the company with its industry code and says so', async () => {
    const fake = apiFor(tenantFixture()).on('PUT /api/tenants/7', {
      body: tenantFixture({ Name: 'Acme Group' }),
    });
    renderApp({ path: '/settings', fake });
    await screen.findByRole('heading', { name: 'Company settings' });
    await userEvent.clear(within(company()).getByLabelText('Name'));
    await userEvent.click(within(company()).getByRole('button', { name: 'Save company' }));
    expect(fieldErrorOf('Name', company())).toBe('Name is required');
    expect(fake.callsTo('PUT /api/tenants/7')).toHaveLength(0);

    await userEvent.type(within(company()).getByLabelText('Name'), 'Acme Group');
    await userEvent.type(
      within(company()).getByLabelText('Industry'),
      'Offices of Certified Public Accountants',
    );
    await userEvent.click(within(company()).getByRole('button', { name: 'Save company' }));
    expect(await screen.findByText('Successfully updated the company.')).toBeInTheDocument();
    expect(fake.callsTo('PUT /api/tenants/7')[0]?.body).toEqual({
      Name: 'Acme Group',
      Classification: 'BUSINESS',
      BusinessModel: 'B2B',
      Industry: {
        FreeForm: 'Offices of Certified Public Accountants',
        NAICS2017: '541211',
        Description: 'CPAs',
      },
      FriendlyName: null,
    });
  });

  it('asks a firm for its display name for client reports', async () => {
    const fake = apiFor(tenantFixture({ Classification: 'FIRM' })).on('PUT /api/tenants/7', { status: 500 });
    renderApp({ path: '/settings', fake });
    await screen.findByRole('heading', { name: 'Firm settings' });
    await userEvent.click(within(company()).getByRole('button', { name: 'Save company' }));
    expect(fieldErrorOf('Display name for client reports', company())).toBe(
      'Display name for client reports is required',
    );
    await userEvent.type(within(company()).getByLabelText('Display name for client reports'), 'Ledger & Co');
    await userEvent.click(within(company()).getByRole('button', { name: 'Save company' }));
    expect(await screen.findByText('There was an error while updating the company.')).toBeInTheDocument();
  });

  it('shows the server’s field errors against the company fields, with the catalogue text', async () => {
    const fake = apiFor(tenantFixture()).on('PUT /api/tenants/7', {
      status: 422,
      body: {
        code: 'validation',
        message: 'The operation failed. Please validate your selection and try again.',
        properties: { 'Industry.FreeForm': 'invalid' },
      },
    });
    renderApp({ path: '/settings', fake });
    await screen.findByRole('heading', { name: 'Company settings' });
    await userEvent.type(within(company()).getByLabelText('Industry'), 'Bakeries');
    await userEvent.click(within(company()).getByRole('button', { name: 'Save company' }));
    expect(
      await within(company()).findByText('There was an error while updating the company.'),
    ).toBeInTheDocument();
    expect(fieldErrorOf('Industry', company())).toBe('This value is not valid.');
  });

  it('saves the reporting settings, days labelled by weekday and Every Nth', async () => {
    const fake = apiFor(tenantFixture()).on('PUT /api/tenants/7', { body: tenantFixture() });
    renderApp({ path: '/settings', fake });
    await screen.findByRole('heading', { name: 'Company settings' });
    expect(within(reporting()).getByLabelText<HTMLSelectElement>('Weekly report day').value).toBe('2');
    await userEvent.selectOptions(within(reporting()).getByLabelText('Weekly report day'), 'Friday');
    await userEvent.selectOptions(within(reporting()).getByLabelText('Monthly report day'), 'Every 21st');
    await userEvent.selectOptions(within(reporting()).getByLabelText('Display currency'), 'GBP');
    // Scheduled sends go out at 7:00 in the tenant's zone; UTC until one is chosen.
    const zone = within(reporting()).getByLabelText<HTMLSelectElement>(
      'Time zone (reports are sent at 7:00)',
    );
    expect(zone.value).toBe('UTC');
    await userEvent.selectOptions(zone, 'Europe/London');
    await userEvent.click(within(reporting()).getByLabelText('Send the monthly report emails'));
    await userEvent.click(within(reporting()).getByRole('button', { name: 'Save reporting settings' }));
    expect(await screen.findByText('Successfully updated reporting settings')).toBeInTheDocument();
    // portal.md section 8: the reporting success closes after 1.5 s.
    await waitForElementToBeRemoved(() => screen.queryByText('Successfully updated reporting settings'), {
      timeout: 2500,
    });
    expect(fake.callsTo('PUT /api/tenants/7')[0]?.body).toEqual({
      Settings: {
        Reporting: {
          RetentionPeriod: 'AUTO',
          WeeklyDay: 5,
          MonthlyDay: 21,
          Currency: 'GBP',
          TimeZone: 'Europe/London',
          WeeklyEmailsDisabled: false,
          MonthlyEmailsDisabled: true,
        },
      },
    });
  });

  it('shows a server error against its reporting field, with the catalogue text', async () => {
    const fake = apiFor(tenantFixture()).on('PUT /api/tenants/7', {
      status: 422,
      body: {
        code: 'validation',
        message: 'The operation failed. Please validate your selection and try again.',
        properties: { 'Settings.Reporting.RetentionPeriod': 'invalid' },
      },
    });
    renderApp({ path: '/settings', fake });
    await screen.findByRole('heading', { name: 'Company settings' });
    await userEvent.click(within(reporting()).getByRole('button', { name: 'Save reporting settings' }));
    expect(
      await within(reporting()).findByText('There was an error while updating the reporting settings.'),
    ).toBeInTheDocument();
    expect(fieldErrorOf('Retention period', reporting())).toBe('This value is not valid.');
  });

  it('uploads a logo on submit only, then thanks the user', async () => {
    const fake = apiFor(tenantFixture()).on('POST /api/tenants/7/logo', { body: tenantFixture() });
    renderApp({ path: '/settings', fake });
    const picker = await screen.findByLabelText('Logo file (JPEG, PNG, GIF or SVG)');
    await userEvent.upload(picker, new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(fake.callsTo('POST /api/tenants/7/logo')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Upload logo' }));
    expect(await screen.findByRole('dialog', { name: 'Thank you for your logo' })).toBeInTheDocument();
    expect(fake.callsTo('POST /api/tenants/7/logo')).toHaveLength(1);
    // The sent file is no longer chosen.
    expect(screen.getByLabelText<HTMLInputElement>('Logo file (JPEG, PNG, GIF or SVG)').files).toHaveLength(
      0,
    );
  });

  it('says why a logo upload failed', async () => {
    const fake = apiFor(tenantFixture()).on('POST /api/tenants/7/logo', {
      status: 422,
      body: { message: 'x' },
    });
    renderApp({ path: '/settings', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Upload logo' }));
    expect(fieldErrorOf(logoLabel)).toBe('Choose a logo file.');
    await userEvent.upload(
      screen.getByLabelText('Logo file (JPEG, PNG, GIF or SVG)'),
      new File(['x'], 'logo.png', { type: 'image/png' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Upload logo' }));
    expect(
      await screen.findByText('There was an error while uploading your logo. Please contact support.'),
    ).toBeInTheDocument();
  });

  it('refuses a logo over 2 MB before sending, and shows the server’s file error against the field', async () => {
    const fake = apiFor(tenantFixture()).on('POST /api/tenants/7/logo', {
      status: 422,
      body: {
        code: 'validation',
        message: 'There was an error while uploading your logo. Please contact support.',
        properties: { file: 'The logo must be a JPEG, PNG, GIF or SVG image.' },
      },
    });
    renderApp({ path: '/settings', fake });
    const picker = await screen.findByLabelText('Logo file (JPEG, PNG, GIF or SVG)');
    await userEvent.upload(
      picker,
      new File([new Uint8Array(logoMaxBytes + 1)], 'big.png', { type: 'image/png' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Upload logo' }));
    expect(fieldErrorOf(logoLabel)).toBe('The logo must be at most 2 MB.');
    expect(fake.callsTo('POST /api/tenants/7/logo')).toHaveLength(0);

    await userEvent.upload(picker, new File(['GIF89a'], 'logo.png', { type: 'image/png' }));
    await userEvent.click(screen.getByRole('button', { name: 'Upload logo' }));
    expect(
      await screen.findByText('There was an error while uploading your logo. Please contact support.'),
    ).toBeInTheDocument();
    expect(fieldErrorOf(logoLabel)).toBe('The logo must be a JPEG, PNG, GIF or SVG image.');
  });

  it('disables everything in a demo tenant, saying so', async () => {
    renderApp({ path: '/settings', fake: apiFor(tenantFixture({ UsageType: 'DEMO' })) });
    expect(
      await screen.findByText('Billing is disabled while in a demo tenant. Please switch.'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(company()).getByRole('button', { name: 'Save company' }).closest('fieldset')?.disabled,
      ).toBe(true),
    );
    expect(
      within(reporting()).getByLabelText<HTMLSelectElement>('Weekly report day').matches(':disabled'),
    ).toBe(true);
  });

  it('asks a platform admin for the partner as a number', async () => {
    const fake = apiFor(tenantFixture(), { platformAdmin: true });
    renderApp({ path: '/settings', fake });
    const form = await screen.findByRole('form', { name: 'Platform admin settings' });
    await userEvent.type(within(form).getByLabelText('Partner number'), 'P-1');
    await userEvent.click(within(form).getByRole('button', { name: 'Save admin settings' }));
    expect(fieldErrorOf('Partner number', form)).toBe('Enter the partner number.');
    expect(fake.callsTo('PUT /api/tenants/7')).toHaveLength(0);
  });

  it('shows a server error against the plan identifier', async () => {
    const fake = apiFor(tenantFixture(), { platformAdmin: true }).on('PUT /api/tenants/7', {
      status: 422,
      body: {
        code: 'validation',
        message: 'There was an error while updating the company.',
        properties: { PlanIdentifier: 'Unknown plan identifier' },
      },
    });
    renderApp({ path: '/settings', fake });
    const form = await screen.findByRole('form', { name: 'Platform admin settings' });
    await userEvent.type(within(form).getByLabelText('Plan identifier'), 'gold');
    await userEvent.click(within(form).getByRole('button', { name: 'Save admin settings' }));
    expect(
      await within(form).findByText('There was an error while updating the company.'),
    ).toBeInTheDocument();
    expect(fieldErrorOf('Plan identifier', form)).toBe('Unknown plan identifier');
    expect(fake.callsTo('PUT /api/tenants/7')[0]?.body).toMatchObject({ PlanIdentifier: 'gold' });
  });

  it('gives a platform admin the tenant type, partner, referral and plan fields, and nobody else', async () => {
    const fake = apiFor(tenantFixture(), { platformAdmin: true }).on('PUT /api/tenants/7', {
      body: tenantFixture({ UsageType: 'TEST' }),
    });
    const view = renderApp({ path: '/settings', fake });
    const form = await screen.findByRole('form', { name: 'Platform admin settings' });
    await userEvent.selectOptions(within(form).getByLabelText('Tenant type'), 'TEST');
    await userEvent.type(within(form).getByLabelText('Referrer'), 'partner-x');
    await userEvent.click(within(form).getByRole('button', { name: 'Save admin settings' }));
    expect(await within(form).findByText('Successfully updated the company.')).toBeInTheDocument();
    expect(fake.callsTo('PUT /api/tenants/7')[0]?.body).toEqual({
      UsageType: 'TEST',
      PartnerId: null,
      Referrer: 'partner-x',
      ReferrerIdentifier: null,
      LandingPage: null,
      ActiveCampaignId: null,
    });
    view.unmount();

    renderApp({ path: '/settings', fake: apiFor(tenantFixture()) });
    await screen.findByRole('heading', { name: 'Company settings' });
    expect(screen.queryByRole('form', { name: 'Platform admin settings' })).not.toBeInTheDocument();
  });
});
