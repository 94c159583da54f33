import { createStripeClient } from '../../workflows/billing/stripe-client';
import { isolatedNames, testConfig } from '../harness/isolation';

const config = testConfig(isolatedNames(__filename));

describe('stripe against stripe-mock', () => {
  it('creates a customer and gets a Stripe customer object back', async () => {
    const stripe = createStripeClient(config);
    const customer = await stripe.customers.create({ email: 'billing@acme.test', name: 'Acme Receivables' });
    expect(customer.object).toBe('customer');
    expect(customer.id).toMatch(/^cus_/);
  });

  it('reports an invalid request as a Stripe error', async () => {
    const stripe = createStripeClient(config);
    await expect(stripe.customers.retrieve('')).rejects.toThrow();
  });
});
