import { handleCommand } from '../../commands/command-handler';
import { runWithRequestContext, systemActorId } from '../../commands/request-context';
import { billingStream } from '../../contracts/stream-ids';
import { billingDecider } from '../../domain/billing/billing-decider';
import { billingSubscriptionsCollection } from '../../projections/billing/query-billing-subscriptions';
import type { BillingDeps } from './tenant-subscription';

/**
 * Carries out cancellations and downgrades whose period has ended (portal.md section 2.3: they take
 * effect at the end of the billing period). Found through the billing read model, decided on the
 * stream: a command id per subscription and date, so two sweeps, or a repeated one, apply it once.
 */
export const applyDueCancellations = async (deps: BillingDeps, now: Date): Promise<number> =>
  runWithRequestContext({ actor: systemActorId('billing-schedule') }, async () => {
    const due = await (
      await billingSubscriptionsCollection(deps.db)
    )
      .find({
        cancellationEffectiveAt: { $lte: now },
        $or: [
          { cancellationIntent: 'downgrade' },
          { cancellationIntent: 'cancel', paymentStatus: { $ne: 'canceled' } },
        ],
      })
      .toArray();
    let applied = 0;
    for (const doc of due) {
      const result = await handleCommand(
        billingDecider,
        {
          streamId: billingStream(doc._id),
          commandId: `billing-schedule:${doc._id}:${doc.cancellationEffectiveAt?.toISOString() ?? ''}`,
          command: { type: 'ApplyScheduledCancellation', data: {}, now },
        },
        deps.writeSide,
      );
      applied += result.events.length > 0 ? 1 : 0;
    }
    return applied;
  });
