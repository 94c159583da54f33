import { z } from 'zod';
import { BillingPlan, maxProductQuantity, PaymentMethod, PaymentStatus } from '../events/billing';
import { PlanClassification, PlanProduct } from '../events/plan';
import { TenantClassification, UsageType } from '../events/tenant';

/**
 * The billing answers the plans table, the billing page and the admin subscriptions list read
 * (portal.md and admin.md section 3). The read models type their views from these, so the routes
 * that serve them answer these shapes.
 */

/** A plan as the admin plans table and the plan pickers show it. */
export const Plan = z.object({
  Id: z.number(),
  Identifier: z.string(),
  Name: z.string(),
  Classification: PlanClassification,
  Default: z.boolean(),
  Active: z.boolean(),
  /** Trial length in days. */
  TrialPeriod: z.number(),
  Products: z.array(PlanProduct),
  /** Present with include=Subscriptions: billing subscriptions on the plan now. */
  Subscriptions: z.number().optional(),
});
export type Plan = z.infer<typeof Plan>;

export const SubscriptionProduct = z.object({
  Identifier: z.string(),
  Quantity: z.number(),
  Active: z.boolean(),
  ExpiresAt: z.string().nullable(),
  /** Set once a resync pushed the subscription to Stripe and the product is billed there. */
  StripePriceId: z.string().nullable(),
  StripeSubscriptionItemId: z.string().nullable(),
  BillingPeriod: z.literal('month').nullable(),
});
export type SubscriptionProduct = z.infer<typeof SubscriptionProduct>;

export const BillingSubscription = z.object({
  Id: z.number(),
  TenantId: z.number(),
  BillingTenantId: z.number(),
  /** Paid by the tenant itself (direct), not by an advisory firm for its client (channel). */
  Direct: z.boolean(),
  Plan: z.object({ Id: z.number(), Name: z.string(), Identifier: z.string() }),
  StartedAt: z.string(),
  ResumesAt: z.string().nullable(),
  InactiveAt: z.string().nullable(),
  PaymentStatus,
  PaymentMethod: PaymentMethod.nullable(),
  StripeCustomerId: z.string().nullable(),
  /** The Stripe subscription billing it monthly, once a platform admin's resync pushed it. */
  StripeMonthlySubscriptionId: z.string().nullable(),
  /** The products that count now: active and not expired (expiry compared with today at midnight). */
  SubscriptionProducts: z.array(SubscriptionProduct),
  /** Every product row, for the admin edit form that marks expiring and removed rows. */
  AllProducts: z.array(SubscriptionProduct),
  ScheduledCancellation: z
    .object({
      Intent: z.enum(['cancel', 'downgrade']),
      Reason: z.string(),
      Details: z.string().nullable(),
      DowngradeTo: BillingPlan.nullable(),
      EffectiveAt: z.string(),
    })
    .nullable(),
  /** Computed when asked, with the rules of domain/billing/subscription-rules.ts. */
  TrialDaysRemaining: z.number(),
  TrialEndEditable: z.boolean(),
  createdAt: z.string(),
});
export type BillingSubscription = z.infer<typeof BillingSubscription>;

/** A row of the admin subscriptions list: the subscription with its tenant and its payer. */
export const AdminBillingSubscription = BillingSubscription.extend({
  Tenant: z.object({
    Id: z.number(),
    Name: z.string().nullable(),
    Classification: TenantClassification.nullable(),
  }),
  BillingTenant: z.object({ Id: z.number(), Name: z.string().nullable(), UsageType: UsageType.nullable() }),
});
export type AdminBillingSubscription = z.infer<typeof AdminBillingSubscription>;

/** The texts of the billing screens and routes (portal.md section 2.3, admin.md sections 5 and 8). */
export const billingMessages = {
  demoDisabled: 'Billing is disabled while in a demo tenant. Please switch.',
  demoUpdate: 'Updating a demo subscription is not allowed.',
  invalidTenantId: 'Invalid subscription tenantId supplied.',
  updateFailed: 'There was an error while updating the subscription.',
  noSubscription: 'The company has no subscription.',
  unknownPlan: 'Plan not found.',
  unknownProduct: 'Product not found.',
  badSignature: 'The webhook signature is not valid.',
} as const;

/** A product of the catalogue (admin.md section 3): a feature a plan unlocks or a billable module. */
export const Product = z.object({
  Identifier: z.string(),
  Name: z.string(),
  Module: z.string(),
  Billable: z.boolean(),
  StripeId: z.string(),
  Classification: PlanClassification.nullable(),
});
export type Product = z.infer<typeof Product>;

