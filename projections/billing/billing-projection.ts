import {
  BillingEvent,
  billingEventVersions,
  type BillingPlan,
  type CancellationReason,
  type PaymentMethod,
  type PaymentStatus,
  type StripeSubscriptionItem,
} from '../../contracts/events/billing';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { TenantEvent } from '../../contracts/events/tenant';
import { erasePersonalFields } from '../framework/erase-personal-fields';
import { defineProjection, type DocumentFields, type ReadModelWrite } from '../framework/projection';
import { parseEvent } from '../parse-event';

export type ProductDoc = { identifier: string; quantity: number; active: boolean; expiresAt: Date | null };

/**
 * One document per billing subscription. Fields are flat (a batch merges several events' assignments
 * into one `$set`); products are a map whose entries alone are assigned, null once removed.
 */
export type BillingSubscriptionDoc = {
  _id: number;
  position: number;
  subscriptionId: number;
  tenantId: number;
  billingTenantId: number;
  planId: number;
  planName: string;
  planIdentifier: string;
  /** StartedAt: in the future while the trial runs, and then the trial's end. */
  startedAt: Date;
  resumesAt: Date | null;
  /** InactiveAt (churn): when a scheduled cancellation takes effect. */
  inactiveAt: Date | null;
  paymentStatus: PaymentStatus;
  paymentMethod: PaymentMethod | null;
  stripeCustomerId: string | null;
  /** The payment provider's monthly subscription (StripeMonthlySubscriptionId) and its priced lines. */
  stripeSubscriptionId?: string | null;
  stripeItems?: StripeSubscriptionItem[];
  products?: Record<string, ProductDoc | null>;
  cancellationIntent: 'cancel' | 'downgrade' | null;
  cancellationReason: CancellationReason | null;
  cancellationDetails: string | null;
  cancellationDowngradeTo: BillingPlan | null;
  cancellationEffectiveAt: Date | null;
  createdAt: Date;
};

type Collections = 'subscriptions';

const billingTypes = new Set(Object.keys(billingEventVersions));
const tenantTypes = new Set(['TenantPurged']);

/** Mongo field names may hold neither dots nor a leading `$`; product identifiers might. */
export const productKey = (identifier: string): string =>
  encodeURIComponent(identifier).replaceAll('.', '%2E');

const set = (id: number, fields: DocumentFields): ReadModelWrite<Collections> => ({
  kind: 'set',
  collection: 'subscriptions',
  id,
  fields,
});

const planFields = (plan: BillingPlan) => ({
  planId: plan.id,
  planName: plan.name,
  planIdentifier: plan.identifier,
});

const noCancellation = {
  cancellationIntent: null,
  cancellationReason: null,
  cancellationDetails: null,
  cancellationDowngradeTo: null,
  cancellationEffectiveAt: null,
};

const billingWrites = (event: BillingEvent): ReadModelWrite<Collections>[] => {
  switch (event.type) {
    case 'BillingSubscriptionStarted': {
      const { data } = event;
      return [
        set(data.subscriptionId, {
          subscriptionId: data.subscriptionId,
          tenantId: data.tenantId,
          billingTenantId: data.billingTenantId,
          ...planFields(data.plan),
          startedAt: new Date(data.startedAt),
          resumesAt: null,
          inactiveAt: null,
          paymentStatus: data.paymentStatus,
          paymentMethod: data.paymentMethod,
          stripeCustomerId: null,
          ...noCancellation,
          createdAt: new Date(data.createdAt),
        }),
      ];
    }
    case 'BillingTenantChanged':
      return [set(event.data.subscriptionId, { billingTenantId: event.data.billingTenantId })];
    case 'BillingPlanChanged':
      return [
        set(event.data.subscriptionId, planFields(event.data.plan)),
        // The plan change carries out a scheduled downgrade, which then ends; a scheduled cancel stays.
        // Which one is scheduled is the document's to know, so a sweep asks it.
        {
          kind: 'update',
          collection: 'subscriptions',
          filter: { _id: event.data.subscriptionId, cancellationIntent: 'downgrade' },
          fields: noCancellation,
        },
      ];
    case 'BillingStartDateChanged':
      return [set(event.data.subscriptionId, { startedAt: new Date(event.data.startedAt) })];
    case 'BillingResumeDateSet':
      return [
        set(event.data.subscriptionId, {
          resumesAt: event.data.resumesAt === null ? null : new Date(event.data.resumesAt),
        }),
      ];
    case 'BillingPaymentMethodChanged':
      return [set(event.data.subscriptionId, { paymentMethod: event.data.paymentMethod })];
    case 'BillingPaymentStatusChanged':
      return [set(event.data.subscriptionId, { paymentStatus: event.data.paymentStatus })];
    case 'BillingStripeCustomerLinked':
      return [set(event.data.subscriptionId, { stripeCustomerId: event.data.stripeCustomerId })];
    case 'BillingStripeSubscriptionLinked':
      return [
        set(event.data.subscriptionId, {
          stripeSubscriptionId: event.data.stripeSubscriptionId,
          stripeItems: event.data.items,
        }),
      ];
    case 'BillingProductSet': {
      const { product } = event.data;
      const row: ProductDoc = {
        identifier: product.identifier,
        quantity: product.quantity,
        active: product.active,
        expiresAt: product.expiresAt === null ? null : new Date(product.expiresAt),
      };
      return [set(event.data.subscriptionId, { [`products.${productKey(product.identifier)}`]: row })];
    }
    case 'BillingProductRemoved':
      return [set(event.data.subscriptionId, { [`products.${productKey(event.data.identifier)}`]: null })];
    case 'BillingCancellationScheduled': {
      const { data } = event;
      return [
        set(data.subscriptionId, {
          cancellationIntent: data.intent,
          cancellationReason: data.reason,
          cancellationDetails: data.details,
          cancellationDowngradeTo: data.downgradeTo,
          cancellationEffectiveAt: new Date(data.effectiveAt),
          ...(data.intent === 'cancel' ? { inactiveAt: new Date(data.effectiveAt) } : {}),
        }),
      ];
    }
  }
};

export const BILLING_SUBSCRIPTIONS = 'billing-subscriptions';

/** Billing subscriptions: a tenant's billing page and the admin subscriptions list. */
export const billingSubscriptionsProjection = defineProjection<Collections>({
  name: BILLING_SUBSCRIPTIONS,
  collections: { subscriptions: 'billing_subscriptions' },
  indexes: {
    subscriptions: [
      { key: { tenantId: 1 }, name: 'tenant' },
      { key: { planId: 1 }, name: 'plan' },
    ],
  },
  filter: { eventTypes: [...billingTypes, ...tenantTypes] },
  project: (event: RecordedEvent) => {
    const billing = parseEvent(BillingEvent, billingTypes, event);
    if (billing) return billingWrites(billing);
    const tenant = parseEvent(TenantEvent, tenantTypes, event);
    // A permanent purge erases the key of the cancellation details and may delete the streams.
    if (tenant?.type === 'TenantPurged' && tenant.data.Permanent)
      return [{ kind: 'delete', collection: 'subscriptions', filter: { tenantId: tenant.data.TenantId } }];
    // One that keeps the records erases the key all the same: they read as a rebuild would.
    if (tenant?.type === 'TenantPurged')
      return erasePersonalFields<Collections>('subscriptions', { tenantId: tenant.data.TenantId }, [
        'cancellationDetails',
      ]);
    return [];
  },
});
