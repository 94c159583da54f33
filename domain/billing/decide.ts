import { match } from 'ts-pattern';
import { AppError, type FieldErrors } from '../../contracts/errors';
import {
  CancellationReason,
  maxProductQuantity,
  type BillingEvent,
  type BillingPlan,
  type PaymentMethod,
  type PaymentStatus,
  type StripeSubscriptionItem,
  type SubscriptionProduct,
} from '../../contracts/events/billing';
import type { Actor } from '../actor';
import type { DomainCommand } from '../decider';
import type { BillingSubscriptionState, KnownSubscription } from './billing-subscription';
import { isAfterToday, isTrialEndEditable } from './subscription-rules';

export type StartBillingSubscription = DomainCommand<
  'StartBillingSubscription',
  {
    subscriptionId: number;
    tenantId: number;
    billingTenantId: number;
    plan: BillingPlan;
    /** The plan's TrialPeriod in days, from the plan stream; 0 for none. */
    trialDays: number;
    paymentMethod: PaymentMethod | null;
  }
>;

/** One product row of the admin edit form: new, changed, or marked for deletion. */
export type ProductChange = {
  identifier: string;
  quantity?: number;
  active?: boolean;
  expiresAt?: Date | null;
  delete?: boolean;
};

/** The admin edit form and the Change Plan button; only the fields given change. */
export type UpdateBillingSubscription = DomainCommand<
  'UpdateBillingSubscription',
  {
    /** The tenant id as the caller supplied it (a route parameter): checked, since billing needs a number. */
    tenantId: number;
    actor: Actor;
    /** From the tenant stream: demo subscriptions cannot be updated. */
    tenantIsDemo: boolean;
    /**
     * The tenant in which the actor's role holds. An ADMIN of the paying tenant (the advisory firm of
     * a client) may change the plan as the client's own admin may when the client pays itself.
     */
    actorTenantId?: number;
    billingTenantId?: number;
    plan?: BillingPlan;
    startedAt?: Date;
    resumesAt?: Date | null;
    paymentMethod?: PaymentMethod;
    products?: ProductChange[];
  }
>;
export type LinkStripeCustomer = DomainCommand<'LinkStripeCustomer', { stripeCustomerId: string }>;
/** Records the payment provider's subscription a resync created or updated, with its priced lines. */
export type LinkStripeSubscription = DomainCommand<
  'LinkStripeSubscription',
  { stripeSubscriptionId: string; items: StripeSubscriptionItem[] }
>;
export type RecordPaymentStatus = DomainCommand<
  'RecordPaymentStatus',
  {
    paymentStatus: PaymentStatus;
    /** When the payment provider reported it; a report older than the last one applied changes nothing. */
    asOf?: Date;
  }
>;
export type CancelBillingSubscription = DomainCommand<
  'CancelBillingSubscription',
  {
    intent: 'cancel' | 'downgrade';
    /** As the form sent it; checked against the five reasons. */
    reason: string;
    details: string | null;
    confirmed: boolean;
    /** For a downgrade: the plan that applies from the end of the period. */
    downgradeTo: BillingPlan | null;
    /** From the payment provider: when the current billing period ends. */
    currentPeriodEndsAt: Date;
    actor: Actor;
    /** The tenant the actor's role is held in; absent: the subscription's own tenant. */
    actorTenantId?: number;
    tenantIsDemo: boolean;
  }
>;

/** The end of the period came: a scheduled downgrade moves the plan, a scheduled cancellation ends payment. */
export type ApplyScheduledCancellation = DomainCommand<'ApplyScheduledCancellation', Record<string, never>>;

export type BillingCommand =
  | ApplyScheduledCancellation
  | StartBillingSubscription
  | UpdateBillingSubscription
  | LinkStripeCustomer
  | LinkStripeSubscription
  | RecordPaymentStatus
  | CancelBillingSubscription;

const dayMs = 24 * 60 * 60 * 1000;
const updateFailed = 'There was an error while updating the subscription.';

const requireSubscription = (state: BillingSubscriptionState): KnownSubscription => {
  if (state.status !== 'known') throw new AppError('not_found', 'Subscription not found.');
  return state;
};

const isId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

