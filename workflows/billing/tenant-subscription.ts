import type { Db } from 'mongodb';
import { handleCommand, type CommandHandlerDeps } from '../../commands/command-handler';
import { allocateId } from '../../commands/id-allocator';
import { loadStreamState } from '../../commands/stream-state';
import type { BillingPlan } from '../../contracts/events/billing';
import { billingStream, tenantStream } from '../../contracts/stream-ids';
import { systemActor } from '../../domain/actor';
import { billingDecider } from '../../domain/billing/billing-decider';
import { defaultPlanIdentifier } from '../../domain/plan/catalogue';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { latestSubscriptionsByTenant } from '../../projections/billing/query-billing-subscriptions';
import { getPartner } from '../../projections/partners/query-partners';
import { getPlanByIdentifier, type PlanView } from '../../projections/plans/query-plans';
import { claimStreamOf } from '../../commands/id-allocator';
import { IdClaimed } from '../../contracts/events/id-allocation';
import { planStream } from '../../contracts/stream-ids';
import { planDecider } from '../../domain/plan/plan-decider';
import { catalogueClaimKey } from './plan-catalogue';

export type BillingDeps = { writeSide: CommandHandlerDeps; db: Db };

export type EnsureSubscriptionResult =
  | { outcome: 'started'; subscriptionId: number; plan: BillingPlan; startedAt: string; position: number }
  | { outcome: 'skipped'; reason: 'no_tenant' | 'demo' | 'exists' | 'no_plan'; subscriptionId?: number };

/** The claim key of a tenant's own subscription id: the same id however often it is asked for. */
const claimKeyOf = (tenantId: number) => `billing:tenant-subscription:${tenantId}`;

type PlanFacts = Pick<PlanView, 'Id' | 'Name' | 'Identifier' | 'Classification' | 'TrialPeriod' | 'Active'>;

/**
 * A plan by identifier from the write side when the catalogue created it (its id is claimed under
 * the identifier), so a backfill run without a projector still finds it; else from the plans read model.
 */
export const planByIdentifier = async (deps: BillingDeps, identifier: string): Promise<PlanFacts | null> => {
  const [claim] = await deps.writeSide.store.readStream(
    claimStreamOf('plan', catalogueClaimKey(identifier)),
    { maxCount: 1 },
  );
  if (claim) {
    const planId = IdClaimed.shape.data.parse(claim.data).id;
    const { state } = await loadStreamState(deps.writeSide, planDecider, planStream(planId));
    if (state.status === 'created')
      return {
        Id: state.planId,
        Name: state.name,
        Identifier: state.identifier,
        Classification: state.classification,
        TrialPeriod: state.trialPeriod,
        Active: state.active,
      };
  }
  return getPlanByIdentifier(deps.db, { identifier });
};

/** The plan a tenant's subscription starts on: its own plan identifier if it names an active plan, else its classification's default. */
const planFor = async (
  deps: BillingDeps,
  tenant: { planIdentifier: string | null; classification: 'BUSINESS' | 'FIRM' },
): Promise<PlanFacts | null> => {
  const named = tenant.planIdentifier ? await planByIdentifier(deps, tenant.planIdentifier) : null;
  if (named?.Active) return named;
  const fallback = await planByIdentifier(deps, defaultPlanIdentifier(tenant.classification, false));
  return fallback?.Active ? fallback : null;
};

/**
 * Starts the tenant's billing subscription unless it has one (portal.md section 9): on the plan of the
 * sign-up link or the advisor's client plan when the tenant names one, else its classification's default
 * (growth_business for a business, advisor for a firm), with the plan's trial (StartedAt in the future).
 * An advisory firm pays for its client's CLIENT plan; everyone else pays for itself. Demo tenants have
 * no subscription (billing is disabled there). Idempotent: the subscription id is claimed per tenant and
 * the start command id is fixed, so the creation route, the reactor and the backfill may all ask.
 */
