import { z } from 'zod';
import { BillingPlan, PaymentMethod, PaymentStatus } from '../events/billing';
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