const start = (command: StartBillingSubscription, state: BillingSubscriptionState): BillingEvent[] => {
  const { data } = command;
  if (state.status !== 'none') throw new AppError('conflict', 'The tenant already has a subscription.');
  if (!Number.isInteger(data.trialDays) || data.trialDays < 0)
    throw new AppError('validation', 'The trial period is not valid.', {
      properties: { trialDays: 'invalid' },
    });
  return [
    {
      type: 'BillingSubscriptionStarted',
      data: {
        subscriptionId: data.subscriptionId,
        tenantId: data.tenantId,
        billingTenantId: data.billingTenantId,
        plan: data.plan,
        startedAt: new Date(command.now.getTime() + data.trialDays * dayMs).toISOString(),
        paymentStatus: data.trialDays > 0 ? 'trialing' : 'active',
        paymentMethod: data.paymentMethod,
        createdAt: command.now.toISOString(),
      },
    },
  ];
};

const checkProducts = (
  changes: readonly ProductChange[],
  subscription: KnownSubscription,
  errors: FieldErrors,
) => {
  changes.forEach((row, index) => {
    const exists = subscription.products.some((p) => p.identifier === row.identifier);
    if (row.delete && !exists)
      errors[`products.${index}.identifier`] = 'The subscription has no such product.';
    if (row.delete) return;
    if (row.quantity === undefined && !exists)
      errors[`products.${index}.quantity`] = 'A new product needs a quantity.';
    if (
      row.quantity !== undefined &&
      !(Number.isInteger(row.quantity) && row.quantity >= 0 && row.quantity <= maxProductQuantity)
    )
      errors[`products.${index}.quantity`] =
        `The quantity must be a whole number from 0 to ${maxProductQuantity}.`;
  });
};

const productEvents = (changes: readonly ProductChange[], subscription: KnownSubscription): BillingEvent[] =>
  changes.flatMap((row): BillingEvent[] => {
    const { subscriptionId } = subscription;
    const current = subscription.products.find((p) => p.identifier === row.identifier);
    if (row.delete)
      return [{ type: 'BillingProductRemoved', data: { subscriptionId, identifier: row.identifier } }];
    const product: SubscriptionProduct = {
      identifier: row.identifier,
      quantity: row.quantity ?? current?.quantity ?? 0,
      active: row.active ?? current?.active ?? true,
      expiresAt:
        row.expiresAt === undefined ? (current?.expiresAt ?? null) : (row.expiresAt?.toISOString() ?? null),
    };
    if (JSON.stringify(product) === JSON.stringify(current)) return [];
    return [{ type: 'BillingProductSet', data: { subscriptionId, product } }];
  });

/** Platform admins edit everything; a tenant admin may change the plan of a subscription the tenant pays itself. */
const checkUpdatePermission = (data: UpdateBillingSubscription['data'], subscription: KnownSubscription) => {
  if (data.actor.isPlatformAdmin) return;
  const { plan, actor, ...rest } = data;
  const adminFieldsGiven = ['billingTenantId', 'startedAt', 'resumesAt', 'paymentMethod', 'products'].some(
    (field) => rest[field as keyof typeof rest] !== undefined,
  );
  const roleIn = data.actorTenantId ?? subscription.tenantId;
  // The admin of the tenant that pays: the company itself when direct, the firm for its client.
  const adminOfPayer = actor.tenantRole === 'ADMIN' && roleIn === subscription.billingTenantId;
  if (adminFieldsGiven || plan === undefined || !adminOfPayer)
    throw new AppError('forbidden', 'Only a platform administrator can make these subscription changes.');
};

