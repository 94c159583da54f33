import { BillingEvent, type BillingPlan } from '../../contracts/events/billing';
import type { Actor } from '../actor';
import { deciderSpec } from '../decider-spec';
import { billingDecider } from './billing-decider';
import type { BillingCommand, CancelBillingSubscription, UpdateBillingSubscription } from './decide';

const spec = deciderSpec(billingDecider);
const now = new Date('2025-03-10T12:00:00.000Z');
const at = now.toISOString();
const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

const platformAdmin: Actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };
const tenantAdmin: Actor = { userId: 7, isPlatformAdmin: false, tenantRole: 'ADMIN', isAdvisor: false };
const tenantUser: Actor = { userId: 8, isPlatformAdmin: false, tenantRole: 'USER', isAdvisor: false };

const growth: BillingPlan = { id: 4, name: 'Growth', identifier: 'growth_business' };
const free: BillingPlan = { id: 1, name: 'Free', identifier: 'free_business' };

type StartedData = Extract<BillingEvent, { type: 'BillingSubscriptionStarted' }>['data'];
const startedData: StartedData = {
  subscriptionId: 41,
  tenantId: 3,
  billingTenantId: 3,
  plan: growth,
  startedAt: '2025-03-24T12:00:00.000Z',
  paymentStatus: 'trialing',
  paymentMethod: null,
  createdAt: '2025-03-10T12:00:00.000Z',
};
const started = (overrides: Partial<StartedData> = {}): BillingEvent => ({
  type: 'BillingSubscriptionStarted',
  data: { ...startedData, ...overrides },
});
const active = started({
  startedAt: '2025-01-01T00:00:00.000Z',
  paymentStatus: 'active',
  paymentMethod: 'manual',
});
const stripeLinked: BillingEvent = {
  type: 'BillingStripeCustomerLinked',
  data: { subscriptionId: 41, stripeCustomerId: 'cus_1' },
};
const productSet = (identifier: string, quantity: number): BillingEvent => ({
  type: 'BillingProductSet',
  data: { subscriptionId: 41, product: { identifier, quantity, active: true, expiresAt: null } },
});

const update = (changes: Partial<UpdateBillingSubscription['data']>): BillingCommand => ({
  type: 'UpdateBillingSubscription',
  now,
  data: { tenantId: 3, actor: platformAdmin, tenantIsDemo: false, ...changes },
});
const cancelData: CancelBillingSubscription['data'] = {
  intent: 'cancel',
  reason: 'LOWER_COSTS',
  details: null,
  confirmed: true,
  downgradeTo: null,
  currentPeriodEndsAt: new Date('2025-03-31T00:00:00.000Z'),
  actor: tenantAdmin,
  tenantIsDemo: false,
};
const cancel = (overrides: Partial<CancelBillingSubscription['data']> = {}): BillingCommand => ({
  type: 'CancelBillingSubscription',
  now,
  data: { ...cancelData, ...overrides },
});

describe('starting a subscription', () => {
  it('starts a trial that ends after the plan trial period', () => {
    spec
      .given([])
      .when({
        type: 'StartBillingSubscription',
        now,
        data: {
          subscriptionId: 41,
          tenantId: 3,
          billingTenantId: 3,
          plan: growth,
          trialDays: 14,
          paymentMethod: null,
        },
      })
      .then([started()]);
  });

  it('starts billing at once without a trial', () => {
    spec
      .given([])
      .when({
        type: 'StartBillingSubscription',
        now,
        data: {
          subscriptionId: 41,
          tenantId: 3,
          billingTenantId: 3,
          plan: free,
          trialDays: 0,
          paymentMethod: null,
        },
      })
      .then([started({ plan: free, startedAt: at, paymentStatus: 'active' })]);
  });

  it('refuses a second start and a negative trial', () => {
    const command: BillingCommand = {
      type: 'StartBillingSubscription',
      now,
      data: {
        subscriptionId: 41,
        tenantId: 3,
        billingTenantId: 3,
        plan: free,
        trialDays: -1,
        paymentMethod: null,
      },
    };
    spec.given([started()]).when(command).thenFails('conflict', 'The tenant already has a subscription.');
    spec.given([]).when(command).thenFails('validation', 'The trial period is not valid.');
  });
});

