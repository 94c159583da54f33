import type { Logger } from 'pino';
import { openEventSource } from '../commands/open-event-source';
import { idStreamOf } from '../commands/id-allocator';
import { runWithRequestContext, systemActorId } from '../commands/request-context';
import type { Config } from '../contracts/config';
import { IdAllocated } from '../contracts/events/id-allocation';
import { openReadStore } from '../projections/read-store/open-read-store';
import { applyPlanCatalogue } from '../workflows/billing/plan-catalogue';
import { createStripeClient } from '../workflows/billing/stripe-client';
import { syncStripeCatalogue } from '../workflows/billing/stripe-catalogue';
import { ensureTenantSubscription, type BillingDeps } from '../workflows/billing/tenant-subscription';

export const billingUsage = `Usage: ledgerwise billing <catalogue|backfill>

  catalogue   create or update the plans of the catalogue, and mirror them into the payment provider
  backfill    apply the catalogue, then start a subscription for every company that has none (once;
              safe to repeat: a company that has one is left alone)
`;

/** Every tenant id ever handed out, from the id allocation stream (the write side, not a read model). */
const allTenantIds = async (deps: BillingDeps): Promise<number[]> => {
  const events = await deps.writeSide.store.readStream(idStreamOf('tenant'));
  return events.flatMap((event) => {
    const parsed = IdAllocated.safeParse({ type: event.type, data: event.data });
    return parsed.success ? [parsed.data.data.id] : [];
  });
};

export type BackfillSummary = { started: number; skipped: Record<string, number> };

/** Appends a BillingSubscriptionStarted for each company without a subscription (docs/adr/0039-billing.md). */
export const backfillSubscriptions = async (
  deps: BillingDeps,
  options: { now: Date; logger?: Logger },
): Promise<BackfillSummary> =>
  runWithRequestContext({ actor: systemActorId('billing-backfill') }, async () => {
    await applyPlanCatalogue(deps.writeSide, { now: options.now });
    const summary: BackfillSummary = { started: 0, skipped: {} };
    for (const tenantId of await allTenantIds(deps)) {
      const result = await ensureTenantSubscription(deps, { tenantId, now: options.now });
      if (result.outcome === 'started') {
        summary.started += 1;
        options.logger?.info({ tenantId, plan: result.plan.identifier }, 'subscription started');
      } else summary.skipped[result.reason] = (summary.skipped[result.reason] ?? 0) + 1;
    }
    return summary;
  });

export const runBillingCommand = async (args: string[], config: Config, logger: Logger): Promise<number> => {
  const [sub] = args;
  if (sub !== 'catalogue' && sub !== 'backfill') {
    process.stderr.write(billingUsage);
    return 2;
  }
  const source = await openEventSource(config);
  const readStore = await openReadStore(config);
  try {
    const deps: BillingDeps = { writeSide: source.writeSide, db: readStore.db };
    const now = new Date();
    if (sub === 'catalogue') {
      const plans = await runWithRequestContext({ actor: systemActorId('billing-catalogue') }, () =>
        applyPlanCatalogue(deps.writeSide, { now }),
      );
      const stripe = await syncStripeCatalogue(createStripeClient(config));
      process.stdout.write(
        `${plans.length} plans (${plans.reduce((sum, row) => sum + row.appended, 0)} events appended); ` +
          `${stripe.length} products mirrored to the payment provider\n`,
      );
      return 0;
    }
    const summary = await backfillSubscriptions(deps, { now, logger });
    process.stdout.write(
      `${summary.started} subscriptions started; skipped: ${JSON.stringify(summary.skipped)}\n`,
    );
    return 0;
  } finally {
    await source.close();
    await readStore.close();
  }
};
