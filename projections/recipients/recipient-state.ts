import type { RecipientState } from '../../contracts/events/recipient';
import { isActiveState } from '../../domain/recipient/recipient';

export type RecipientStateAction = 'deactivate' | 'activate';

/**
 * admin.md and portal.md section 4: ACTIVE and ADMIN can be deactivated, INACTIVE and DEACTIVATED
 * activated (by a platform admin); the latter two are shown as danger.
 */
export const recipientStateAction = (state: RecipientState): RecipientStateAction =>
  isActiveState(state) ? 'deactivate' : 'activate';

export const isDangerState = (state: RecipientState): boolean => !isActiveState(state);
