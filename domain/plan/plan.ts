import { match } from 'ts-pattern';
import type { PlanClassification, PlanEvent, PlanProduct } from '../../contracts/events/plan';

export type Plan = {
  status: 'created';
  planId: number;
  identifier: string;
  name: string;
  classification: PlanClassification;
  isDefault: boolean;
  active: boolean;
  trialPeriod: number;
  products: readonly PlanProduct[];
};

export type PlanState = { status: 'none' } | Plan;

export const initialPlanState = (): PlanState => ({ status: 'none' });

const whenExisting = (state: PlanState, change: (plan: Plan) => Plan): PlanState =>
  state.status === 'none' ? state : change(state);

export const evolvePlan = (state: PlanState, event: PlanEvent): PlanState =>
  match(event)
    .with({ type: 'PlanCreated' }, ({ data }): PlanState => ({
      status: 'created',
      planId: data.PlanId,
      identifier: data.Identifier,
      name: data.Name,
      classification: data.Classification,
      isDefault: data.Default,
      active: data.Active,
      trialPeriod: data.TrialPeriod,
      products: data.Products,
    }))
    .with({ type: 'PlanRenamed' }, ({ data }) => whenExisting(state, (p) => ({ ...p, name: data.Name })))
    .with({ type: 'PlanTrialPeriodChanged' }, ({ data }) =>
      whenExisting(state, (p) => ({ ...p, trialPeriod: data.TrialPeriod })),
    )
    .with({ type: 'PlanProductsChanged' }, ({ data }) =>
      whenExisting(state, (p) => ({ ...p, products: data.Products })),
    )
    .with({ type: 'PlanDefaultChanged' }, ({ data }) =>
      whenExisting(state, (p) => ({ ...p, isDefault: data.Default })),
    )
    .with({ type: 'PlanActivated' }, () => whenExisting(state, (p) => ({ ...p, active: true })))
    .with({ type: 'PlanDeactivated' }, () => whenExisting(state, (p) => ({ ...p, active: false })))
    .exhaustive();
