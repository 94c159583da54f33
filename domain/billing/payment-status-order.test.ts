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
