/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BillingSubscription, TenantSubscriptionResponse } from '../../../../contracts/api/billing';
import { FakeFetch } from '../../test-support/fake-fetch';
import { renderApp } from '../../test-support/render-app';
import { noSellers, sessionFixture, tenantRow } from '../../test-support/session-fixture';
import { tenantFixture } from './tenant-fixture';

jest.setTimeout(30_000);

const growth = (overrides: Partial<BillingSubscription> = {}): BillingSubscription => ({
  Id: 4,
  TenantId: 7,
  BillingTenantId: 7,
  Direct: true,
  Plan: { Id: 1, Name: 'Growth', Identifier: 'growth_business' },
  StartedAt: '2030-01-15T00:00:00.000Z',
  ResumesAt: null,
  InactiveAt: null,
  PaymentStatus: 'trialing',
  PaymentMethod: null,
  StripeCustomerId: null,
  StripeMonthlySubscriptionId: null,
  SubscriptionProducts: [],
  AllProducts: [],
  ScheduledCancellation: null,
  TrialDaysRemaining: 12,
  TrialEndEditable: false,
  createdAt: '2030-01-01T00:00:00.000Z',
  ...overrides,
});

const answer = (subscription: BillingSubscription | null): TenantSubscriptionResponse => ({
  Subscription: subscription,
  Demo: false,
  Quickstart: null,
  PaymentMethodProvided: false,
});

const billingApi = (subscription: BillingSubscription | null, usage: 'NORMAL' | 'DEMO' = 'NORMAL') =>
  new FakeFetch()
    .on('GET /api/auth/self', {
      body: sessionFixture({ tenants: [tenantRow({ Role: 'ADMIN', UsageType: usage })] }),
    })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/sellers', { body: noSellers })
    .on('GET /api/industries', { body: [] })
    .on('GET /api/tenants/7', { body: tenantFixture({ UsageType: usage }) })
    .on('GET /api/billing/subscriptions/7', { body: answer(subscription) })
    .on('GET /api/billing/plans', {
      body: {
        plans: [
          {
            Id: 1,
            Identifier: 'growth_business',
            Name: 'Growth',
            Classification: 'BUSINESS',
            Default: true,
            Active: true,
            TrialPeriod: 14,
            Products: [],
          },
          {
            Id: 2,
            Identifier: 'free_business',
            Name: 'Free',
            Classification: 'BUSINESS',
            Default: false,
            Active: true,
            TrialPeriod: 0,
            Products: [],
          },
        ],
      },
    });

const billing = () =>
  screen.getByRole('heading', { name: 'Billing and subscription' }).parentElement as HTMLElement;

