import { cataloguePlans, catalogueProducts } from '../../domain/plan/catalogue';
import { listPlans } from '../../projections/plans/query-plans';
import { applyPlanCatalogue } from '../../workflows/billing/plan-catalogue';
import { createStripeClient } from '../../workflows/billing/stripe-client';
import { syncStripeCatalogue } from '../../workflows/billing/stripe-catalogue';
import { useGatewayWorld } from '../gateway/gateway-world';

const world = useGatewayWorld(__filename);

describe('the plan catalogue', () => {
  it('creates every plan once, with one default per classification, and a re-run appends nothing', async () => {
    const now = world.clock.now();
    const first = await applyPlanCatalogue(world.services.writeSide, { now });
    expect(first.every((row) => row.appended > 0)).toBe(true);
    const second = await applyPlanCatalogue(world.services.writeSide, { now });
    expect(second.map((row) => row.appended)).toEqual(cataloguePlans.map(() => 0));
    expect(second.map((row) => row.planId)).toEqual(first.map((row) => row.planId));

    await world.settle();
    const { plans } = await listPlans(world.services.db, { include: ['Subscriptions'] });
    expect(plans.map((plan) => plan.Identifier).sort()).toEqual(
      cataloguePlans.map((plan) => plan.Identifier).sort(),
    );
    const defaults = plans
      .filter((plan) => plan.Default)
      .map((plan) => `${plan.Classification}:${plan.Identifier}`);
    expect(defaults.sort()).toEqual(['BUSINESS:growth_business', 'CLIENT:free_client', 'FIRM:advisor']);
    const growth = plans.find((plan) => plan.Identifier === 'growth_business');
    expect(growth).toMatchObject({ Name: 'Growth', TrialPeriod: 14, Active: true, Subscriptions: 0 });
    expect(growth?.Products.map((product) => product.Identifier)).toContain('platforms/sage');
    expect(plans.find((plan) => plan.Identifier === 'free_client')?.Name).toBe('Quickstart');
  });

  it('applies a changed catalogue as the changes alone, moving the default without two at once', async () => {
    const now = world.clock.now();
    await applyPlanCatalogue(world.services.writeSide, { now });
    const changed = cataloguePlans.map((plan) =>
      plan.Identifier === 'growth_business'
        ? { ...plan, Name: 'Growth 2026', TrialPeriod: 30, Default: false }
        : plan.Identifier === 'max'
          ? { ...plan, Default: true }
          : plan,
    );
    const result = await applyPlanCatalogue(world.services.writeSide, { now, plans: changed });
    const appended = Object.fromEntries(
      result.filter((row) => row.appended > 0).map((row) => [row.identifier, row.appended]),
    );
    // Growth: default cleared, renamed, trial changed; Max: made the default.
    expect(appended).toEqual({ growth_business: 3, max: 1 });
    await world.settle();
    const { plans } = await listPlans(world.services.db);
    expect(
      plans.filter((plan) => plan.Classification === 'BUSINESS' && plan.Default).map((p) => p.Identifier),
    ).toEqual(['max']);
    expect(plans.find((plan) => plan.Identifier === 'growth_business')).toMatchObject({
      Name: 'Growth 2026',
      TrialPeriod: 30,
    });
    // Back to the catalogue as shipped, for the other tests of this file.
    await applyPlanCatalogue(world.services.writeSide, { now });
  });
});

describe('the catalogue in the payment provider (stripe-mock)', () => {
  it('writes every product and monthly price under idempotency keys that a second run repeats', async () => {
    const stripe = createStripeClient(world.config);
    const keys: string[][] = [[], []];
    let run = 0;
    const onRequest = (event: { method: string; idempotency_key?: string }) => {
      if (event.method === 'POST') keys[run]!.push(event.idempotency_key ?? 'none');
    };
    (stripe as unknown as { on: (name: string, handler: typeof onRequest) => void }).on('request', onRequest);

    const first = await syncStripeCatalogue(stripe);
    run = 1;
    await syncStripeCatalogue(stripe);

    expect(first.map((row) => row.stripeId)).toEqual([
      ...catalogueProducts.map((product) => product.StripeId),
      ...cataloguePlans.map((plan) => `lw_plan_${plan.Identifier}`),
    ]);
    // Every write carried an idempotency key of ours, and the second run sent the very same ones.
    expect(keys[0]!.length).toBeGreaterThan(0);
    expect(keys[0]!.every((key) => key.startsWith('ledgerwise:'))).toBe(true);
    expect(keys[1]).toEqual(keys[0]);
    // Billable products and paid plans have a monthly price; features that plans unlock have none.
    const priced = first.filter((row) => row.price !== 'none').map((row) => row.identifier);
    expect(priced).toContain('plans/business/client_nurturing/packaged');
    expect(priced).toContain('plan/growth_business');
    expect(priced).not.toContain('platforms/sage');
    expect(priced).not.toContain('plan/free_client');
    expect(
      first.filter((row) => row.price !== 'none').every((row) => /^price_/.test(row.priceId ?? '')),
    ).toBe(true);
  });
});
