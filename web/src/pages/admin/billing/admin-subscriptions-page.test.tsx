/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {
  AdminBillingSubscription,
  Plan,
  SubscriptionProduct,
} from '../../../../../contracts/api/billing';
import type { RecordedCall } from '../../../test-support/fake-fetch';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi } from '../../sellers/seller-fixtures';

// Whole-app renders with a table; the machine's two cores are shared with the servers.
jest.setTimeout(30_000);

const queryOf = (call: RecordedCall | undefined) =>
  Object.fromEntries(new URL(call?.url ?? '/', 'http://x').searchParams.entries());

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

const product = (overrides: Partial<SubscriptionProduct>): SubscriptionProduct => ({
  Identifier: 'features/qbd',
  Quantity: 1,
  Active: true,
  ExpiresAt: null,
  StripePriceId: null,
  StripeSubscriptionItemId: null,
  BillingPeriod: null,
  ...overrides,
});

const subscription = (overrides: Partial<AdminBillingSubscription>): AdminBillingSubscription => ({
  Id: 1,
  TenantId: 7,
  BillingTenantId: 7,
  Direct: true,
  Plan: { Id: 6, Name: 'Growth', Identifier: 'growth_business' },
  StartedAt: inDays(10),
  ResumesAt: null,
  InactiveAt: null,
  PaymentStatus: 'trialing',
  PaymentMethod: null,
  StripeCustomerId: null,
  StripeMonthlySubscriptionId: null,
  SubscriptionProducts: [],
  AllProducts: [],
  ScheduledCancellation: null,
  TrialDaysRemaining: 10,
  TrialEndEditable: true,
  createdAt: inDays(-4),
  Tenant: { Id: 7, Name: 'Acme Ltd', Classification: 'BUSINESS' },
  BillingTenant: { Id: 7, Name: 'Acme Ltd', UsageType: 'NORMAL' },
  ...overrides,
});

const acme = subscription({
  AllProducts: [
    product({ Identifier: 'features/qbd', Quantity: 1 }),
    product({ Identifier: 'modules/seats', Quantity: 3, ExpiresAt: inDays(20) }),
    product({ Identifier: 'features/old', Quantity: 1, ExpiresAt: inDays(-3) }),
  ],
});
const paying = subscription({
  Id: 2,
  TenantId: 8,
  BillingTenantId: 8,
  PaymentStatus: 'past_due',
  PaymentMethod: 'card',
  StripeCustomerId: 'cus_123',
  TrialEndEditable: false,
  StartedAt: inDays(-60),
  Tenant: { Id: 8, Name: 'Paying Co', Classification: 'BUSINESS' },
  BillingTenant: { Id: 8, Name: 'Paying Co', UsageType: 'NORMAL' },
});

const plan = (Id: number, Identifier: string, Name: string): Plan => ({
  Id,
  Identifier,
  Name,
  Classification: 'BUSINESS',
  Default: false,
  Active: true,
  TrialPeriod: 14,
  Products: [],
  Subscriptions: 2,
});

const adminApi = () =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/billing/subscriptions', (call) => {
      const query = queryOf(call);
      const rows = query.paymentStatus === 'past_due' ? [paying] : [acme, paying];
      return { body: { rows, total: 2, filtered: rows.length } };
    })
    .on('GET /api/billing/plans', {
      body: { plans: [plan(6, 'growth_business', 'Growth'), plan(5, 'free_business', 'Free')] },
    })
    .on('GET /api/billing/products', {
      body: {
        products: [
          {
            Identifier: 'features/hubspot',
            Name: 'HubSpot',
            Module: 'features',
            Billable: false,
            StripeId: 'prod_h',
            Classification: null,
          },
        ],
      },
    })
    .on('GET /api/billing/tenants', {
      body: { tenants: [{ Id: 7, Name: 'Acme Ltd', Classification: 'BUSINESS', UsageType: 'NORMAL' }] },
    })
    .on('PATCH /api/billing/subscriptions/7', (call) => ({ body: { ...acme, ...(call.body as object) } }));