describe('the settings billing section', () => {
  it('shows the plan and the trial days left, and sends the admin to the billing portal', async () => {
    const fake = billingApi(growth()).on('POST /api/billing/session', {
      body: { url: 'https://billing.example/session/abc' },
    });
    const { services } = renderApp({ path: '/settings', fake });
    const leaveApp = jest.fn();
    services.leaveApp = leaveApp;
    await screen.findByText('12 trial days left');
    expect(within(billing()).getByText('Growth')).toBeInTheDocument();
    await userEvent.click(within(billing()).getByRole('button', { name: 'Manage billing' }));
    await waitFor(() => expect(leaveApp).toHaveBeenCalledWith('https://billing.example/session/abc'));
    expect(fake.callsTo('POST /api/billing/session')[0]?.body).toEqual({ tenantId: 7 });
  });

  it('cancels with a reason, refusing it unconfirmed, and shows the end date', async () => {
    const effective = '2030-02-15T00:00:00.000Z';
    const fake = billingApi(growth()).on('POST /api/billing/subscriptions/7/cancel', {
      body: growth({
        ScheduledCancellation: {
          Intent: 'cancel',
          Reason: 'OTHER',
          Details: 'Moving on',
          DowngradeTo: null,
          EffectiveAt: effective,
        },
      }),
    });
    renderApp({ path: '/settings', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel or downgrade' }));
    const modal = await screen.findByRole('dialog', { name: 'Cancel or downgrade' });
    await userEvent.click(within(modal).getByRole('button', { name: 'Confirm' }));
    expect(await within(modal).findByText('Choose one of the reasons.')).toBeInTheDocument();
    expect(within(modal).getByText('Tick the box to confirm.')).toBeInTheDocument();
    await userEvent.selectOptions(within(modal).getByLabelText('Why?'), 'OTHER');
    await userEvent.type(within(modal).getByLabelText('Details'), 'Moving on');
    await userEvent.click(within(modal).getByLabelText('I understand, and I want to go ahead'));
    await userEvent.click(within(modal).getByRole('button', { name: 'Confirm' }));
    const date = new Date(effective).toLocaleDateString(undefined, { dateStyle: 'long' });
    expect(await screen.findByText(`Your subscription ends on ${date}.`)).toBeInTheDocument();
    expect(fake.callsTo('POST /api/billing/subscriptions/7/cancel')[0]?.body).toEqual({
      Intent: 'cancel',
      Reason: 'OTHER',
      Details: 'Moving on',
      Confirmed: true,
      DowngradeToPlanId: null,
    });
  });

  it('changes the plan now, sending only the plan', async () => {
    const fake = billingApi(growth()).on('PATCH /api/billing/subscriptions/7', {
      body: growth({ Plan: { Id: 2, Name: 'Free', Identifier: 'free_business' } }),
    });
    renderApp({ path: '/settings', fake });
    const form = await screen.findByRole('form', { name: 'Change plan' });
    const change = within(form).getByRole('button', { name: 'Change plan' });
    // The current plan is chosen: nothing to change yet.
    await waitFor(() => expect(within(form).getByLabelText('Plan')).toHaveValue('1'));
    expect(change).toBeDisabled();
    await userEvent.selectOptions(within(form).getByLabelText('Plan'), 'Free');
    await userEvent.click(change);
    await screen.findByText('Your plan is now Free.');
    expect(fake.callsTo('PATCH /api/billing/subscriptions/7').map((call) => call.body)).toEqual([
      { TenantId: 7, PlanId: 2 },
    ]);
  });

  it('downgrades to another plan of the same kind', async () => {
    const fake = billingApi(growth()).on('POST /api/billing/subscriptions/7/cancel', {
      body: growth({
        ScheduledCancellation: {
          Intent: 'downgrade',
          Reason: 'LOWER_COSTS',
          Details: null,
          DowngradeTo: { id: 2, name: 'Free', identifier: 'free_business' },
          EffectiveAt: '2030-02-15T00:00:00.000Z',
        },
      }),
    });
    renderApp({ path: '/settings', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel or downgrade' }));
    const modal = await screen.findByRole('dialog', { name: 'Cancel or downgrade' });
    await userEvent.selectOptions(within(modal).getByLabelText('What would you like to do?'), 'downgrade');
    const plan = within(modal).getByLabelText('New plan');
    // The current plan is not offered.
    expect(within(plan).queryByRole('option', { name: 'Growth' })).not.toBeInTheDocument();
    await userEvent.selectOptions(plan, 'Free');
    await userEvent.selectOptions(within(modal).getByLabelText('Why?'), 'LOWER_COSTS');
    await userEvent.click(within(modal).getByLabelText('I understand, and I want to go ahead'));
    await userEvent.click(within(modal).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(fake.callsTo('POST /api/billing/subscriptions/7/cancel')).toHaveLength(1));
    expect(fake.callsTo('POST /api/billing/subscriptions/7/cancel')[0]?.body).toMatchObject({
      Intent: 'downgrade',
      Reason: 'LOWER_COSTS',
      DowngradeToPlanId: 2,
    });
  });

  it('is disabled in a demo tenant, with the spec text, and asks the server nothing', async () => {
    const fake = billingApi(growth(), 'DEMO');
    renderApp({ path: '/settings', fake });
    expect(
      await screen.findByText('Billing is disabled while in a demo tenant. Please switch.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('A demo company has no subscription.')).toBeInTheDocument();
    expect(fake.callsTo('GET /api/billing/subscriptions/7')).toHaveLength(0);
  });

  it('tells a client billed by its firm who manages payment', async () => {
    renderApp({ path: '/settings', fake: billingApi(growth({ Direct: false, PaymentStatus: 'active' })) });
    expect(
      await screen.findByText('Your advisory firm manages this subscription and its payment.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Manage billing' })).not.toBeInTheDocument();
  });
});
