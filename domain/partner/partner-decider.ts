import type { PartnerEvent } from '../../contracts/events/partner';
import type { Decider } from '../decider';
import { decidePartner, type PartnerCommand } from './decide';
import { evolvePartner, initialPartnerState, type PartnerState } from './partner';

/** Stream `partner-<PartnerId>`. */
export const partnerDecider: Decider<PartnerState, PartnerCommand, PartnerEvent> = {
  decide: decidePartner,
  evolve: evolvePartner,
  initialState: initialPartnerState,
};
