import type { Db, Filter } from 'mongodb';
import type { Plan } from '../../contracts/api/billing';
import type { PlanClassification } from '../../contracts/events/plan';
import { countSubscriptionsByPlan } from '../billing/query-billing-subscriptions';
import { currentCollection } from '../framework/read-model-versions';
import { waitUntilRead, type ReadAfter } from '../read-after';
import { PLANS, plansProjection, type PlanDoc } from './plans-projection';

/** A plan as the admin plans table and plan pickers show it (admin.md section 3): the API's Plan. */
export type PlanView = Plan;

export type PlanInclude = 'Subscriptions';

const plans = (db: Db) => currentCollection<'plans', PlanDoc>(db, plansProjection, 'plans');

const toViews = async (
  db: Db,
  docs: readonly PlanDoc[],
  include: readonly PlanInclude[] = [],
): Promise<PlanView[]> => {
  const counts = include.includes('Subscriptions')
    ? await countSubscriptionsByPlan(
        db,
        docs.map((doc) => doc._id),
      )
    : null;
  return docs.map((doc) => ({
    Id: doc._id,
    Identifier: doc.identifier,
    Name: doc.name,
    Classification: doc.classification,
    Default: doc.isDefault,
    Active: doc.active,
    TrialPeriod: doc.trialPeriod,
    Products: doc.products,
    ...(counts ? { Subscriptions: counts.get(doc._id) ?? 0 } : {}),
  }));
};

export type PlansQuery = {
  include?: readonly PlanInclude[];
  classification?: PlanClassification;
  active?: boolean;
  readAfter?: ReadAfter;
};

/** GET /api/billing/plans (include=Subscriptions): plans by id. */
export const listPlans = async (
  db: Db,
  query: PlansQuery = {},
): Promise<{ plans: PlanView[]; stale: boolean }> => {
  const stale = await waitUntilRead(db, PLANS, query.readAfter);
  const filter: Filter<PlanDoc> = {};
  if (query.classification !== undefined) filter.classification = query.classification;
  if (query.active !== undefined) filter.active = query.active;
  const docs = await (await plans(db)).find(filter).sort({ _id: 1 }).toArray();
  return { plans: await toViews(db, docs, query.include), stale };
};

/** One plan by its stable identifier (subscriptions, partners and the sign-up cookie name plans so). */
export const getPlanByIdentifier = async (
  db: Db,
  query: { identifier: string; include?: readonly PlanInclude[] },
): Promise<PlanView | null> => {
  const doc = await (await plans(db)).findOne({ identifier: query.identifier });
  return doc ? ((await toViews(db, [doc], query.include))[0] ?? null) : null;
};
