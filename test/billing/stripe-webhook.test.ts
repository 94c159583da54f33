import Stripe from 'stripe';
import { TenantSubscriptionResponse, billingMessages } from '../../contracts/api/billing';
import { Tenant } from '../../contracts/api/tenants';
import { ErrorResponse } from '../../contracts/errors';
import { billingStream } from '../../contracts/stream-ids';
import { applyPlanCatalogue } from '../../workflows/billing/plan-catalogue';
import { useGatewayWorld } from '../gateway/gateway-world';
import { person } from '../gateway/team-fixtures';

const world = useGatewayWorld(__filename);
const webhook = '/api/billing/stripe/webhook';
let count = 0;
let nextEvent = 0;

beforeAll(async () => {
  await applyPlanCatalogue(world.services.writeSide, { now: world.clock.now() });
  await world.settle();
});

/** A company whose admin opened the billing portal once, so it has a payment provider customer. */
const customerCompany = async () => {
  count += 1;
  const owner = await person(world, { name: `webhook-owner${count}` });
  const created = await owner.browser.post('/api/tenants', {
    Name: `Webhook Co ${count}`,
    Industry: { FreeForm: 'Bakery' },
    Classification: 'BUSINESS',
  });
  const tenantId = Tenant.parse(created.json()).Id;
  await owner.browser.post('/api/auth/switchTenant', { tenantId });
  await owner.browser.post('/api/billing/session', { tenantId });
  await world.settle();
  const read = async () => {
    await world.settle();
    const { Subscription } = TenantSubscriptionResponse.parse(
      (await owner.browser.get(`/api/billing/subscriptions/${tenantId}`)).json(),
    );
    if (!Subscription) throw new Error('no subscription');
    return Subscription;
  };
  const first = await read();
  return { owner, tenantId, customerId: first.StripeCustomerId!, subscriptionId: first.Id, read };
};

const event = (type: string, object: Record<string, unknown>, createdAt: Date, id?: string) => ({
  id: id ?? `evt_test_${world.runId}_${(nextEvent += 1)}`,
  object: 'event',
  api_version: '2025-01-01',
  created: Math.floor(createdAt.getTime() / 1000),
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  type,
  data: { object },
});

const deliver = (
  payloadObject: unknown,
  options: { secret?: string; signature?: string | null; tamper?: (payload: string) => string } = {},
) => {
  const payload = JSON.stringify(payloadObject);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? world.config.STRIPE_WEBHOOK_SECRET,
  });
  const signature = options.signature === undefined ? header : options.signature;
  // A machine caller: no session cookie and no CSRF token, as the payment provider sends it.
  return world.app.inject({
    method: 'POST',
    url: webhook,
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'stripe-signature': signature }),
    },
    payload: options.tamper ? options.tamper(payload) : payload,
  });
};

const streamLength = async (subscriptionId: number) =>
  (await world.services.writeSide.store.readStream(billingStream(subscriptionId))).length;

const minutesAgo = (minutes: number) => new Date(world.clock.now().getTime() - minutes * 60_000);

describe('the payment provider webhook', () => {
  it('applies a failed payment once however often it is delivered', async () => {
    const company = await customerCompany();
    const failed = event(
      'invoice.payment_failed',
      { object: 'invoice', customer: company.customerId },
      minutesAgo(5),
    );
    const first = await deliver(failed);
    expect([first.statusCode, first.json()]).toEqual([200, { received: true, applied: true }]);
    expect((await company.read()).PaymentStatus).toBe('past_due');
    const length = await streamLength(company.subscriptionId);

    for (let i = 0; i < 3; i += 1) expect((await deliver(failed)).statusCode).toBe(200);
    expect(await streamLength(company.subscriptionId)).toBe(length);
    expect((await company.read()).PaymentStatus).toBe('past_due');
  });

  it('keeps the newest news when events arrive out of order, and ignores an older one replayed later', async () => {
    const company = await customerCompany();
    const subscription = (status: string) => ({
      object: 'subscription',
      customer: company.customerId,
      status,
      collection_method: 'charge_automatically',
      metadata: {},
    });
    const failedEarlier = event(
      'invoice.payment_failed',
      { object: 'invoice', customer: company.customerId },
      minutesAgo(30),
    );
    const activeLater = event('customer.subscription.updated', subscription('active'), minutesAgo(10));
    // The later event arrives first; the earlier failure then must not mark the paying customer past due.
    expect((await deliver(activeLater)).statusCode).toBe(200);
    expect((await deliver(failedEarlier)).statusCode).toBe(200);
    const after = await company.read();
    expect(after).toMatchObject({ PaymentStatus: 'active', PaymentMethod: 'charge_automatically' });

    const deleted = event('customer.subscription.deleted', subscription('active'), minutesAgo(1));
    expect((await deliver(deleted)).statusCode).toBe(200);
    expect((await company.read()).PaymentStatus).toBe('canceled');
    // Replaying the older "active" event afterwards changes nothing.
    const length = await streamLength(company.subscriptionId);
    expect((await deliver(activeLater)).statusCode).toBe(200);
    expect(await streamLength(company.subscriptionId)).toBe(length);
    expect((await company.read()).PaymentStatus).toBe('canceled');
  });

  it('links the customer of a completed checkout to the tenant it names, with card payment', async () => {
    count += 1;
    const owner = await person(world, { name: `checkout-owner${count}` });
    const created = await owner.browser.post('/api/tenants', {
      Name: `Checkout Co ${count}`,
      Industry: { FreeForm: 'Bakery' },
      Classification: 'BUSINESS',
    });
    const tenantId = Tenant.parse(created.json()).Id;
    await owner.browser.post('/api/auth/switchTenant', { tenantId });
    await world.settle();
    const customer = `cus_checkout_${world.runId}_${count}`;
    const completed = event(
      'checkout.session.completed',
      { object: 'checkout.session', customer, client_reference_id: String(tenantId), metadata: {} },
      minutesAgo(2),
    );
    expect((await deliver(completed)).statusCode).toBe(200);
    await world.settle();
    const { Subscription } = TenantSubscriptionResponse.parse(
      (await owner.browser.get(`/api/billing/subscriptions/${tenantId}`)).json(),
    );
    expect(Subscription).toMatchObject({ StripeCustomerId: customer, PaymentMethod: 'card' });
  });

  it('refuses badly signed deliveries and changes nothing', async () => {
    const company = await customerCompany();
    const failed = event(
      'invoice.payment_failed',
      { object: 'invoice', customer: company.customerId },
      minutesAgo(1),
    );
    const attempts = [
      await deliver(failed, { secret: 'whsec_someone_else' }),
      await deliver(failed, { tamper: (payload) => payload.replace('payment_failed', 'paid') }),
      await deliver(failed, { signature: null }),
      await deliver(failed, { signature: 't=1,v1=deadbeef' }),
    ];
    for (const response of attempts) {
      expect(response.statusCode).toBe(401);
      expect(ErrorResponse.parse(response.json()).message).toBe(billingMessages.badSignature);
    }
    expect((await company.read()).PaymentStatus).toBe('trialing');
  });

  it('asks the provider to retry an event about a customer it does not know yet, and ignores other types', async () => {
    const unknown = await deliver(
      event('invoice.paid', { object: 'invoice', customer: `cus_nobody_${world.runId}` }, minutesAgo(1)),
    );
    expect(unknown.statusCode).toBe(409);
    const other = await deliver(event('charge.refunded', { object: 'charge' }, minutesAgo(1)));
    expect([other.statusCode, other.json()]).toEqual([200, { received: true, applied: false }]);
  });
});
