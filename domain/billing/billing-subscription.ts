import { match } from 'ts-pattern';
import type {
  BillingEvent,
  BillingPlan,
  CancellationReason,
  PaymentMethod,
  PaymentStatus,
  StripeSubscriptionItem,
  SubscriptionProduct,
} from '../../contracts/events/billing';

export type ScheduledCancellation = {
  intent: 'cancel' | 'downgrade';
  reason: CancellationReason;
  downgradeTo: BillingPlan | null;
  effectiveAt: string;
};

export type KnownSubscription = {
  subscriptionId: number;
  tenantId: number;
  billingTenantId: number;
  plan: BillingPlan;
  startedAt: string;
  resumesAt: string | null;
  /** InactiveAt: the churn date, set by a cancellation. */
  inactiveAt: string | null;
  paymentStatus: PaymentStatus;
  /** When the payment provider last reported the status (webhooks); null before any report. */
  paymentStatusAsOf: string | null;
  paymentMethod: PaymentMethod | null;
  stripeCustomerId: string | null;
  /** The payment provider's monthly subscription and its priced lines; null until first pushed. */
  stripeSubscription: { id: string; items: StripeSubscriptionItem[] } | null;
  products: SubscriptionProduct[];
  scheduledCancellation: ScheduledCancellation | null;
};

export type BillingSubscriptionState = { status: 'none' } | ({ status: 'known' } & KnownSubscription);

export const initialBillingState = (): BillingSubscriptionState => ({ status: 'none' });

const onKnown = (
  state: BillingSubscriptionState,
  change: (subscription: KnownSubscription) => Partial<KnownSubscription>,
): BillingSubscriptionState => (state.status === 'known' ? { ...state, ...change(state) } : state);

export const evolveBilling = (
  state: BillingSubscriptionState,
  event: BillingEvent,
): BillingSubscriptionState =>
  match(event)
    .with({ type: 'BillingSubscriptionStarted' }, ({ data }): BillingSubscriptionState => ({
      status: 'known',
      subscriptionId: data.subscriptionId,
      tenantId: data.tenantId,
      billingTenantId: data.billingTenantId,
      plan: data.plan,
      startedAt: data.startedAt,
      resumesAt: null,
      inactiveAt: null,
      paymentStatus: data.paymentStatus,
      paymentStatusAsOf: null,
      paymentMethod: data.paymentMethod,
      stripeCustomerId: null,
      stripeSubscription: null,
      products: [],
      scheduledCancellation: null,
    }))
    .with({ type: 'BillingTenantChanged' }, ({ data }) =>
      onKnown(state, () => ({ billingTenantId: data.billingTenantId })),
    )
    // Applying the plan change ends a scheduled downgrade, so the tenant may cancel or downgrade again later.
    .with({ type: 'BillingPlanChanged' }, ({ data }) =>
      onKnown(state, (subscription) => ({
        plan: data.plan,
        scheduledCancellation:
          subscription.scheduledCancellation?.intent === 'downgrade'
            ? null
            : subscription.scheduledCancellation,
      })),
    )
    .with({ type: 'BillingStartDateChanged' }, ({ data }) =>
      onKnown(state, () => ({ startedAt: data.startedAt })),
    )
    .with({ type: 'BillingResumeDateSet' }, ({ data }) =>
      onKnown(state, () => ({ resumesAt: data.resumesAt })),
    )
    .with({ type: 'BillingPaymentMethodChanged' }, ({ data }) =>
      onKnown(state, () => ({ paymentMethod: data.paymentMethod })),
    )
    .with({ type: 'BillingPaymentStatusChanged' }, ({ data }) =>
      onKnown(state, (subscription) => ({
        paymentStatus: data.paymentStatus,
        paymentStatusAsOf: data.asOf ?? subscription.paymentStatusAsOf,
      })),
    )
    .with({ type: 'BillingStripeCustomerLinked' }, ({ data }) =>
      onKnown(state, () => ({ stripeCustomerId: data.stripeCustomerId })),
    )
    .with({ type: 'BillingStripeSubscriptionLinked' }, ({ data }) =>
      onKnown(state, () => ({ stripeSubscription: { id: data.stripeSubscriptionId, items: data.items } })),
    )
    .with({ type: 'BillingProductSet' }, ({ data }) =>
      onKnown(state, (subscription) => ({
        products: [
          ...subscription.products.filter((p) => p.identifier !== data.product.identifier),
          data.product,
        ],
      })),
    )
    .with({ type: 'BillingProductRemoved' }, ({ data }) =>
      onKnown(state, (subscription) => ({
        products: subscription.products.filter((p) => p.identifier !== data.identifier),
      })),
    )
    .with({ type: 'BillingCancellationScheduled' }, ({ data }) =>
      onKnown(state, () => ({
        scheduledCancellation: {
          intent: data.intent,
          reason: data.reason,
          downgradeTo: data.downgradeTo,
          effectiveAt: data.effectiveAt,
        },
        ...(data.intent === 'cancel' ? { inactiveAt: data.effectiveAt } : {}),
      })),
    )
    .exhaustive();
