import type { Logger } from 'pino';
import type { Config } from '../../contracts/config';
import type { ReactorDeps } from '../checkpointed-reactor';
import { applyPlanCatalogue } from './plan-catalogue';
import { applyDueCancellations } from './scheduled-changes';
import { createStripeClient } from './stripe-client';
import { syncStripeCatalogue } from './stripe-catalogue';
import { startTenantBillingReactor } from './tenant-billing-reactor';

/**
 * The worker's billing duties (docs/adr/0039-billing.md): apply the plan catalogue at start-up (plans
 * exist before any subscription refers to them), mirror it into the payment provider in the
 * background (an unreachable provider is logged, not fatal), follow tenants' plan changes with the
 * reactor, and carry out cancellations and downgrades whose date has come.
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
  // Scheduled cancellations and downgrades take effect at their date; checked hourly and at start.
  const sweep = () =>
    applyDueCancellations(deps, new Date()).catch((error: unknown) =>
      deps.logger.warn({ err: error }, 'scheduled cancellations could not be applied; trying again later'),
    );
  void sweep();
  const hourly = setInterval(() => void sweep(), 60 * 60 * 1000);
  hourly.unref();
  const reactor = startTenantBillingReactor({
    ...deps,
    logger: deps.logger.child({ reactor: 'tenant-billing' }),
  });
  return {
    stop: async () => {
      clearInterval(hourly);
      await reactor.stop();
      await mirrored;
    },
  };
};
