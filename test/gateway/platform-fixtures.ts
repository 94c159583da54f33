import type { Actor } from '../../domain/actor';
import { billingDecider } from '../../domain/billing/billing-decider';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import type { World } from './gateway-world';
import { billingStream, sellerStream, tenantStream } from '../../contracts/stream-ids';

const operator: Actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };

let nextSubscriptionId = 700_000;

/** Puts the tenant on a plan whose subscription includes the given products (plan-gated platforms). */
export const grantProducts = async (world: World, tenantId: number, identifiers: readonly string[]) => {
  const subscriptionId = (nextSubscriptionId += 1);
  const now = world.clock.now();
  const streamId = billingStream(subscriptionId);
  await world.run(billingDecider, streamId, {
    type: 'StartBillingSubscription',
    data: {
      subscriptionId,
      tenantId,
      billingTenantId: tenantId,
      plan: { id: 1, name: 'Growth', identifier: 'growth_business' },
      trialDays: 0,
      paymentMethod: null,
    },
    now,
  });
  await world.run(billingDecider, streamId, {
    type: 'UpdateBillingSubscription',
    data: {
      tenantId,
      actor: operator,
      tenantIsDemo: false,
      products: identifiers.map((identifier) => ({ identifier, quantity: 1, active: true })),
    },
    now,
  });
  await world.settle();
};

/** Makes the tenant the demo tenant (UsageType DEMO), as only a platform admin can. */
export const makeDemo = async (world: World, tenantId: number) => {
  await world.run(tenantDecider, tenantStream(tenantId), {
    type: 'ChangeTenantUsageType',
    data: { usageType: 'DEMO' },
    now: world.clock.now(),
    actor: operator,
  });
  await world.settle();
};

/** A seller's first sync finished (what the sync workflow reports), so Sync and Repopulate apply. */
export const finishSync = async (world: World, sellerId: number, syncId: number) => {
  await world.run(sellerDecider, sellerStream(sellerId), {
    type: 'CompleteSellerSync',
    data: { syncId, collectionDate: world.clock.now() },
    now: world.clock.now(),
  });
  await world.settle();
};
