import type Stripe from 'stripe';
import type { PaymentMethod, PaymentStatus } from '../../contracts/events/billing';
import { paymentStatusOf } from './stripe-events';

/** What the billing calls need of a subscription. */
export type StripeSubscriptionFacts = {
  subscriptionId: number;
  tenantId: number;
  tenantName: string | null;
  stripeCustomerId: string | null;
  startedAt: string;
};

/**
 * The payment provider's customer of a subscription, created once: the idempotency key is the
 * subscription's, so a retried or concurrent request gets the same customer back.
 */
export const ensureStripeCustomer = async (
  stripe: Stripe,
  facts: StripeSubscriptionFacts,
): Promise<{ customerId: string; created: boolean }> => {
  if (facts.stripeCustomerId) return { customerId: facts.stripeCustomerId, created: false };
  const customer = await stripe.customers.create(
    {
      ...(facts.tenantName ? { name: facts.tenantName } : {}),
      metadata: { tenantId: String(facts.tenantId), subscriptionId: String(facts.subscriptionId) },
    },
    { idempotencyKey: `ledgerwise:customer:subscription-${facts.subscriptionId}` },
  );
  return { customerId: customer.id, created: true };
};

/** The billing portal where the customer manages payment methods and invoices. */
export const billingPortalUrl = async (
  stripe: Stripe,
  input: { customerId: string; returnUrl: string },
): Promise<string> => {
  const session = await stripe.billingPortal.sessions.create({
    customer: input.customerId,
    return_url: input.returnUrl,
  });
  return session.url;
};

const monthAfter = (date: Date) => {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
};

/**
 * When the current billing period ends, where a cancellation or downgrade takes effect: the trial's
 * end while trialing; the provider subscription's period end when there is one; otherwise the next
 * monthly anniversary of StartedAt (manual invoicing bills monthly from the start).
 */
export const currentPeriodEnd = async (
  stripe: Stripe,
  facts: StripeSubscriptionFacts,
  now: Date,
): Promise<Date> => {
  const startedAt = new Date(facts.startedAt);
  if (startedAt.getTime() > now.getTime()) return startedAt;
  if (facts.stripeCustomerId) {
    const { data } = await stripe.subscriptions.list({ customer: facts.stripeCustomerId, limit: 1 });
    const end = data[0]?.items.data[0]?.current_period_end;
    if (typeof end === 'number' && end * 1000 > now.getTime()) return new Date(end * 1000);
  }
  let end = startedAt;
  while (end.getTime() <= now.getTime()) end = monthAfter(end);
  return end;
};

/** The provider's view of the customer's payment: its latest subscription's status and collection method. */
export const readStripePayment = async (
  stripe: Stripe,
  customerId: string,
): Promise<{ paymentStatus: PaymentStatus | null; paymentMethod: PaymentMethod | null }> => {
  const { data } = await stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 1 });
  const latest = data[0];
  if (!latest) return { paymentStatus: null, paymentMethod: null };
  return {
    paymentStatus: paymentStatusOf(latest.status),
    paymentMethod: latest.collection_method === 'send_invoice' ? 'send_invoice' : 'charge_automatically',
  };
};
