import type { PlanClassification, PlanProduct } from '../../contracts/events/plan';

/**
 * The plan catalogue of admin.md section 3 as data (docs/adr/0039-billing.md). Plans are created or
 * updated from it through the plan decider (workflows/billing/plan-catalogue.ts) and mirrored into the
 * payment provider as products and prices (workflows/billing/stripe-catalogue.ts). Identifiers never
 * change: subscriptions, partners and the sign-up link refer to plans and products by them.
 */

/** A product: a feature (something a plan unlocks) or a module (a billable pack). Identifier is group/feature. */
export type CatalogueProduct = {
  Identifier: string;
  Name: string;
  /** The group a product belongs to: the part of the identifier before the last slash. */
  Module: string;
  /** Charged on its own (a price exists for it); features that only a plan unlocks are not. */
  Billable: boolean;
  /** The payment provider's product id, stable so that a re-run finds it again. */
  StripeId: string;
  /** The plans' audience it is sold to; null for every audience. */
  Classification: PlanClassification | null;
  /** Per unit and month, integer cents; only for Billable products. */
  MonthlyPriceCents: number | null;
};

export type CataloguePlan = {
  Identifier: string;
  Name: string;
  Classification: PlanClassification;
  /** At most one default per classification: what a new tenant of that classification gets. */
  Default: boolean;
  Active: boolean;
  /** Trial length in days (StartedAt = creation + TrialPeriod). */
  TrialPeriod: number;
  Products: PlanProduct[];
  /** The plan's own monthly price in integer cents (0 for free plans). */
  MonthlyPriceCents: number;
};

const stripeIdOf = (identifier: string) => `lw_${identifier.replace(/[^a-z0-9]+/g, '_')}`;

const product = (
  Identifier: string,
  Name: string,
  options: { billable?: number; classification?: PlanClassification } = {},
): CatalogueProduct => ({
  Identifier,
  Name,
  Module: Identifier.slice(0, Identifier.lastIndexOf('/')),
  Billable: options.billable !== undefined,
  StripeId: stripeIdOf(Identifier),
  Classification: options.classification ?? null,
  MonthlyPriceCents: options.billable ?? null,
});

/** The quickstart pack identifier prefix of portal.md section 3. */
export const quickstartPack = 'plans/business/client_nurturing/packaged';

export const catalogueProducts: readonly CatalogueProduct[] = [
  // Plan-gated connections (portal.md section 6; gateway/use-cases/platforms/plan-features.ts).
  product('platforms/qbd_web_connector', 'QuickBooks Desktop Web Connector'),
  product('platforms/sage', 'Sage Intacct'),
  product('integrations/hubspot', 'HubSpot'),
  product('integrations/hubspot_revops', 'HubSpot RevOps Pro'),
  product('integrations/salesforce', 'Salesforce'),
  product('integrations/active_campaign', 'ActiveCampaign'),
  // Plan-gated report features (portal.md section 6).
  product('cloud/sync', 'Google and Microsoft sync-to-cloud'),
  product('reports/customer_sheet', 'Customer sheet'),
  product('reports/product_sheet', 'Product sheet'),
  product('reports/prioritized_invoices', 'Prioritized invoices'),
  // A billable module: packs of client reports an advisory firm buys for its Quickstart clients.
  product(quickstartPack, 'Quickstart client pack', { billable: 4_900, classification: 'CLIENT' }),
];

const feature = (Identifier: string): PlanProduct => ({
  Identifier,
  MeteredUsage: false,
  LicensedQuantity: null,
});

const sheets = ['reports/customer_sheet', 'reports/product_sheet', 'reports/prioritized_invoices'].map(
  feature,
);
const connectors = [
  'platforms/qbd_web_connector',
  'platforms/sage',
  'integrations/hubspot',
  'integrations/salesforce',
  'integrations/active_campaign',
].map(feature);
const everything = [...sheets, feature('cloud/sync'), ...connectors, feature('integrations/hubspot_revops')];

const plan = (
  [Identifier, Name, Classification]: [string, string, PlanClassification],
  options: { trial?: number; isDefault?: boolean; price: number; products: PlanProduct[] },
): CataloguePlan => ({
  Identifier,
  Name,
  Classification,
  Default: options.isDefault ?? false,
  Active: true,
  TrialPeriod: options.trial ?? 0,
  Products: options.products,
  MonthlyPriceCents: options.price,
});

export const cataloguePlans: readonly CataloguePlan[] = [
  // Businesses that subscribe themselves.
  plan(['growth_business', 'Growth', 'BUSINESS'], {
    trial: 14,
    isDefault: true,
    price: 29_900,
    products: everything,
  }),
  plan(['free_business', 'Free', 'BUSINESS'], { price: 0, products: [] }),
  plan(['free', 'Free', 'BUSINESS'], { price: 0, products: [] }),
  plan(['lite', 'Lite', 'BUSINESS'], { trial: 14, price: 4_900, products: sheets }),
  plan(['plus', 'Plus', 'BUSINESS'], {
    trial: 14,
    price: 14_900,
    products: [
      ...sheets,
      feature('cloud/sync'),
      feature('platforms/qbd_web_connector'),
      feature('platforms/sage'),
    ],
  }),
  plan(['max', 'Max', 'BUSINESS'], { trial: 14, price: 29_900, products: everything }),
  // Advisory firms' own subscription.
  plan(['advisor', 'Advisor', 'FIRM'], {
    isDefault: true,
    price: 0,
    products: [{ Identifier: quickstartPack, MeteredUsage: true, LicensedQuantity: 5 }],
  }),
  // What an advisory firm's clients subscribe to (the firm pays).
  plan(['free_client', 'Quickstart', 'CLIENT'], { isDefault: true, price: 0, products: [] }),
  plan(['basic_client', 'Lite', 'CLIENT'], { price: 2_900, products: sheets }),
  plan(['growth_client', 'Plus', 'CLIENT'], {
    price: 7_900,
    products: [
      ...sheets,
      feature('cloud/sync'),
      feature('platforms/qbd_web_connector'),
      feature('platforms/sage'),
    ],
  }),
  plan(['expansion_client', 'Max', 'CLIENT'], { price: 14_900, products: everything }),
];

/** The plan a new tenant gets when no plan identifier came with it (portal.md section 9). */
export const defaultPlanIdentifier = (
  classification: 'BUSINESS' | 'FIRM',
  advisorsClient: boolean,
): string => (advisorsClient ? 'free_client' : classification === 'FIRM' ? 'advisor' : 'growth_business');

export const planStripeId = (identifier: string) => stripeIdOf(`plan/${identifier}`);