const update = (command: UpdateBillingSubscription, subscription: KnownSubscription): BillingEvent[] => {
  const { data, now } = command;
  if (data.tenantIsDemo) throw new AppError('conflict', 'Updating a demo subscription is not allowed.');
  const invalidTenant = !isId(data.tenantId) || data.tenantId !== subscription.tenantId;
  if (invalidTenant || (data.billingTenantId !== undefined && !isId(data.billingTenantId)))
    throw new AppError('validation', 'Invalid subscription tenantId supplied.', {
      properties: invalidTenant ? { tenantId: 'invalid' } : { billingTenantId: 'invalid' },
    });
  checkUpdatePermission(data, subscription);

  const errors: FieldErrors = {};
  if (data.startedAt !== undefined && !isTrialEndEditable(subscription, now))
    errors.startedAt = 'The trial end can be changed only during a trial or before the start.';
  else if (data.startedAt !== undefined && !isAfterToday(data.startedAt, now))
    errors.startedAt = 'The start date must be after today.';
  if (data.resumesAt && !isAfterToday(data.resumesAt, now))
    errors.resumesAt = 'The resume date must be after today.';
  if (
    data.paymentMethod === 'manual' &&
    subscription.paymentMethod !== 'manual' &&
    subscription.stripeCustomerId !== null
  )
    errors.paymentMethod = 'Manual payment is no longer available once a payment provider customer exists.';
  checkProducts(data.products ?? [], subscription, errors);
  if (Object.keys(errors).length > 0) throw new AppError('validation', updateFailed, { properties: errors });

  const { subscriptionId } = subscription;
  const events: BillingEvent[] = [];
  if (data.billingTenantId !== undefined && data.billingTenantId !== subscription.billingTenantId)
    events.push({
      type: 'BillingTenantChanged',
      data: { subscriptionId, billingTenantId: data.billingTenantId },
    });
  if (data.plan !== undefined && data.plan.id !== subscription.plan.id)
    events.push({ type: 'BillingPlanChanged', data: { subscriptionId, plan: data.plan } });
  if (data.startedAt !== undefined && data.startedAt.toISOString() !== subscription.startedAt)
    events.push({
      type: 'BillingStartDateChanged',
      data: { subscriptionId, startedAt: data.startedAt.toISOString() },
    });
  const resumesAt = data.resumesAt === undefined ? undefined : (data.resumesAt?.toISOString() ?? null);
  if (resumesAt !== undefined && resumesAt !== subscription.resumesAt)
    events.push({ type: 'BillingResumeDateSet', data: { subscriptionId, resumesAt } });
  if (data.paymentMethod !== undefined && data.paymentMethod !== subscription.paymentMethod)
    events.push({
      type: 'BillingPaymentMethodChanged',
      data: { subscriptionId, paymentMethod: data.paymentMethod },
    });
  return [...events, ...productEvents(data.products ?? [], subscription)];
};

/**
 * The cancel or downgrade form's rules; the route checks them too, before it asks the payment provider
 * for the period end, so a bad form costs no call.
 */
export const checkCancellationForm = (
  data: Pick<
    CancelBillingSubscription['data'],
    'reason' | 'details' | 'confirmed' | 'intent' | 'downgradeTo'
  >,
): { reason: CancellationReason; details: string | null } => {
  const errors: FieldErrors = {};
  const reason = CancellationReason.safeParse(data.reason);
  const details = data.details?.trim() ? data.details.trim() : null;
  if (!data.confirmed) errors.confirmed = 'Tick the box to confirm.';
  if (!reason.success) errors.reason = 'Choose one of the reasons.';
  else if (details !== null && reason.data !== 'OTHER')
    errors.details = 'Details are only for the reason Other.';
  if (data.intent === 'downgrade' && data.downgradeTo === null)
    errors.downgradeTo = 'Choose the plan to downgrade to.';
  if (!reason.success || Object.keys(errors).length > 0)
    throw new AppError('validation', updateFailed, { properties: errors });
  return { reason: reason.data, details };
};

const cancel = (command: CancelBillingSubscription, subscription: KnownSubscription): BillingEvent[] => {
  const { data, now } = command;
  if (data.tenantIsDemo)
    throw new AppError('conflict', 'Billing is disabled while in a demo tenant. Please switch.');
  // As for a plan change: the admin of the tenant that pays (the firm, for its client's subscription).
  const roleIn = data.actorTenantId ?? subscription.tenantId;
  if (
    !data.actor.isPlatformAdmin &&
    (data.actor.tenantRole !== 'ADMIN' || roleIn !== subscription.billingTenantId)
  )
    throw new AppError('forbidden', 'Only a company administrator can cancel or downgrade the subscription.');
  if (subscription.inactiveAt !== null && Date.parse(subscription.inactiveAt) <= now.getTime())
    throw new AppError('conflict', 'The subscription is already inactive.');
  if (subscription.scheduledCancellation)
    throw new AppError('conflict', 'A cancellation or downgrade is already scheduled for this subscription.');

  const { reason, details } = checkCancellationForm(data);

  // Takes effect at the end of the billing period; a period already over means now.
  const effectiveAt = new Date(Math.max(data.currentPeriodEndsAt.getTime(), now.getTime())).toISOString();
  return [
    {
      type: 'BillingCancellationScheduled',
      data: {
        subscriptionId: subscription.subscriptionId,
        tenantId: subscription.tenantId,
        intent: data.intent,
        reason,
        details,
        downgradeTo: data.intent === 'downgrade' ? data.downgradeTo : null,
        effectiveAt,
      },
    },
  ];
};