const table = () => screen.findByRole('table', { name: 'Subscriptions' });

describe('the admin subscriptions list', () => {
  it('keeps its filters in the address and asks the server for them', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/subscriptions?paymentStatus=past_due', fake });
    const rows = await table();
    await within(rows).findByRole('row', { name: /Paying Co/ });
    expect(within(rows).queryByRole('row', { name: /Acme Ltd/ })).toBeNull();
    expect(queryOf(fake.callsTo('GET /api/billing/subscriptions').at(-1))).toEqual({
      paymentStatus: 'past_due',
    });
    expect(screen.getByLabelText('Payment status')).toHaveValue('past_due');

    await userEvent.selectOptions(screen.getByLabelText('Plan'), 'free_business');
    await waitFor(() =>
      expect(queryOf(fake.callsTo('GET /api/billing/subscriptions').at(-1))).toEqual({
        paymentStatus: 'past_due',
        plan: 'free_business',
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Reset Filters' }));
    await waitFor(() => expect(queryOf(fake.callsTo('GET /api/billing/subscriptions').at(-1))).toEqual({}));
    await within(rows).findByRole('row', { name: /Acme Ltd/ });
  });

  it('edits products, sending only the rows changed, new or deleted', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/subscriptions', fake });
    const rows = await table();
    await userEvent.click(await within(rows).findByRole('button', { name: 'Edit subscription of Acme Ltd' }));
    const form = await screen.findByRole('form', { name: 'Edit subscription' });
    // The expired row is not listed; the one expiring later is marked.
    expect(within(form).queryByText('features/old')).toBeNull();
    expect(within(form).getByText('Expiring')).toBeInTheDocument();
    // No Stripe customer yet: manual is offered.
    expect(within(form).getByRole('option', { name: 'Manual' })).toBeInTheDocument();

    await userEvent.click(within(form).getByRole('button', { name: 'Remove features/qbd' }));
    expect(within(form).getByText('Deleted')).toBeInTheDocument();
    await userEvent.selectOptions(within(form).getByLabelText('Add a product'), 'features/hubspot');
    await userEvent.click(within(form).getByRole('button', { name: 'Add' }));
    expect(within(form).getByText('New')).toBeInTheDocument();

    const seats = within(form).getByLabelText('Quantity', { selector: '#field-quantity-modules\\/seats' });
    await userEvent.clear(seats);
    await userEvent.type(seats, '20000');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(
      await within(form).findByText('Quantity must be a whole number from 0 to 10000.'),
    ).toBeInTheDocument();
    expect(fake.callsTo('PATCH /api/billing/subscriptions/7')).toHaveLength(0);

    await userEvent.clear(seats);
    await userEvent.type(seats, '5');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('Updated the subscription of Acme Ltd.');
    expect(fake.callsTo('PATCH /api/billing/subscriptions/7').map((call) => call.body)).toEqual([
      {
        TenantId: 7,
        Products: [
          { Identifier: 'features/qbd', Delete: true },
          { Identifier: 'modules/seats', Quantity: 5 },
          { Identifier: 'features/hubspot', Quantity: 1, Active: true },
        ],
      },
    ]);
  });

  it('offers no manual payment once a Stripe customer exists, and no trial date after the trial', async () => {
    renderApp({ path: '/admin/subscriptions', fake: adminApi() });
    const rows = await table();
    await userEvent.click(
      await within(rows).findByRole('button', { name: 'Edit subscription of Paying Co' }),
    );
    const form = await screen.findByRole('form', { name: 'Edit subscription' });
    expect(within(form).queryByRole('option', { name: 'Manual' })).toBeNull();
    expect(within(form).getByRole('option', { name: 'Card' })).toBeInTheDocument();
    expect(within(form).queryByLabelText('Trial end date')).toBeNull();
  });
});
