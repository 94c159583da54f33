import { z } from 'zod';
import { EntityId, IsoDateTime, type PersonalDataFields } from './values';

/** The payment provider's subscription statuses; `trialing` marks a trial. */
export const PaymentStatus = z.enum([
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'paused',
]);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

export const PaymentMethod = z.enum(['manual', 'send_invoice', 'card', 'charge_automatically']);
export type PaymentMethod = z.infer<typeof PaymentMethod>;

export const CancellationReason = z.enum(['NEEDS', 'LOWER_COSTS', 'JUST_TESTING', 'BIZ_CHANGE', 'OTHER']);
export type CancellationReason = z.infer<typeof CancellationReason>;

/** The plan as the subscription shows it; plans themselves live in the plan- streams. */
export const BillingPlan = z.object({ id: EntityId, name: z.string().min(1), identifier: z.string().min(1) });
export type BillingPlan = z.infer<typeof BillingPlan>;

export const maxProductQuantity = 10_000;

/** A product of the subscription: Product.Identifier in the form group/feature. */
export const SubscriptionProduct = z.object({
  identifier: z.string().min(1),
  quantity: z.int().min(0).max(maxProductQuantity),
  active: z.boolean(),
  expiresAt: IsoDateTime.nullable(),
});
export type SubscriptionProduct = z.infer<typeof SubscriptionProduct>;

export const BillingSubscriptionStarted = z.object({
  type: z.literal('BillingSubscriptionStarted'),
  data: z.object({
    subscriptionId: EntityId,
    tenantId: EntityId,
    /** The tenant that pays: the tenant itself, or the advisory firm paying for its client. */
    billingTenantId: EntityId,
    plan: BillingPlan,
    /** StartedAt: billing starts here; in the future it is the end of the trial. */
    startedAt: IsoDateTime,
    paymentStatus: PaymentStatus,
    paymentMethod: PaymentMethod.nullable(),
    createdAt: IsoDateTime,
  }),
});

const change = <Type extends string, Shape extends z.ZodRawShape>(type: Type, shape: Shape) =>
  z.object({ type: z.literal(type), data: z.object({ subscriptionId: EntityId, ...shape }) });

export const BillingTenantChanged = change('BillingTenantChanged', { billingTenantId: EntityId });
export const BillingPlanChanged = change('BillingPlanChanged', { plan: BillingPlan });
/** StartedAt moved: the trial now ends on this date. */
export const BillingStartDateChanged = change('BillingStartDateChanged', { startedAt: IsoDateTime });
export const BillingResumeDateSet = change('BillingResumeDateSet', { resumesAt: IsoDateTime.nullable() });
export const BillingPaymentMethodChanged = change('BillingPaymentMethodChanged', {
  paymentMethod: PaymentMethod,
});
export const BillingPaymentStatusChanged = change('BillingPaymentStatusChanged', {
  paymentStatus: PaymentStatus,
  /** When the payment provider's event said so: older news arriving later is not applied. Absent before webhooks. */
  asOf: IsoDateTime.optional(),
});
export const BillingStripeCustomerLinked = change('BillingStripeCustomerLinked', {
  stripeCustomerId: z.string().min(1),
});
/** One priced line of the payment provider's subscription: the plan (`plan/<identifier>`) or a product. */
export const StripeSubscriptionItem = z.object({
  identifier: z.string().min(1),
  stripePriceId: z.string().min(1),
  stripeSubscriptionItemId: z.string().min(1),
});
export type StripeSubscriptionItem = z.infer<typeof StripeSubscriptionItem>;
/** The payment provider's (monthly) subscription that bills this one, pushed by a platform admin's resync. */
export const BillingStripeSubscriptionLinked = change('BillingStripeSubscriptionLinked', {
  stripeSubscriptionId: z.string().min(1),
  billingPeriod: z.literal('month'),
  items: z.array(StripeSubscriptionItem).max(200),
});
export const BillingProductSet = change('BillingProductSet', { product: SubscriptionProduct });
export const BillingProductRemoved = change('BillingProductRemoved', { identifier: z.string().min(1) });
/** Cancel or downgrade at the end of the billing period; `details` is free text, so treated as personal data. */
export const BillingCancellationScheduled = change('BillingCancellationScheduled', {
  /** The tenant that owns the key encrypting `details`. */
  tenantId: EntityId,
  intent: z.enum(['cancel', 'downgrade']),
  reason: CancellationReason,
  details: z.string().nullable(),
  downgradeTo: BillingPlan.nullable(),
  effectiveAt: IsoDateTime,
});

export const BillingEvent = z.discriminatedUnion('type', [
  BillingSubscriptionStarted,
  BillingTenantChanged,
  BillingPlanChanged,
  BillingStartDateChanged,
  BillingResumeDateSet,
  BillingPaymentMethodChanged,
  BillingPaymentStatusChanged,
  BillingStripeCustomerLinked,
  BillingStripeSubscriptionLinked,
  BillingProductSet,
  BillingProductRemoved,
  BillingCancellationScheduled,
]);
export type BillingEvent = z.infer<typeof BillingEvent>;
export type BillingEventType = BillingEvent['type'];

export const billingEventVersions = {
  BillingSubscriptionStarted: 1,
  BillingTenantChanged: 1,
  BillingPlanChanged: 1,
  BillingStartDateChanged: 1,
  BillingResumeDateSet: 1,
  BillingPaymentMethodChanged: 1,
  BillingPaymentStatusChanged: 1,
  BillingStripeCustomerLinked: 1,
  BillingStripeSubscriptionLinked: 1,
  BillingProductSet: 1,
  BillingProductRemoved: 1,
  BillingCancellationScheduled: 1,
} satisfies Record<BillingEventType, number>;

export const billingPersonalDataFields = {
  BillingSubscriptionStarted: [],
  BillingTenantChanged: [],
  BillingPlanChanged: [],
  BillingStartDateChanged: [],
  BillingResumeDateSet: [],
  BillingPaymentMethodChanged: [],
  BillingPaymentStatusChanged: [],
  BillingStripeCustomerLinked: [],
  BillingStripeSubscriptionLinked: [],
  BillingProductSet: [],
  BillingProductRemoved: [],
  BillingCancellationScheduled: ['details'],
} satisfies PersonalDataFields<BillingEvent>;
