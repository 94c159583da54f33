import { z } from 'zod';
import { runWithRequestContext, systemActorId } from '../../commands/request-context';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { startCheckpointedReactor, type ReactorDeps } from '../checkpointed-reactor';
import { followTenantPlan } from './tenant-subscription';

const process = 'tenant-billing';

// Only the plain fields are read: names in these events may be encrypted personal data.
const PlanChanged = z.object({ TenantId: z.number(), PlanIdentifier: z.string() });

/**
 * Keeps a tenant's billing subscription on the tenant's plan (docs/adr/0039-billing.md): a plan change
 * (Change Plan, bulk edit, admin tenant edit) moves the subscription, so plan gating follows. Creation
 * is not followed here: the creation route starts the subscription, knowing which firm added the
 * client, and `ledgerwise billing backfill` covers companies from before.
 */
export const handleTenantBillingEvent = async (deps: ReactorDeps, event: RecordedEvent): Promise<void> => {
  const now = new Date();
  if (event.type === 'TenantPlanChanged') {
    const { TenantId, PlanIdentifier } = PlanChanged.parse(event.data);
    const outcome = await runWithRequestContext({ actor: systemActorId(process), tenantId: TenantId }, () =>
      followTenantPlan(deps, {
        tenantId: TenantId,
        planIdentifier: PlanIdentifier,
        now,
        // The event's own id: a redelivery after a crash repeats the command, which appends nothing.
        commandId: `${process}:${event.id}`,
      }),
    );
    deps.logger.info({ tenantId: TenantId, plan: PlanIdentifier, outcome }, 'subscription follows the plan');
  }
};

export const startTenantBillingReactor = (deps: ReactorDeps) =>
  startCheckpointedReactor(deps, {
    name: process,
    eventTypes: ['TenantPlanChanged'],
    handle: (event) => handleTenantBillingEvent(deps, event),
  });
