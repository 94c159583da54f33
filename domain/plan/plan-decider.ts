import type { PlanEvent } from '../../contracts/events/plan';
import type { Decider } from '../decider';
import { decidePlan, type PlanCommand } from './decide';
import { evolvePlan, initialPlanState, type PlanState } from './plan';

/**
 * Stream `plan-<PlanId>`. That at most one plan per classification is the default spans streams: the
 * command layer clears the previous default (UpdatePlan isDefault false) when it sets a new one.
 */
export const planDecider: Decider<PlanState, PlanCommand, PlanEvent> = {
  decide: decidePlan,
  evolve: evolvePlan,
  initialState: initialPlanState,
};
