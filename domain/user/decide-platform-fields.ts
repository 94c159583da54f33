import { match } from 'ts-pattern';
import { AppError } from '../../contracts/errors';
import type { PrimaryClassification, UserEvent } from '../../contracts/events/user';
import { blankToNull, rejectInvalid } from '../field-problems';
import type { Actor } from '../actor';
import { normaliseEmail } from './email';
import type { User, UserState } from './user';
import {
  emailProblems,
  existing,
  isSelf,
  membershipOf,
  nameProblems,
  requirePlatformAdmin,
  text,
  type UserCommandOf,
} from './user-rules';

/** The fields of a user only a platform administrator edits (admin.md): names, email, flags, deletion. */

export type RequirePasswordReset = UserCommandOf<'RequirePasswordReset', Record<string, never>>;
export type ResetUserAuth = UserCommandOf<'ResetUserAuth', Record<string, never>>;
export type RenameUser = UserCommandOf<'RenameUser', { givenName: string; familyName: string }>;
export type ChangeUserEmail = UserCommandOf<'ChangeUserEmail', { email: string; emailInUse: boolean }>;
export type ChangePrimaryClassification = UserCommandOf<
  'ChangePrimaryClassification',
  { classification: PrimaryClassification }
>;
export type ChangeDefaultPartnerTenant = UserCommandOf<
  'ChangeDefaultPartnerTenant',
  { tenantId: number | null }
>;
export type ChangeUserActiveCampaignId = UserCommandOf<
  'ChangeUserActiveCampaignId',
  { activeCampaignId: string | null }
>;

export type DeleteUser = UserCommandOf<'DeleteUser', Record<string, never>>;

export type PlatformFieldCommand =
  | RequirePasswordReset
  | ResetUserAuth
  | RenameUser
  | ChangeUserEmail
  | ChangePrimaryClassification
  | ChangeDefaultPartnerTenant
  | ChangeUserActiveCampaignId
  | DeleteUser;

export const platformFieldCommandTypes = [
  'RequirePasswordReset',
  'ResetUserAuth',
  'RenameUser',
  'ChangeUserEmail',
  'ChangePrimaryClassification',
  'ChangeDefaultPartnerTenant',
  'ChangeUserActiveCampaignId',
  'DeleteUser',
] as const satisfies readonly PlatformFieldCommand['type'][];

const decidePlatformAdminEdit = (
  command: { actor: Actor },
  state: UserState,
  change: (user: User) => UserEvent[],
): UserEvent[] => {
  const user = existing(state);
  requirePlatformAdmin(command.actor);
  return change(user);
};

export const decidePlatformField = (command: PlatformFieldCommand, state: UserState): UserEvent[] =>
  match(command)
    .with({ type: 'RequirePasswordReset' }, (c) =>
      decidePlatformAdminEdit(c, state, (user): UserEvent[] =>
        user.passwordResetRequired
          ? []
          : [
              {
                type: 'UserPasswordResetRequired',
                data: { UserId: user.userId, RequiredAt: c.now.toISOString() },
              },
            ],
      ),
    )
    .with({ type: 'ResetUserAuth' }, (c) =>
      decidePlatformAdminEdit(c, state, (user): UserEvent[] => [
        { type: 'UserAuthReset', data: { UserId: user.userId, ResetAt: c.now.toISOString() } },
      ]),
    )
    .with({ type: 'RenameUser' }, (c) =>
      decidePlatformAdminEdit(c, state, (user): UserEvent[] => {
        const givenName = c.data.givenName.trim();
        const familyName = c.data.familyName.trim();
        rejectInvalid(nameProblems(givenName, familyName));
        if (givenName === user.givenName && familyName === user.familyName) return [];
        return [
          {
            type: 'UserRenamed',
            data: { UserId: user.userId, GivenName: givenName, FamilyName: familyName },
          },
        ];
      }),
    )
    .with({ type: 'ChangeUserEmail' }, (c) =>
      decidePlatformAdminEdit(c, state, (user): UserEvent[] => {
        const email = normaliseEmail(c.data.email);
        if (email === user.email) return [];
        rejectInvalid(emailProblems(email, c.data.emailInUse));
        return [{ type: 'UserEmailChanged', data: { UserId: user.userId, Email: email } }];
      }),
    )
    .with({ type: 'ChangePrimaryClassification' }, (c) =>
      decidePlatformAdminEdit(c, state, (user): UserEvent[] =>
        user.primaryClassification === c.data.classification
          ? []
          : [
              {
                type: 'UserPrimaryClassificationChanged',
                data: { UserId: user.userId, PrimaryClassification: c.data.classification },
              },
            ],
      ),
    )
    .with({ type: 'ChangeDefaultPartnerTenant' }, (c) =>
      decidePlatformAdminEdit(c, state, (user): UserEvent[] => {
        const tenantId = c.data.tenantId;
        if (tenantId !== null) membershipOf(user, tenantId);
        if (tenantId === user.defaultPartnerTenantId) return [];
        return [
          {
            type: 'UserDefaultPartnerTenantChanged',
            data: { UserId: user.userId, DefaultPartnerTenantId: tenantId },
          },
        ];
      }),
    )
    .with({ type: 'ChangeUserActiveCampaignId' }, (c) =>
      decidePlatformAdminEdit(c, state, (user): UserEvent[] => {
        const activeCampaignId = blankToNull(c.data.activeCampaignId);
        if (activeCampaignId === user.activeCampaignId) return [];
        return [
          {
            type: 'UserActiveCampaignIdChanged',
            data: { UserId: user.userId, ActiveCampaignId: activeCampaignId },
          },
        ];
      }),
    )
    .with({ type: 'DeleteUser' }, (c) =>
      decidePlatformAdminEdit(c, state, (user): UserEvent[] => {
        if (isSelf(c.actor, user)) throw new AppError('forbidden', text.cannotDeleteSelf);
        return [{ type: 'UserDeleted', data: { UserId: user.userId, DeletedAt: c.now.toISOString() } }];
      }),
    )
    .exhaustive();