describe('updating a subscription', () => {
  it('refuses to update a demo subscription', () => {
    spec
      .given([started()])
      .when(update({ tenantIsDemo: true, plan: free }))
      .thenFails('conflict', 'Updating a demo subscription is not allowed.');
  });

  it.each([Number.NaN, 0, 3.5, 99])(
    'refuses the tenant id %p as not numeric or not this subscription',
    (tenantId) => {
      const error = spec
        .given([started()])
        .when(update({ tenantId, plan: free }))
        .thenFails('validation', 'Invalid subscription tenantId supplied.');
      expect(error.properties).toEqual({ tenantId: 'invalid' });
    },
  );

  it('refuses a billing tenant id that is not numeric', () => {
    const error = spec
      .given([started()])
      .when(update({ billingTenantId: Number.NaN }))
      .thenFails('validation', 'Invalid subscription tenantId supplied.');
    expect(error.properties).toEqual({ billingTenantId: 'invalid' });
  });

  it('records each changed field as its own fact, and nothing for unchanged ones', () => {
    spec
      .given([active])
      .when(
        update({
          billingTenantId: 9,
          plan: free,
          paymentMethod: 'send_invoice',
          resumesAt: day('2025-04-01'),
        }),
      )
      .then([
        { type: 'BillingTenantChanged', data: { subscriptionId: 41, billingTenantId: 9 } },
        { type: 'BillingPlanChanged', data: { subscriptionId: 41, plan: free } },
        { type: 'BillingResumeDateSet', data: { subscriptionId: 41, resumesAt: '2025-04-01T00:00:00.000Z' } },
        { type: 'BillingPaymentMethodChanged', data: { subscriptionId: 41, paymentMethod: 'send_invoice' } },
      ]);
    spec
      .given([active])
      .when(update({ billingTenantId: 3, plan: growth, paymentMethod: 'manual' }))
      .then([]);
  });

  it('moves the trial end while trialing', () => {
    spec
      .given([started()])
      .when(update({ startedAt: day('2025-04-01') }))
      .then([
        {
          type: 'BillingStartDateChanged',
          data: { subscriptionId: 41, startedAt: '2025-04-01T00:00:00.000Z' },
        },
      ]);
  });

  it('moves a start that is still in the future even when not trialing', () => {
    spec
      .given([started({ paymentStatus: 'active' })])
      .when(update({ startedAt: day('2025-04-01') }))
      .then([
        {
          type: 'BillingStartDateChanged',
          data: { subscriptionId: 41, startedAt: '2025-04-01T00:00:00.000Z' },
        },
      ]);
  });

  it('refuses to move the start of a subscription that is past its trial', () => {
    const error = spec
      .given([active])
      .when(update({ startedAt: day('2025-04-01') }))
      .thenFails('validation', 'There was an error while updating the subscription.');
    expect(error.properties).toEqual({
      startedAt: 'The trial end can be changed only during a trial or before the start.',
    });
  });

  it.each(['2025-03-10', '2025-03-09'])('refuses start and resume dates on or before today (%s)', (date) => {
    const error = spec
      .given([started()])
      .when(update({ startedAt: day(date), resumesAt: day(date) }))
      .thenFails('validation');
    expect(error.properties).toEqual({
      startedAt: 'The start date must be after today.',
      resumesAt: 'The resume date must be after today.',
    });
  });

  it('accepts tomorrow and clears a resume date', () => {
    spec
      .given([
        started(),
        { type: 'BillingResumeDateSet', data: { subscriptionId: 41, resumesAt: '2025-04-01T00:00:00.000Z' } },
      ])
      .when(update({ startedAt: day('2025-03-11'), resumesAt: null }))
      .then([
        {
          type: 'BillingStartDateChanged',
          data: { subscriptionId: 41, startedAt: '2025-03-11T00:00:00.000Z' },
        },
        { type: 'BillingResumeDateSet', data: { subscriptionId: 41, resumesAt: null } },
      ]);
  });

  it('no longer offers manual payment once a payment provider customer exists', () => {
    const withCard = started({ paymentMethod: 'card' });
    spec
      .given([withCard])
      .when(update({ paymentMethod: 'manual' }))
      .then([{ type: 'BillingPaymentMethodChanged', data: { subscriptionId: 41, paymentMethod: 'manual' } }]);
    const error = spec
      .given([withCard, stripeLinked])
      .when(update({ paymentMethod: 'manual' }))
      .thenFails('validation');
    expect(error.properties).toEqual({
      paymentMethod: 'Manual payment is no longer available once a payment provider customer exists.',
    });
  });

  it('lets manual change to a payment provider method', () => {
    spec
      .given([active, stripeLinked])
      .when(update({ paymentMethod: 'charge_automatically' }))
      .then([
        {
          type: 'BillingPaymentMethodChanged',
          data: { subscriptionId: 41, paymentMethod: 'charge_automatically' },
        },
      ]);
  });
});