export const ensureTenantSubscription = async (
  deps: BillingDeps,
  input: {
    tenantId: number;
    now: Date;
    /** The advisory firm that added this client (the creation route knows it); else found through the partner. */
    advisorFirmId?: number | null;
  },
): Promise<EnsureSubscriptionResult> => {
  const { writeSide, db } = deps;
  const { tenantId, now } = input;
  const { state: tenant } = await loadStreamState(writeSide, tenantDecider, tenantStream(tenantId));
  if (tenant.status === 'none' || tenant.status === 'purged')
    return { outcome: 'skipped', reason: 'no_tenant' };
  if (tenant.usageType === 'DEMO') return { outcome: 'skipped', reason: 'demo' };
  const existing = (await latestSubscriptionsByTenant(db, [tenantId])).get(tenantId);
  if (existing) return { outcome: 'skipped', reason: 'exists', subscriptionId: existing._id };

  const plan = await planFor(deps, tenant);
  if (!plan) return { outcome: 'skipped', reason: 'no_plan' };
  const partner =
    plan.Classification === 'CLIENT' && tenant.partnerId !== null
      ? await getPartner(db, { partnerId: tenant.partnerId })
      : null;
  const billingTenantId =
    plan.Classification === 'CLIENT' ? (input.advisorFirmId ?? partner?.TenantId ?? tenantId) : tenantId;

  const subscriptionId = await allocateId(writeSide.store, {
    category: 'billing',
    commandId: claimKeyOf(tenantId),
    now,
  });
  const streamId = billingStream(subscriptionId);
  const { state } = await loadStreamState(writeSide, billingDecider, streamId);
  if (state.status === 'known') return { outcome: 'skipped', reason: 'exists', subscriptionId };
  const billingPlan: BillingPlan = { id: plan.Id, name: plan.Name, identifier: plan.Identifier };
  const result = await handleCommand(
    billingDecider,
    {
      streamId,
      commandId: `${claimKeyOf(tenantId)}:start`,
      command: {
        type: 'StartBillingSubscription',
        data: {
          subscriptionId,
          tenantId,
          billingTenantId,
          plan: billingPlan,
          trialDays: plan.TrialPeriod,
          paymentMethod: null,
        },
        now,
      },
    },
    writeSide,
  );
  const started = result.events[0];
  return {
    outcome: 'started',
    subscriptionId,
    plan: billingPlan,
    startedAt: started?.type === 'BillingSubscriptionStarted' ? started.data.startedAt : now.toISOString(),
    position: result.position,
  };
};

/**
 * The tenant's plan changed (Change Plan on the clients page, the bulk edit, the admin's tenant edit):
 * its subscription follows, so plan gating, which reads the subscription, opens what the new plan has.
 * A tenant without a subscription gets one, on the new plan.
 */
export const followTenantPlan = async (
  deps: BillingDeps,
  input: { tenantId: number; planIdentifier: string; now: Date; commandId: string },
): Promise<'changed' | 'unchanged' | 'started' | 'skipped'> => {
  const { writeSide } = deps;
  // The write side decides, not the read model, which may not have the subscription or the last plan
  // change yet: a change read as "unchanged" there would be dropped for good.
  const ensured = await ensureTenantSubscription(deps, input);
  if (ensured.outcome === 'started') return 'started';
  if (ensured.subscriptionId === undefined) return 'skipped';
  const plan = await planByIdentifier(deps, input.planIdentifier);
  if (!plan) return 'skipped';
  const { state: tenant } = await loadStreamState(writeSide, tenantDecider, tenantStream(input.tenantId));
  const result = await handleCommand(
    billingDecider,
    {
      streamId: billingStream(ensured.subscriptionId),
      commandId: input.commandId,
      command: {
        type: 'UpdateBillingSubscription',
        data: {
          tenantId: input.tenantId,
          actor: systemActor,
          tenantIsDemo: tenant.status !== 'none' && tenant.usageType === 'DEMO',
          plan: { id: plan.Id, name: plan.Name, identifier: plan.Identifier },
        },
        now: input.now,
      },
    },
    writeSide,
  );
  return result.events.length > 0 ? 'changed' : 'unchanged';
};
