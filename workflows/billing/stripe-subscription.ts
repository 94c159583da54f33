import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import type { BillingSubscription } from '../../contracts/api/billing';
import { AppError } from '../../contracts/errors';
import type { StripeSubscriptionItem } from '../../contracts/events/billing';
import {
  catalogueProducts,
  cataloguePlans,
  planStripeId,
  type CatalogueProduct,
  type CataloguePlan,
} from '../../domain/plan/catalogue';
import { monthlyLookupKey } from './stripe-catalogue';

/** One priced line the provider should bill: the plan (`plan/<identifier>`) or a billable product. */
export type BilledLine = { identifier: string; lookupKey: string; quantity: number };

/**
 * What a subscription bills monthly: its plan when the plan has a price, and each billable product
 * that counts now (active, not expired) with a quantity above 0. Features a plan unlocks are not
 * billed on their own.
 */
export const billedLinesOf = (
  subscription: Pick<BillingSubscription, 'Plan' | 'SubscriptionProducts'>,
  catalogue: { plans?: readonly CataloguePlan[]; products?: readonly CatalogueProduct[] } = {},
): BilledLine[] => {
  const plan = (catalogue.plans ?? cataloguePlans).find((p) => p.Identifier === subscription.Plan.Identifier);
  const products = new Map((catalogue.products ?? catalogueProducts).map((p) => [p.Identifier, p]));
  const lines: BilledLine[] = [];
  if (plan && plan.MonthlyPriceCents > 0)
    lines.push({
      identifier: `plan/${plan.Identifier}`,
      lookupKey: monthlyLookupKey(planStripeId(plan.Identifier)),
      quantity: 1,
    });
  for (const held of subscription.SubscriptionProducts) {
    const product = products.get(held.Identifier);
    if (!product?.Billable || held.Quantity <= 0) continue;
    lines.push({
      identifier: product.Identifier,
      lookupKey: monthlyLookupKey(product.StripeId),
      quantity: held.Quantity,
    });
  }
  return lines;
};

/**
 * The current price of each line, by its lookup key. One key per request: the provider filters by
 * the key, so whatever price it answers is that key's (the catalogue keeps one active price per key).
 */
const pricesOf = async (stripe: Stripe, lines: readonly BilledLine[]) => {
  const prices = new Map<string, string>();
  for (const line of lines) {
    const { data } = await stripe.prices.list({ lookup_keys: [line.lookupKey], active: true, limit: 1 });
    const price = data[0];
    if (!price)
      throw new AppError(
        'conflict',
        `Stripe has no price for ${line.identifier}: run "ledgerwise billing catalogue" first.`,
      );
    prices.set(line.identifier, price.id);
  }
  return prices;
};

const keyOf = (parts: unknown) =>
  createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24);

const itemsOf = (
  subscription: Stripe.Subscription,
  lines: readonly BilledLine[],
  prices: ReadonlyMap<string, string>,
): StripeSubscriptionItem[] =>
  lines.flatMap((line) => {
    const stripePriceId = prices.get(line.identifier) ?? '';
    const item = subscription.items.data.find((candidate) => candidate.price.id === stripePriceId);
    return item ? [{ identifier: line.identifier, stripePriceId, stripeSubscriptionItemId: item.id }] : [];
  });

export type PushedSubscription = { stripeSubscriptionId: string; items: StripeSubscriptionItem[] };

/**
 * Creates or brings up to date the provider's monthly subscription of a billing subscription: the
 * first push creates it (trial to StartedAt while trialing; invoices sent for manual and send_invoice
 * payers, charged automatically otherwise); later pushes change quantities, add new lines and delete
 * the lines no longer billed, on the item ids recorded by the last push. Every write carries an
 * idempotency key derived from the subscription and what it writes, so a retried resync writes once.
 * Nothing to bill and nothing pushed before: nothing is created.
 */
export const pushStripeSubscription = async (
  stripe: Stripe,
  input: {
    subscription: Pick<
      BillingSubscription,
      'Id' | 'TenantId' | 'Plan' | 'SubscriptionProducts' | 'StartedAt' | 'PaymentMethod' | 'PaymentStatus'
    >;
    customerId: string;
    /** What the last push recorded; null before the first. */
    current: PushedSubscription | null;
    now: Date;
  },
): Promise<PushedSubscription | null> => {
  const { subscription, current } = input;
  const lines = billedLinesOf(subscription);
  if (lines.length === 0 && current === null) return null;
  const prices = await pricesOf(stripe, lines);
  const wanted = lines.map((line) => ({ ...line, price: prices.get(line.identifier) ?? '' }));
  if (current === null) {
    const trialEnd = new Date(subscription.StartedAt).getTime();
    const invoiced =
      subscription.PaymentMethod === null || ['manual', 'send_invoice'].includes(subscription.PaymentMethod);
    const created = await stripe.subscriptions.create(
      {
        customer: input.customerId,
        items: wanted.map((line) => ({ price: line.price, quantity: line.quantity })),
        ...(invoiced ? { collection_method: 'send_invoice', days_until_due: 30 } : {}),
        ...(subscription.PaymentStatus === 'trialing' && trialEnd > input.now.getTime()
          ? { trial_end: Math.floor(trialEnd / 1000) }
          : {}),
        metadata: { subscriptionId: String(subscription.Id), tenantId: String(subscription.TenantId) },
      },
      { idempotencyKey: `ledgerwise:subscription-${subscription.Id}:create:${keyOf(wanted)}` },
    );
    return { stripeSubscriptionId: created.id, items: itemsOf(created, lines, prices) };
  }
  const recorded = new Map(current.items.map((item) => [item.identifier, item]));
  const changes: Stripe.SubscriptionUpdateParams.Item[] = [
    ...wanted.map((line): Stripe.SubscriptionUpdateParams.Item => {
      const item = recorded.get(line.identifier);
      // A new price (the catalogue changed it) replaces the item's price in place.
      return item
        ? { id: item.stripeSubscriptionItemId, price: line.price, quantity: line.quantity }
        : { price: line.price, quantity: line.quantity };
    }),
    ...current.items
      .filter((item) => !wanted.some((line) => line.identifier === item.identifier))
      .map((item): Stripe.SubscriptionUpdateParams.Item => ({
        id: item.stripeSubscriptionItemId,
        deleted: true,
      })),
  ];
  const updated = await stripe.subscriptions.update(
    current.stripeSubscriptionId,
    { items: changes, proration_behavior: 'create_prorations' },
    { idempotencyKey: `ledgerwise:subscription-${subscription.Id}:update:${keyOf({ current, wanted })}` },
  );
  return { stripeSubscriptionId: updated.id, items: itemsOf(updated, lines, prices) };
};
