import type { IntegrationEvent } from '../../contracts/events/integration';
import type { Decider } from '../decider';
import { decideIntegration, type IntegrationCommand } from './decide';
import { evolveIntegration, initialIntegrationState, type IntegrationState } from './integration';

export const integrationDecider: Decider<IntegrationState, IntegrationCommand, IntegrationEvent> = {
  decide: decideIntegration,
  evolve: evolveIntegration,
  initialState: initialIntegrationState,
};
