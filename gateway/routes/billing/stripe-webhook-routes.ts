import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { z } from 'zod';
import { handleCommand } from '../../../commands/command-handler';
import { runWithRequestContext, systemActorId } from '../../../commands/request-context';
import { billingMessages } from '../../../contracts/api/billing';
import { DEV_STRIPE_WEBHOOK_SECRET } from '../../../contracts/config';
import { AppError } from '../../../contracts/errors';
import { billingStream } from '../../../contracts/stream-ids';
import { systemActor } from '../../../domain/actor';
import { billingDecider } from '../../../domain/billing/billing-decider';
import type { BillingCommand } from '../../../domain/billing/decide';
import {
  billingSubscriptionsCollection,
  latestSubscriptionsByTenant,
} from '../../../projections/billing/query-billing-subscriptions';
import { createStripeClient } from '../../../workflows/billing/stripe-client';
import { billingChangeOf, type StripeBillingChange } from '../../../workflows/billing/stripe-events';
import type { GatewayServices } from '../../services';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A machine route authenticated by its own signature: the CSRF check does not apply (plugins/security.ts). */
    csrfExempt?: boolean;
  }
}

export const StripeWebhookResponse = z.object({
  received: z.literal(true),
  /** False for event types the webhook does not apply. */
  applied: z.boolean(),
});

const process = 'stripe-webhook';

/** The subscription an event is about: by the linked customer, else by the tenant id the provider object carries. */
const subscriptionFor = async (services: GatewayServices, change: StripeBillingChange) => {
  if (change.customerId) {
    const byCustomer = await (
      await billingSubscriptionsCollection(services.db)
    ).findOne({ stripeCustomerId: change.customerId }, { sort: { _id: -1 } });
    if (byCustomer) return byCustomer;
  }
  if (change.tenantId === null) return null;
  const byTenant = (await latestSubscriptionsByTenant(services.db, [change.tenantId])).get(change.tenantId);
  // A tenant already linked to another customer: this event is not about its subscription.
  if (
    !byTenant ||
    (change.customerId && byTenant.stripeCustomerId && byTenant.stripeCustomerId !== change.customerId)
  )
    return null;
  return byTenant;
};

/**
 * Applies one verified event. Every command's id is the event's id with a step, so a redelivery
 * appends nothing; payment statuses carry the event's time, so an older event delivered after a newer
 * one changes nothing (docs/adr/0039-billing.md).
 */
const applyEvent = async (services: GatewayServices, event: Stripe.Event): Promise<boolean> => {
  const change = billingChangeOf(event);
  if (!change) return false;
  const subscription = await subscriptionFor(services, change);
  // Not ours yet (the checkout that links it may still be on its way): the provider retries later.
  if (!subscription)
    throw new AppError('conflict', 'No subscription for this customer yet.', {
      message: `stripe event ${event.id}: customer ${change.customerId ?? '-'}, tenant ${change.tenantId ?? '-'}`,
    });
  const streamId = billingStream(subscription._id);
  const now = services.now();
  const run = (step: string, command: BillingCommand) =>
    handleCommand(
      billingDecider,
      { streamId, commandId: `stripe:${event.id}:${step}`, command },
      services.writeSide,
    );
  if (change.customerId && subscription.stripeCustomerId === null)
    await run('link', { type: 'LinkStripeCustomer', data: { stripeCustomerId: change.customerId }, now });
  if (change.paymentStatus)
    await run('status', {
      type: 'RecordPaymentStatus',
      data: { paymentStatus: change.paymentStatus, asOf: change.asOf },
      now,
    });
  if (change.paymentMethod && change.paymentMethod !== subscription.paymentMethod)
    await run('method', {
      type: 'UpdateBillingSubscription',
      data: {
        tenantId: subscription.tenantId,
        actor: systemActor,
        tenantIsDemo: false,
        paymentMethod: change.paymentMethod,
      },
      now,
    });
  return true;
};

/**
 * POST /api/billing/stripe/webhook: the payment provider's events. Public and CSRF-exempt (no browser
 * is involved); every delivery must carry a valid Stripe-Signature over the raw body, checked with
 * the stripe package. Registered in a scope of its own so the raw body parser applies here alone.
 */
export const stripeWebhookRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;
  const stripe = createStripeClient(services.config);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/api/billing/stripe/webhook',
    {
      config: { access: 'public', csrfExempt: true },
      schema: { tags: ['billing'], response: { 200: StripeWebhookResponse } },
    },
    async (request) => {
      const secret = services.config.STRIPE_WEBHOOK_SECRET;
      if (services.config.NODE_ENV === 'production' && secret === DEV_STRIPE_WEBHOOK_SECRET)
        throw new AppError('unavailable', 'The payment provider webhook is not configured.');
      const signature = request.headers['stripe-signature'];
      const body = request.body;
      let event: Stripe.Event;
      try {
        if (typeof signature !== 'string' || !Buffer.isBuffer(body)) throw new Error('no signature or body');
        event = stripe.webhooks.constructEvent(body, signature, secret);
      } catch (error) {
        throw new AppError('unauthorized', billingMessages.badSignature, {
          message: error instanceof Error ? error.message : String(error),
        });
      }
      const applied = await runWithRequestContext(
        { actor: systemActorId(process), requestId: request.id },
        () => applyEvent(services, event),
      );
      request.log.info({ stripeEvent: event.id, type: event.type, applied }, 'payment provider event');
      return { received: true as const, applied };
    },
  );
  return Promise.resolve();
};
