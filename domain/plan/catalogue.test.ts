import { PlanCreated } from '../../contracts/events/plan';
import { catalogueProducts, cataloguePlans, defaultPlanIdentifier, quickstartPack } from './catalogue';

const productIds = new Set(catalogueProducts.map((product) => product.Identifier));

describe('the plan catalogue', () => {
  it('names the spec’s plans with their names and one default per classification', () => {
    const byId = new Map(cataloguePlans.map((plan) => [plan.Identifier, plan]));
    expect(
      ['free_business', 'free_client', 'basic_client', 'growth_client', 'expansion_client'].map(
        (identifier) => byId.get(identifier)?.Name,
      ),
    ).toEqual(['Free', 'Quickstart', 'Lite', 'Plus', 'Max']);
    for (const classification of ['BUSINESS', 'FIRM', 'CLIENT'] as const)
      expect(cataloguePlans.filter((p) => p.Classification === classification && p.Default)).toHaveLength(1);
    expect(byId.get(defaultPlanIdentifier('BUSINESS', false))?.Default).toBe(true);
    expect(byId.get(defaultPlanIdentifier('FIRM', false))?.Classification).toBe('FIRM');
    expect(defaultPlanIdentifier('BUSINESS', true)).toBe('free_client');
  });

  it('has plans that the plan events accept and products that exist, unique identifiers throughout', () => {
    expect(new Set(cataloguePlans.map((p) => p.Identifier)).size).toBe(cataloguePlans.length);
    expect(productIds.size).toBe(catalogueProducts.length);
    for (const plan of cataloguePlans) {
      const event = {
        type: 'PlanCreated',
        data: { PlanId: 1, ...plan, CreatedAt: '2026-01-01T00:00:00.000Z' },
      };
      expect(PlanCreated.safeParse(event).success).toBe(true);
      for (const product of plan.Products) expect(productIds).toContain(product.Identifier);
    }
  });

  it('covers every plan-gated connector, which the growth plan includes', () => {
    // As gateway/use-cases/platforms/plan-features.ts names them (docs/adr/0016-credential-vault.md).
    const gated = [
      'platforms/qbd_web_connector',
      'platforms/sage',
      'integrations/hubspot',
      'integrations/hubspot_revops',
      'integrations/salesforce',
      'integrations/active_campaign',
    ];
    const growth = cataloguePlans.find((plan) => plan.Identifier === 'growth_business');
    for (const feature of gated) {
      expect(productIds).toContain(feature);
      expect(growth?.Products.map((p) => p.Identifier)).toContain(feature);
    }
    expect(cataloguePlans.find((plan) => plan.Identifier === 'free_business')?.Products).toEqual([]);
  });

  it('prices billable products and paid plans in whole cents, and gives stable provider ids', () => {
    for (const product of catalogueProducts) {
      expect(product.StripeId).toMatch(/^lw_[a-z0-9_]+$/);
      expect(product.Billable).toBe(product.MonthlyPriceCents !== null);
      expect(product.Module).toBe(product.Identifier.slice(0, product.Identifier.lastIndexOf('/')));
    }
    expect(catalogueProducts.find((p) => p.Identifier === quickstartPack)?.Billable).toBe(true);
    for (const plan of cataloguePlans) expect(Number.isInteger(plan.MonthlyPriceCents)).toBe(true);
  });
});