export const decideBilling = (command: BillingCommand, state: BillingSubscriptionState): BillingEvent[] =>
  match(command)
    .with({ type: 'StartBillingSubscription' }, (c) => start(c, state))
    .with({ type: 'UpdateBillingSubscription' }, (c) => update(c, requireSubscription(state)))
    .with({ type: 'LinkStripeCustomer' }, (c): BillingEvent[] => {
      const subscription = requireSubscription(state);
      const { stripeCustomerId } = c.data;
      if (subscription.stripeCustomerId === stripeCustomerId) return [];
      if (subscription.stripeCustomerId !== null)
        throw new AppError('conflict', 'The subscription already has another payment provider customer.');
      if (!stripeCustomerId.trim())
        throw new AppError('validation', 'The customer id is required.', {
          properties: { stripeCustomerId: 'required' },
        });
      return [
        {
          type: 'BillingStripeCustomerLinked',
          data: { subscriptionId: subscription.subscriptionId, stripeCustomerId },
        },
      ];
    })
    .with({ type: 'LinkStripeSubscription' }, (c): BillingEvent[] => {
      const subscription = requireSubscription(state);
      if (subscription.stripeCustomerId === null)
        throw new AppError('conflict', 'The subscription has no payment provider customer yet.');
      const { stripeSubscriptionId, items } = c.data;
      const sorted = [...items].sort((a, b) => a.identifier.localeCompare(b.identifier));
      const current = subscription.stripeSubscription;
      // A resync that changed nothing at the provider records nothing.
      if (
        current?.id === stripeSubscriptionId &&
        JSON.stringify([...current.items].sort((a, b) => a.identifier.localeCompare(b.identifier))) ===
          JSON.stringify(sorted)
      )
        return [];
      return [
        {
          type: 'BillingStripeSubscriptionLinked',
          data: {
            subscriptionId: subscription.subscriptionId,
            stripeSubscriptionId,
            billingPeriod: 'month',
            items: sorted,
          },
        },
      ];
    })
    .with({ type: 'RecordPaymentStatus' }, (c): BillingEvent[] => {
      const subscription = requireSubscription(state);
      const asOf = c.data.asOf?.toISOString();
      // Webhooks arrive in any order: news older than what was applied is stale.
      if (asOf && subscription.paymentStatusAsOf && asOf < subscription.paymentStatusAsOf) return [];
      if (
        subscription.paymentStatus === c.data.paymentStatus &&
        (!asOf || asOf === subscription.paymentStatusAsOf)
      )
        return [];
      return [
        {
          type: 'BillingPaymentStatusChanged',
          data: {
            subscriptionId: subscription.subscriptionId,
            paymentStatus: c.data.paymentStatus,
            ...(asOf ? { asOf } : {}),
          },
        },
      ];
    })
    .with({ type: 'CancelBillingSubscription' }, (c) => cancel(c, requireSubscription(state)))
    .with({ type: 'ApplyScheduledCancellation' }, (c): BillingEvent[] => {
      const subscription = requireSubscription(state);
      const scheduled = subscription.scheduledCancellation;
      if (!scheduled || Date.parse(scheduled.effectiveAt) > c.now.getTime()) return [];
      const { subscriptionId } = subscription;
      if (scheduled.intent === 'downgrade' && scheduled.downgradeTo)
        return [{ type: 'BillingPlanChanged', data: { subscriptionId, plan: scheduled.downgradeTo } }];
      if (scheduled.intent === 'cancel' && subscription.paymentStatus !== 'canceled')
        return [{ type: 'BillingPaymentStatusChanged', data: { subscriptionId, paymentStatus: 'canceled' } }];
      return [];
    })
    .exhaustive();
