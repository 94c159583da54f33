import type Stripe from 'stripe';
import {
  catalogueProducts,
  cataloguePlans,
  planStripeId,
  type CataloguePlan,
  type CatalogueProduct,
} from '../../domain/plan/catalogue';

/** One thing of the catalogue as the payment provider holds it: a product and maybe a monthly price. */
type StripeItem = {
  identifier: string;
  stripeId: string;
  name: string;
  metadata: Record<string, string>;
  monthlyCents: number | null;
};

export type StripeCatalogueAction = 'created' | 'updated' | 'unchanged';
export type StripeCatalogueResult = {
  identifier: string;
  stripeId: string;
  product: StripeCatalogueAction;
  price: StripeCatalogueAction | 'none';
  priceId: string | null;
}[];

const itemOfProduct = (product: CatalogueProduct): StripeItem => ({
  identifier: product.Identifier,
  stripeId: product.StripeId,
  name: product.Name,
  metadata: {
    ledgerwise_kind: 'product',
    identifier: product.Identifier,
    module: product.Module,
    billable: String(product.Billable),
    classification: product.Classification ?? '',
  },
  monthlyCents: product.Billable ? product.MonthlyPriceCents : null,
});

const itemOfPlan = (plan: CataloguePlan): StripeItem => ({
  identifier: `plan/${plan.Identifier}`,
  stripeId: planStripeId(plan.Identifier),
  name: plan.Name,
  metadata: { ledgerwise_kind: 'plan', identifier: plan.Identifier, classification: plan.Classification },
  monthlyCents: plan.MonthlyPriceCents > 0 ? plan.MonthlyPriceCents : null,
});

const isMissing = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === 'resource_missing';

const sameMetadata = (have: Stripe.Metadata, want: Record<string, string>) =>
  Object.entries(want).every(([key, value]) => have[key] === value);

/** The price's lookup key: one current monthly price per product, found again by it. */
export const monthlyLookupKey = (stripeId: string) => `${stripeId}_monthly`;

const syncProduct = async (stripe: Stripe, item: StripeItem): Promise<StripeCatalogueAction> => {
  let existing: Stripe.Product | null = null;
  try {
    existing = await stripe.products.retrieve(item.stripeId);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  if (existing === null) {
    await stripe.products.create(
      { id: item.stripeId, name: item.name, metadata: item.metadata, active: true },
      { idempotencyKey: `ledgerwise:product:${item.stripeId}:create` },
    );
    return 'created';
  }
  if (existing.name === item.name && existing.active && sameMetadata(existing.metadata, item.metadata))
    return 'unchanged';
  await stripe.products.update(
    item.stripeId,
    { name: item.name, metadata: item.metadata, active: true },
    { idempotencyKey: `ledgerwise:product:${item.stripeId}:update:${item.name}` },
  );
  return 'updated';
};

const syncPrice = async (
  stripe: Stripe,
  item: StripeItem,
): Promise<{ price: StripeCatalogueAction | 'none'; priceId: string | null }> => {
  if (item.monthlyCents === null) return { price: 'none', priceId: null };
  const lookupKey = monthlyLookupKey(item.stripeId);
  const { data } = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
  const current = data[0];
  if (
    current &&
    current.lookup_key === lookupKey &&
    current.unit_amount === item.monthlyCents &&
    current.currency === 'usd' &&
    current.recurring?.interval === 'month'
  )
    return { price: 'unchanged', priceId: current.id };
  // Prices are immutable: a new amount is a new price that takes over the lookup key.
  const created = await stripe.prices.create(
    {
      product: item.stripeId,
      currency: 'usd',
      unit_amount: item.monthlyCents,
      recurring: { interval: 'month' },
      lookup_key: lookupKey,
      transfer_lookup_key: true,
      metadata: { identifier: item.identifier },
    },
    { idempotencyKey: `ledgerwise:price:${lookupKey}:${item.monthlyCents}` },
  );
  if (current && current.id !== created.id && current.lookup_key === lookupKey)
    await stripe.prices.update(
      current.id,
      { active: false },
      { idempotencyKey: `ledgerwise:price:${current.id}:archive` },
    );
  return { price: current?.lookup_key === lookupKey ? 'updated' : 'created', priceId: created.id };
};

/**
 * Keeps the payment provider's products and monthly prices in step with the catalogue: products by
 * fixed ids (found again on every run), prices by lookup key, every write under an idempotency key
 * derived from what it writes, so a repeated run or a retried request creates nothing twice.
 */
export const syncStripeCatalogue = async (
  stripe: Stripe,
  catalogue: { products?: readonly CatalogueProduct[]; plans?: readonly CataloguePlan[] } = {},
): Promise<StripeCatalogueResult> => {
  const items = [
    ...(catalogue.products ?? catalogueProducts).map(itemOfProduct),
    ...(catalogue.plans ?? cataloguePlans).map(itemOfPlan),
  ];
  const result: StripeCatalogueResult = [];
  for (const item of items) {
    const product = await syncProduct(stripe, item);
    const price = await syncPrice(stripe, item);
    result.push({ identifier: item.identifier, stripeId: item.stripeId, product, ...price });
  }
  return result;
};