describe('products', () => {
  it('adds, changes and deletes product rows', () => {
    spec
      .given([started(), productSet('reports/weekly', 2), productSet('crm/hubspot', 1)])
      .when(
        update({
          products: [
            { identifier: 'reports/weekly', quantity: 10000, expiresAt: day('2025-12-31') },
            { identifier: 'plans/business/client_nurturing/packaged', quantity: 0 },
            { identifier: 'crm/hubspot', delete: true },
          ],
        }),
      )
      .then([
        {
          type: 'BillingProductSet',
          data: {
            subscriptionId: 41,
            product: {
              identifier: 'reports/weekly',
              quantity: 10000,
              active: true,
              expiresAt: '2025-12-31T00:00:00.000Z',
            },
          },
        },
        {
          type: 'BillingProductSet',
          data: {
            subscriptionId: 41,
            product: {
              identifier: 'plans/business/client_nurturing/packaged',
              quantity: 0,
              active: true,
              expiresAt: null,
            },
          },
        },
        { type: 'BillingProductRemoved', data: { subscriptionId: 41, identifier: 'crm/hubspot' } },
      ]);
  });

  it('records nothing for an unchanged row, and deactivates a product', () => {
    spec
      .given([started(), productSet('reports/weekly', 2)])
      .when(update({ products: [{ identifier: 'reports/weekly', quantity: 2 }] }))
      .then([]);
    spec
      .given([started(), productSet('reports/weekly', 2)])
      .when(update({ products: [{ identifier: 'reports/weekly', active: false }] }))
      .then([
        {
          type: 'BillingProductSet',
          data: {
            subscriptionId: 41,
            product: { identifier: 'reports/weekly', quantity: 2, active: false, expiresAt: null },
          },
        },
      ]);
  });

  it.each([-1, 10001, 2.5])('refuses the quantity %p', (quantity) => {
    const error = spec
      .given([started()])
      .when(update({ products: [{ identifier: 'reports/weekly', quantity }] }))
      .thenFails('validation', 'There was an error while updating the subscription.');
    expect(error.properties).toEqual({
      'products.0.quantity': 'The quantity must be a whole number from 0 to 10000.',
    });
  });

  it('refuses a new product without a quantity and deleting a product the subscription lacks', () => {
    const error = spec
      .given([started()])
      .when(update({ products: [{ identifier: 'a/b' }, { identifier: 'c/d', delete: true }] }))
      .thenFails('validation');
    expect(error.properties).toEqual({
      'products.0.quantity': 'A new product needs a quantity.',
      'products.1.identifier': 'The subscription has no such product.',
    });
  });

  it('keeps the product list in the state', () => {
    const removed: BillingEvent = {
      type: 'BillingProductRemoved',
      data: { subscriptionId: 41, identifier: 'a/b' },
    };
    expect(
      spec.stateAfter([started(), productSet('a/b', 1), productSet('c/d', 2), productSet('a/b', 3), removed]),
    ).toMatchObject({
      products: [{ identifier: 'c/d', quantity: 2 }],
    });
  });
});

describe('who may update', () => {
  it('lets a tenant admin change the plan of a subscription the tenant pays itself', () => {
    spec
      .given([started()])
      .when(update({ actor: tenantAdmin, plan: free }))
      .then([{ type: 'BillingPlanChanged', data: { subscriptionId: 41, plan: free } }]);
  });

  it('keeps everything else, and other payers, to platform admins', () => {
    const message = 'Only a platform administrator can make these subscription changes.';
    spec
      .given([started()])
      .when(update({ actor: tenantAdmin, products: [] }))
      .thenFails('forbidden', message);
    spec
      .given([started()])
      .when(update({ actor: tenantUser, plan: free }))
      .thenFails('forbidden', message);
    spec
      .given([started({ billingTenantId: 9 })])
      .when(update({ actor: tenantAdmin, plan: free }))
      .thenFails('forbidden', message);
  });

  it('answers not found for a tenant without a subscription', () => {
    spec
      .given([])
      .when(update({ plan: free }))
      .thenFails('not_found', 'Subscription not found.');
  });
});

