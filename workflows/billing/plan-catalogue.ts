import { createHash } from 'node:crypto';
import { handleCommand, type CommandHandlerDeps } from '../../commands/command-handler';
import { allocateId } from '../../commands/id-allocator';
import { runWithRequestContext, systemActorId } from '../../commands/request-context';
import { loadStreamState } from '../../commands/stream-state';
import { planStream } from '../../contracts/stream-ids';
import { systemActor } from '../../domain/actor';
import { cataloguePlans, type CataloguePlan } from '../../domain/plan/catalogue';
import type { PlanCommand } from '../../domain/plan/decide';
import { planDecider } from '../../domain/plan/plan-decider';

/** The key under which a catalogue plan's id is claimed: how its id is found again by identifier. */
export const catalogueClaimKey = (identifier: string) => `catalogue:plan:${identifier}`;

export type CatalogueResult = { identifier: string; planId: number; appended: number }[];

/** A short digest of what a plan entry asks for: the command id of an update, so an unchanged catalogue repeats it. */
const digestOf = (entry: CataloguePlan) =>
  createHash('sha256')
    .update(JSON.stringify([entry.Name, entry.TrialPeriod, entry.Products, entry.Default, entry.Active]))
    .digest('hex')
    .slice(0, 16);

/**
 * Creates or updates every plan of the catalogue (domain/plan/catalogue.ts) through the plan decider.
 * Idempotent: a plan's id is claimed under a key made of its identifier, and command ids are fixed per
 * catalogue content, so a second run, or two processes starting together, append nothing new.
 * Defaults are cleared before they are set, so no classification ever has two default plans.
 */
export const applyPlanCatalogue = async (
  writeSide: CommandHandlerDeps,
  options: { now: Date; plans?: readonly CataloguePlan[] },
): Promise<CatalogueResult> =>
  runWithRequestContext({ actor: systemActorId('plan-catalogue') }, async () => {
    const { now } = options;
    const plans = options.plans ?? cataloguePlans;
    const run = (planId: number, commandId: string, command: PlanCommand) =>
      handleCommand(planDecider, { streamId: planStream(planId), commandId, command }, writeSide);
    const ids = new Map<string, number>();
    for (const entry of plans)
      ids.set(
        entry.Identifier,
        await allocateId(writeSide.store, {
          category: 'plan',
          commandId: catalogueClaimKey(entry.Identifier),
          now,
        }),
      );
    // A repeated command id answers with the events its first delivery appended, so what a run
    // appended is read from the streams' revisions, not from the answers.
    const before = new Map<string, number>();

    // First pass: create missing plans (never as default) and clear defaults that move elsewhere.
    for (const entry of plans) {
      const planId = ids.get(entry.Identifier)!;
      const digest = digestOf(entry);
      const { state, revision } = await loadStreamState(writeSide, planDecider, planStream(planId));
      before.set(entry.Identifier, revision);
      if (state.status === 'none') {
        await run(planId, `catalogue:${entry.Identifier}:create`, {
          type: 'CreatePlan',
          data: {
            planId,
            identifier: entry.Identifier,
            name: entry.Name,
            classification: entry.Classification,
            isDefault: false,
            active: true,
            trialPeriod: entry.TrialPeriod,
            products: entry.Products,
            identifierTaken: false,
          },
          now,
          actor: systemActor,
        });
      } else if (state.isDefault && !entry.Default) {
        await run(planId, `catalogue:${entry.Identifier}:undefault:${digest}`, {
          type: 'UpdatePlan',
          data: { isDefault: false },
          now,
          actor: systemActor,
        });
      }
    }
    // Second pass: activation, then the fields (and the default flag) as the catalogue says.
    for (const entry of plans) {
      const planId = ids.get(entry.Identifier)!;
      const digest = digestOf(entry);
      if (entry.Active) {
        await run(planId, `catalogue:${entry.Identifier}:activate:${digest}`, {
          type: 'ActivatePlan',
          data: {},
          now,
          actor: systemActor,
        });
      }
      await run(planId, `catalogue:${entry.Identifier}:update:${digest}`, {
        type: 'UpdatePlan',
        data: {
          name: entry.Name,
          trialPeriod: entry.TrialPeriod,
          products: entry.Products,
          isDefault: entry.Default,
        },
        now,
        actor: systemActor,
      });
      if (!entry.Active) {
        await run(planId, `catalogue:${entry.Identifier}:deactivate:${digest}`, {
          type: 'DeactivatePlan',
          data: {},
          now,
          actor: systemActor,
        });
      }
    }
    const result: CatalogueResult = [];
    for (const entry of plans) {
      const planId = ids.get(entry.Identifier)!;
      const { revision } = await loadStreamState(writeSide, planDecider, planStream(planId));
      result.push({
        identifier: entry.Identifier,
        planId,
        appended: revision - before.get(entry.Identifier)!,
      });
    }
    return result;
  });
