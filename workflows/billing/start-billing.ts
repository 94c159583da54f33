import type { Logger } from 'pino';
import type { Config } from '../../contracts/config';
import type { ReactorDeps } from '../checkpointed-reactor';
import { applyPlanCatalogue } from './plan-catalogue';
import { createStripeClient } from './stripe-client';
import { syncStripeCatalogue } from './stripe-catalogue';
import { startTenantBillingReactor } from './tenant-billing-reactor';

/**
 * The worker's billing duties at start-up (docs/adr/0039-billing.md): apply the plan catalogue (plans
 * exist before any subscription refers to them), mirror it into the payment provider in the
 * background (an unreachable provider is logged, not fatal), and follow tenants with the
 * subscription reactor.
 */
export const startBilling = async (
  deps: ReactorDeps & { config: Config; logger: Logger },
): Promise<{ stop: () => Promise<void> }> => {
  const applied = await applyPlanCatalogue(deps.writeSide, { now: new Date() });
  deps.logger.info(
    { plans: applied.length, appended: applied.reduce((sum, row) => sum + row.appended, 0) },
    'plan catalogue applied',
  );
  const mirrored = syncStripeCatalogue(createStripeClient(deps.config))
    .then((rows) =>
      deps.logger.info({ items: rows.length }, 'plan catalogue mirrored to the payment provider'),
    )
    .catch((error: unknown) =>
      deps.logger.warn({ err: error }, 'the plan catalogue could not be mirrored to the payment provider'),
    );
  const reactor = startTenantBillingReactor({
    ...deps,
    logger: deps.logger.child({ reactor: 'tenant-billing' }),
  });
  return {
    stop: async () => {
      await reactor.stop();
      await mirrored;
    },
  };
};
