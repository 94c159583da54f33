import type { RecordedEvent } from '../../contracts/events/envelope';
import {
  PlanEvent,
  planEventVersions,
  type PlanClassification,
  type PlanProduct,
} from '../../contracts/events/plan';
import { defineProjection, type DocumentFields, type ReadModelWrite } from '../framework/projection';
import { parseEvent } from '../parse-event';

/** One document per plan; its Subscriptions are counted at query time from the billing read model. */
export type PlanDoc = {
  _id: number;
  position: number;
  planId: number;
  identifier: string;
  name: string;
  classification: PlanClassification;
  isDefault: boolean;
  active: boolean;
  /** Trial length in days. */
  trialPeriod: number;
  /** The whole list, as every change carries it. */
  products: PlanProduct[];
  createdAt: Date;
};

type Collections = 'plans';

const planTypes = new Set(Object.keys(planEventVersions));

const set = (id: number, fields: DocumentFields): ReadModelWrite<Collections>[] => [
  { kind: 'set', collection: 'plans', id, fields },
];

const planWrites = (event: PlanEvent): ReadModelWrite<Collections>[] => {
  switch (event.type) {
    case 'PlanCreated': {
      const { data } = event;
      return set(data.PlanId, {
        planId: data.PlanId,
        identifier: data.Identifier,
        name: data.Name,
        classification: data.Classification,
        isDefault: data.Default,
        active: data.Active,
        trialPeriod: data.TrialPeriod,
        products: data.Products,
        createdAt: new Date(data.CreatedAt),
      });
    }
    case 'PlanRenamed':
      return set(event.data.PlanId, { name: event.data.Name });
    case 'PlanTrialPeriodChanged':
      return set(event.data.PlanId, { trialPeriod: event.data.TrialPeriod });
    case 'PlanProductsChanged':
      return set(event.data.PlanId, { products: event.data.Products });
    case 'PlanDefaultChanged':
      return set(event.data.PlanId, { isDefault: event.data.Default });
    case 'PlanActivated':
      return set(event.data.PlanId, { active: true });
    case 'PlanDeactivated':
      return set(event.data.PlanId, { active: false });
  }
};

export const PLANS = 'plans';

/** Plans: the admin plans table, plan pickers and the sign-up plan lookup. Platform-level: no tenant. */
export const plansProjection = defineProjection<Collections>({
  name: PLANS,
  collections: { plans: 'plans' },
  indexes: { plans: [{ key: { identifier: 1 }, name: 'identifier' }] },
  filter: { eventTypes: [...planTypes] },
  project: (event: RecordedEvent) => {
    const plan = parseEvent(PlanEvent, planTypes, event);
    return plan ? planWrites(plan) : [];
  },
});
