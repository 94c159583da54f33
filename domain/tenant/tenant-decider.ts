import type { TenantEvent } from '../../contracts/events/tenant';
import type { Decider } from '../decider';
import { decideTenant, type TenantCommand } from './decide';
import { evolveTenant, initialTenantState, type TenantState } from './tenant';

/** Stream `tenant-<TenantId>`. */
export const tenantDecider: Decider<TenantState, TenantCommand, TenantEvent> = {
  decide: decideTenant,
  evolve: evolveTenant,
  initialState: initialTenantState,
};
