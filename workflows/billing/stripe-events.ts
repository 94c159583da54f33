import type Stripe from 'stripe';
import { PaymentStatus, type PaymentMethod } from '../../contracts/events/billing';

/** What a payment provider event means for a billing subscription (docs/adr/0039-billing.md). */
export type StripeBillingChange = {
  customerId: string | null;
  /** Our tenant id where the provider object carries it (metadata or the checkout's client reference). */
  tenantId: number | null;
  paymentStatus: PaymentStatus | null;
  paymentMethod: PaymentMethod | null;
  /** When the provider created the event: older news arriving later is not applied. */
  asOf: Date;
};

const customerOf = (customer: string | { id: string } | null | undefined) =>
  typeof customer === 'string' ? customer : (customer?.id ?? null);

const tenantIdOf = (...candidates: (string | null | undefined)[]) => {
  const found = candidates.find((value) => value && /^\d{1,12}$/.test(value));
  return found ? Number(found) : null;
};

/** Stripe's subscription status as ours; a status we do not know is none. */
export const paymentStatusOf = (status: string): PaymentStatus | null => {
  const parsed = PaymentStatus.safeParse(status);
  return parsed.success ? parsed.data : null;
};

/** The event types the webhook applies; every other type is acknowledged and ignored. */
export const handledStripeEvents = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  'checkout.session.completed',
] as const;

/** Maps a verified provider event to a billing change; null for a type the webhook does not apply. */
export const billingChangeOf = (event: Stripe.Event): StripeBillingChange | null => {
  const asOf = new Date(event.created * 1000);
  if (
    event.type === 'customer.subscription.created' ||
    event.type === 'customer.subscription.updated' ||
    event.type === 'customer.subscription.deleted'
  ) {
    const subscription = event.data.object;
    const status = event.type === 'customer.subscription.deleted' ? 'canceled' : subscription.status;
    return {
      customerId: customerOf(subscription.customer),
      tenantId: tenantIdOf(subscription.metadata?.tenantId),
      paymentStatus: paymentStatusOf(status),
      paymentMethod:
        subscription.collection_method === 'send_invoice' ? 'send_invoice' : 'charge_automatically',
      asOf,
    };
  }
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
    const invoice = event.data.object;
    return {
      customerId: customerOf(invoice.customer),
      tenantId: tenantIdOf(invoice.metadata?.tenantId),
      paymentStatus: event.type === 'invoice.paid' ? 'active' : 'past_due',
      paymentMethod: null,
      asOf,
    };
  }
  if (event.type === 'checkout.session.completed') {
    const session = event.data.object;
    return {
      customerId: customerOf(session.customer),
      tenantId: tenantIdOf(session.client_reference_id, session.metadata?.tenantId),
      paymentStatus: null,
      paymentMethod: 'card',
      asOf,
    };
  }
  return null;
};