/** The tenant id of a billing path: checked by the route so a non-number answers the spec's text. */
export const BillingTenantParam = z.object({ tenantId: z.string().max(20) });

/** GET /api/billing/subscriptions/{tenantId}: null without one; Demo true means billing is disabled. */
export const TenantSubscriptionResponse = z.object({
  Subscription: BillingSubscription.nullable(),
  Demo: z.boolean(),
  /**
   * Quickstart packs (portal.md section 3): purchased = licensed quantity of the plan plus counting
   * products under plans/business/client_nurturing/packaged; used = Quickstart clients it pays for.
   * NeedsSupport: used reached purchased minus one (the contact-support prompt). Null without packs.
   */
  Quickstart: z.object({ used: z.number(), purchased: z.number(), NeedsSupport: z.boolean() }).nullable(),
  /** The dashboard's payment step (portal.md section 9): manual, send_invoice or card count as provided. */
  PaymentMethodProvided: z.boolean(),
});
export type TenantSubscriptionResponse = z.infer<typeof TenantSubscriptionResponse>;

const dateInput = z.iso.datetime({ offset: true }).or(z.iso.date());

/** One product row of the admin edit form: only rows with a quantity set, new, or deleted are sent. */
export const SubscriptionProductChange = z.object({
  Identifier: z.string().min(1).max(200),
  Quantity: z.int().min(0).max(maxProductQuantity).optional(),
  Active: z.boolean().optional(),
  ExpiresAt: dateInput.nullable().optional(),
  Delete: z.boolean().optional(),
});
export type SubscriptionProductChange = z.infer<typeof SubscriptionProductChange>;

/** PATCH /api/billing/subscriptions/{tenantId}: only the fields given change. */
export const UpdateSubscriptionRequest = z.object({
  TenantId: z.union([z.number(), z.string().max(20)]),
  PlanId: z.int().positive().optional(),
  BillingTenantId: z.int().positive().optional(),
  /** The trial end / start of billing: after today. */
  StartedAt: dateInput.optional(),
  ResumesAt: dateInput.nullable().optional(),
  PaymentMethod: PaymentMethod.optional(),
  Products: z.array(SubscriptionProductChange).max(100).optional(),
});
export type UpdateSubscriptionRequest = z.infer<typeof UpdateSubscriptionRequest>;

export const UpdateSubscriptionQuery = z.object({
  /** Also push the subscription to the payment provider and read its payment status back. */
  resyncStripe: z.enum(['true', 'false']).optional(),
});

export const AdminSubscriptionsQuery = z.object({
  classification: TenantClassification.optional(),
  /** Plan identifiers, comma-separated. */
  plan: z.string().max(500).optional(),
  /** Payment statuses, comma-separated. */
  paymentStatus: z.string().max(500).optional(),
  search: z.string().max(200).optional(),
});

export const AdminSubscriptionsResponse = z.object({
  rows: z.array(AdminBillingSubscription),
  total: z.number(),
  filtered: z.number(),
});

export const PlansQuery = z.object({
  include: z.literal('Subscriptions').optional(),
  classification: PlanClassification.optional(),
  active: z.enum(['true', 'false']).optional(),
});
export const PlansResponse = z.object({ plans: z.array(Plan) });
export const ProductsResponse = z.object({ products: z.array(Product) });

/** GET /api/billing/tenants: the tenants a subscription may be billed to (admin edit's billing tenant). */
export const BillingTenant = z.object({
  Id: z.number(),
  Name: z.string().nullable(),
  Classification: TenantClassification.nullable(),
  UsageType: UsageType.nullable(),
});
export const BillingTenantsResponse = z.object({ tenants: z.array(BillingTenant) });

export const BillingSessionRequest = z.object({ tenantId: z.union([z.number(), z.string().max(20)]) });
/** The payment provider's billing portal: the browser is sent to `url`. */
export const BillingSessionResponse = z.object({ url: z.string() });

/** The cancel or downgrade modal: effective at the end of the current billing period. */
export const CancelSubscriptionRequest = z.object({
  Intent: z.enum(['cancel', 'downgrade']).default('cancel'),
  Reason: z.string().max(40),
  /** Only for the reason OTHER. */
  Details: z.string().max(2000).nullable().optional(),
  Confirmed: z.boolean(),
  /** For a downgrade: the plan that applies from the end of the period. */
  DowngradeToPlanId: z.int().positive().nullable().optional(),
});
export type CancelSubscriptionRequest = z.infer<typeof CancelSubscriptionRequest>;