describe('payment provider facts', () => {
  it('links the payment provider customer once', () => {
    const link = (stripeCustomerId: string): BillingCommand => ({
      type: 'LinkStripeCustomer',
      now,
      data: { stripeCustomerId },
    });
    spec.given([started()]).when(link('cus_1')).then([stripeLinked]);
    spec.given([started(), stripeLinked]).when(link('cus_1')).then([]);
    spec
      .given([started(), stripeLinked])
      .when(link('cus_2'))
      .thenFails('conflict', 'The subscription already has another payment provider customer.');
    spec.given([started()]).when(link(' ')).thenFails('validation', 'The customer id is required.');
  });

  it('records the provider subscription a resync pushed, once per change, only with a customer', () => {
    const items = [
      { identifier: 'plan/growth_business', stripePriceId: 'price_p', stripeSubscriptionItemId: 'si_p' },
      { identifier: 'modules/pack', stripePriceId: 'price_m', stripeSubscriptionItemId: 'si_m' },
    ];
    const link = (list = items): BillingCommand => ({
      type: 'LinkStripeSubscription',
      now,
      data: { stripeSubscriptionId: 'sub_1', items: list },
    });
    const linked: BillingEvent = {
      type: 'BillingStripeSubscriptionLinked',
      // Items are kept in identifier order, so the same lines in another order are no change.
      data: {
        subscriptionId: 41,
        stripeSubscriptionId: 'sub_1',
        billingPeriod: 'month',
        items: [items[1]!, items[0]!],
      },
    };
    spec.given([started(), stripeLinked]).when(link()).then([linked]);
    spec
      .given([started(), stripeLinked, linked])
      .when(link([items[1]!, items[0]!]))
      .then([]);
    spec
      .given([started(), stripeLinked, linked])
      .when(link([items[0]!]))
      .then([{ ...linked, data: { ...linked.data, items: [items[0]!] } }]);
    spec
      .given([started()])
      .when(link())
      .thenFails('conflict', 'The subscription has no payment provider customer yet.');
  });

  it('records a changed payment status', () => {
    const record: BillingCommand = { type: 'RecordPaymentStatus', now, data: { paymentStatus: 'past_due' } };
    spec
      .given([active])
      .when(record)
      .then([
        { type: 'BillingPaymentStatusChanged', data: { subscriptionId: 41, paymentStatus: 'past_due' } },
      ]);
    spec
      .given([active])
      .when({ ...record, data: { paymentStatus: 'active' } })
      .then([]);
  });
});

