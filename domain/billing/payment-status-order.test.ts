import type { BillingEvent } from '../../contracts/events/billing';
import { deciderSpec } from '../decider-spec';
import { billingDecider } from './billing-decider';

const spec = deciderSpec(billingDecider);
const now = new Date('2026-03-04T10:00:00.000Z');
const started: BillingEvent = {
  type: 'BillingSubscriptionStarted',
  data: {
    subscriptionId: 9,
    tenantId: 4,
    billingTenantId: 4,
    plan: { id: 1, name: 'Growth', identifier: 'growth_business' },
    startedAt: now.toISOString(),
    paymentStatus: 'trialing',
    paymentMethod: null,
    createdAt: now.toISOString(),
  },
};
const at = (minute: number) => new Date(Date.UTC(2026, 2, 5, 10, minute));
const changed = (paymentStatus: 'active' | 'past_due', minute: number): BillingEvent => ({
  type: 'BillingPaymentStatusChanged',
  data: { subscriptionId: 9, paymentStatus, asOf: at(minute).toISOString() },
});
const record = (paymentStatus: 'active' | 'past_due', minute?: number) =>
  ({
    type: 'RecordPaymentStatus',
    data: { paymentStatus, ...(minute === undefined ? {} : { asOf: at(minute) }) },
    now,
  }) as const;

describe('RecordPaymentStatus from webhooks delivered in any order', () => {
  it('applies newer news and ignores older news that arrives later', () => {
    spec
      .given([started])
      .when(record('past_due', 10))
      .then([changed('past_due', 10)]);
    // A payment that failed at 10:10 is not undone by the 10:05 report that it was active.
    spec
      .given([started, changed('past_due', 10)])
      .when(record('active', 5))
      .then([]);
    spec
      .given([started, changed('past_due', 10)])
      .when(record('active', 20))
      .then([changed('active', 20)]);
  });

  it('appends nothing for the same report twice, and still takes reports without a time (admin resync)', () => {
    spec
      .given([started, changed('active', 20)])
      .when(record('active', 20))
      .then([]);
    spec
      .given([started, changed('active', 20)])
      .when(record('past_due'))
      .then([
        { type: 'BillingPaymentStatusChanged', data: { subscriptionId: 9, paymentStatus: 'past_due' } },
      ]);
  });
});

describe('ApplyScheduledCancellation at the end of the period', () => {
  const effectiveAt = at(30).toISOString();
  const scheduled = (intent: 'cancel' | 'downgrade'): BillingEvent => ({
    type: 'BillingCancellationScheduled',
    data: {
      subscriptionId: 9,
      tenantId: 4,
      intent,
      reason: 'LOWER_COSTS',
      details: null,
      downgradeTo: intent === 'downgrade' ? { id: 2, name: 'Lite', identifier: 'lite' } : null,
      effectiveAt,
    },
  });
  const apply = (minute: number) =>
    ({ type: 'ApplyScheduledCancellation', data: {}, now: at(minute) }) as const;

  it('does nothing before the date, then cancels once', () => {
    spec
      .given([started, scheduled('cancel')])
      .when(apply(29))
      .then([]);
    const canceled: BillingEvent = {
      type: 'BillingPaymentStatusChanged',
      data: { subscriptionId: 9, paymentStatus: 'canceled' },
    };
    spec
      .given([started, scheduled('cancel')])
      .when(apply(30))
      .then([canceled]);
    spec
      .given([started, scheduled('cancel'), canceled])
      .when(apply(31))
      .then([]);
  });

  it('moves a scheduled downgrade to its plan, which ends the schedule', () => {
    const moved: BillingEvent = {
      type: 'BillingPlanChanged',
      data: { subscriptionId: 9, plan: { id: 2, name: 'Lite', identifier: 'lite' } },
    };
    spec
      .given([started, scheduled('downgrade')])
      .when(apply(45))
      .then([moved]);
    spec
      .given([started, scheduled('downgrade'), moved])
      .when(apply(50))
      .then([]);
    spec.given([started]).when(apply(50)).then([]);
  });
});
