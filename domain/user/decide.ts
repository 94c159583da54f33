import { match, P } from 'ts-pattern';
import type { UserEvent } from '../../contracts/events/user';
import { accountCommandTypes, decideAccount, type AccountCommand } from './decide-account';
import { decideMembership, membershipCommandTypes, type MembershipCommand } from './decide-membership';
import {
  decidePlatformField,
  platformFieldCommandTypes,
  type PlatformFieldCommand,
} from './decide-platform-fields';
import type { UserState } from './user';

/**
 * The user decider, split by concern: the account's own life (decide-account.ts), the fields only a
 * platform administrator edits (decide-platform-fields.ts) and tenant memberships
 * (decide-membership.ts); the checks and texts they share are in user-rules.ts.
 */

export type {
  ChangePassword,
  RecordLogin,
  RecoverPassword,
  RegisterUser,
  RequestPasswordRecovery,
  VerifyUserEmail,
} from './decide-account';
export { recoveryLinkValidityMs } from './decide-account';
export type {
  ChangeDefaultPartnerTenant,
  ChangePrimaryClassification,
  ChangeUserActiveCampaignId,
  ChangeUserEmail,
  DeleteUser,
  RenameUser,
  RequirePasswordReset,
  ResetUserAuth,
} from './decide-platform-fields';
export type {
  ChangeAssignToAllClients,
  ChangeMembershipClassification,
  ChangeMembershipJobTitle,
  ChangeMembershipReportPreferences,
  ChangeMembershipRole,
  ChangeMembershipStatus,
  JoinCreatedTenant,
  JoinTenant,
  LeaveTenant,
} from './decide-membership';
export type { AccountCommand, MembershipCommand, PlatformFieldCommand };

export type UserCommand = AccountCommand | PlatformFieldCommand | MembershipCommand;

export const decideUser = (command: UserCommand, state: UserState): UserEvent[] =>
  match(command)
    .with({ type: P.union(...accountCommandTypes) }, (c) => decideAccount(c, state))
    .with({ type: P.union(...platformFieldCommandTypes) }, (c) => decidePlatformField(c, state))
    .with({ type: P.union(...membershipCommandTypes) }, (c) => decideMembership(c, state))
    .exhaustive();