describe('cancel or downgrade', () => {
  it('schedules a cancellation for the end of the billing period, which becomes the churn date', () => {
    const scheduled: BillingEvent = {
      type: 'BillingCancellationScheduled',
      data: {
        subscriptionId: 41,
        tenantId: 3,
        intent: 'cancel',
        reason: 'LOWER_COSTS',
        details: null,
        downgradeTo: null,
        effectiveAt: '2025-03-31T00:00:00.000Z',
      },
    };
    spec.given([active]).when(cancel()).then([scheduled]);
    expect(spec.stateAfter([active, scheduled])).toMatchObject({ inactiveAt: '2025-03-31T00:00:00.000Z' });
  });

  it('schedules a downgrade to the chosen plan, with details for the reason Other', () => {
    spec
      .given([active])
      .when(
        cancel({ intent: 'downgrade', downgradeTo: free, reason: 'OTHER', details: ' Seasonal business ' }),
      )
      .then([
        {
          type: 'BillingCancellationScheduled',
          data: {
            subscriptionId: 41,
            tenantId: 3,
            intent: 'downgrade',
            reason: 'OTHER',
            details: 'Seasonal business',
            downgradeTo: free,
            effectiveAt: '2025-03-31T00:00:00.000Z',
          },
        },
      ]);
  });

  it('takes effect now when the period has already ended', () => {
    spec
      .given([active])
      .when(cancel({ currentPeriodEndsAt: new Date('2025-03-01T00:00:00.000Z') }))
      .then([
        {
          type: 'BillingCancellationScheduled',
          data: {
            subscriptionId: 41,
            tenantId: 3,
            intent: 'cancel',
            reason: 'LOWER_COSTS',
            details: null,
            downgradeTo: null,
            effectiveAt: at,
          },
        },
      ]);
  });

  it('needs the confirmation ticked, one of the five reasons, details only for Other, and a plan to downgrade to', () => {
    const unticked = spec
      .given([active])
      .when(cancel({ confirmed: false, reason: 'BORED' }))
      .thenFails('validation');
    expect(unticked.properties).toEqual({
      confirmed: 'Tick the box to confirm.',
      reason: 'Choose one of the reasons.',
    });
    const details = spec
      .given([active])
      .when(cancel({ reason: 'NEEDS', details: 'too pricey' }))
      .thenFails('validation');
    expect(details.properties).toEqual({ details: 'Details are only for the reason Other.' });
    const downgrade = spec
      .given([active])
      .when(cancel({ intent: 'downgrade' }))
      .thenFails('validation');
    expect(downgrade.properties).toEqual({ downgradeTo: 'Choose the plan to downgrade to.' });
  });

  it('leaves a subscription an advisory firm pays to the firm admins', () => {
    const paidByFirm = started({ billingTenantId: 12, paymentStatus: 'active' });
    spec
      .given([paidByFirm])
      .when(cancel())
      .thenFails('forbidden', 'Only a company administrator can cancel or downgrade the subscription.');
    expect(billingDecider.decide(cancel({ actorTenantId: 12 }), spec.stateAfter([paidByFirm]))).toHaveLength(
      1,
    );
  });

  it('refuses in a demo tenant, for non-admins, twice, and once inactive', () => {
    spec
      .given([active])
      .when(cancel({ tenantIsDemo: true }))
      .thenFails('conflict', 'Billing is disabled while in a demo tenant. Please switch.');
    spec
      .given([active])
      .when(cancel({ actor: tenantUser }))
      .thenFails('forbidden', 'Only a company administrator can cancel or downgrade the subscription.');
    const history = billingDecider.decide(cancel(), spec.stateAfter([active]));
    spec
      .given([active, ...history])
      .when(cancel())
      .thenFails('conflict', 'A cancellation or downgrade is already scheduled for this subscription.');
    const afterPeriodEnd = { ...cancel(), now: new Date('2025-04-02T00:00:00.000Z') };
    spec
      .given([active, ...history])
      .when(afterPeriodEnd)
      .thenFails('conflict', 'The subscription is already inactive.');
  });

  it('allows a new request once a scheduled downgrade was applied', () => {
    const downgrade = billingDecider.decide(
      cancel({ intent: 'downgrade', downgradeTo: free }),
      spec.stateAfter([active]),
    );
    const applied: BillingEvent = { type: 'BillingPlanChanged', data: { subscriptionId: 41, plan: free } };
    spec
      .given([active, ...downgrade])
      .when(cancel())
      .thenFails('conflict', 'A cancellation or downgrade is already scheduled for this subscription.');
    expect(billingDecider.decide(cancel(), spec.stateAfter([active, ...downgrade, applied]))).toHaveLength(1);
  });
});

describe('event contracts', () => {
  it('accepts every event the decider emits over a subscription lifetime', () => {
    const commands: BillingCommand[] = [
      {
        type: 'StartBillingSubscription',
        now,
        data: {
          subscriptionId: 41,
          tenantId: 3,
          billingTenantId: 3,
          plan: growth,
          trialDays: 14,
          paymentMethod: null,
        },
      },
      update({
        billingTenantId: 9,
        startedAt: day('2025-04-01'),
        resumesAt: day('2025-05-01'),
        paymentMethod: 'card',
      }),
      update({ plan: free, products: [{ identifier: 'a/b', quantity: 3, expiresAt: day('2026-01-01') }] }),
      update({ products: [{ identifier: 'a/b', delete: true }] }),
      { type: 'LinkStripeCustomer', now, data: { stripeCustomerId: 'cus_9' } },
      {
        type: 'LinkStripeSubscription',
        now,
        data: {
          stripeSubscriptionId: 'sub_9',
          items: [
            { identifier: 'plan/free_business', stripePriceId: 'price_9', stripeSubscriptionItemId: 'si_9' },
          ],
        },
      },
      { type: 'RecordPaymentStatus', now, data: { paymentStatus: 'active' } },
      // Billed to tenant 9 by now: its admin cancels.
      cancel({ reason: 'OTHER', details: 'moving on', actorTenantId: 9 }),
    ];
    let history: BillingEvent[] = [];
    for (const next of commands)
      history = [...history, ...billingDecider.decide(next, spec.stateAfter(history))];
    expect(history.map((event) => event.type)).toEqual([
      'BillingSubscriptionStarted',
      'BillingTenantChanged',
      'BillingStartDateChanged',
      'BillingResumeDateSet',
      'BillingPaymentMethodChanged',
      'BillingPlanChanged',
      'BillingProductSet',
      'BillingProductRemoved',
      'BillingStripeCustomerLinked',
      'BillingStripeSubscriptionLinked',
      'BillingPaymentStatusChanged',
      'BillingCancellationScheduled',
    ]);
    for (const event of history) expect(BillingEvent.parse(event)).toEqual(event);
  });
});
