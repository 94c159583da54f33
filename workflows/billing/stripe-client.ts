import Stripe from 'stripe';
import type { Config } from '../../contracts/config';

/** A Stripe client pointed at STRIPE_API_URL: stripe-mock locally and in tests, api.stripe.com in production. */
export const createStripeClient = (config: Pick<Config, 'STRIPE_API_URL' | 'STRIPE_SECRET_KEY'>): Stripe => {
  const api = new URL(config.STRIPE_API_URL);
  const protocol = api.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(config.STRIPE_SECRET_KEY, {
    host: api.hostname,
    port: Number(api.port || (protocol === 'http' ? 80 : 443)),
    protocol,
    maxNetworkRetries: 2,
  });
};
