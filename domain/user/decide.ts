import { match } from 'ts-pattern';
import { AppError } from '../../contracts/errors';
import type { TenantClassification } from '../../contracts/events/tenant';
import type {
  LoginMethod,
  MembershipClassification,
  MembershipStatus,
  PrimaryClassification,
  TenantRole,
  UserEvent,
} from '../../contracts/events/user';
import type { Actor } from '../actor';
import type { DomainCommand } from '../decider';
import { isValidEmail, normaliseEmail } from './email';
import type { Membership, User, UserState } from './user';
import { invalidFields, rejectInvalid, blankToNull, type FieldProblem as Problem } from '../field-problems';

/**
 * For membership commands, `actor.tenantRole` is the actor's role in the tenant the command names
 * (data.tenantId); the command layer fills it from the actor's own user stream or read model.
 */
type UserCommandOf<Type extends string, Data> = DomainCommand<Type, Data> & { actor: Actor };

/** A password recovery link is valid for 30 minutes (portal.md section 9). */
export const recoveryLinkValidityMs = 30 * 60 * 1000;

export type RegisterUser = UserCommandOf<
  'RegisterUser',
  {
    userId: number;
    email: string;
    givenName: string;
    familyName: string;
    /** 'password' needs a passwordHash; null: added through an invite, registration still to complete. */
    authProvider: LoginMethod | null;
    passwordHash: string | null;
    emailVerified: boolean;
    referrer?: string | null;
    referrerIdentifier?: string | null;
    landingPage?: string | null;
    planIdentifier?: string | null;
    /** Cross-stream fact from the users read model: another user has this (normalised) email. */
    emailInUse: boolean;
  }
>;

/** `email` is the address the verification link was sent to; a link for an older address is stale. */
export type VerifyUserEmail = UserCommandOf<'VerifyUserEmail', { email: string }>;

/** Recorded after the credentials were checked outside the domain. */
export type RecordLogin = UserCommandOf<'RecordLogin', { method: LoginMethod }>;

/**
 * POST /api/auth/resetPassword for a signed-in user. The current password is compared with its hash
 * outside the domain; the result arrives here. A user without a password sets one (complete registration).
 */
export type ChangePassword = UserCommandOf<
  'ChangePassword',
  { passwordHash: string; currentPassword: 'verified' | 'wrong' | 'not_given' }
>;

export type RequestPasswordRecovery = UserCommandOf<'RequestPasswordRecovery', { tokenHash: string }>;
export type RecoverPassword = UserCommandOf<'RecoverPassword', { tokenHash: string; passwordHash: string }>;
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

/**
 * The advisor assignment checkbox: only for an advisor (PrimaryClassification ADVISOR) who is an ADMIN
 * of the advisory firm named by tenantId; `tenantClassification` is that tenant's, from its stream.
 */
export type ChangeAssignToAllClients = UserCommandOf<
  'ChangeAssignToAllClients',
  { tenantId: number; tenantClassification: TenantClassification; assignToAllClients: boolean }
>;
export type DeleteUser = UserCommandOf<'DeleteUser', Record<string, never>>;

/**
 * Adds the user to a tenant: by accepting an invite (inviteId set; the command layer has just recorded
 * InviteJoined for this user) or by a tenant or platform admin.
 */
export type JoinTenant = UserCommandOf<
  'JoinTenant',
  {
    tenantId: number;
    role: TenantRole;
    classification: MembershipClassification;
    jobTitle: string | null;
    sendWeekly: boolean;
    sendMonthly: boolean;
    inviteId: string | null;
  }
>;

/**
 * The user side of creating a tenant (welcome modal, new client): the creator becomes its admin. For a
 * FIRM (the tenant's own TenantCreated says so) the creator also becomes an advisor whose default partner
 * tenant is the firm. Not issued when an admin creates a tenant with skipUserTenant.
 */
export type JoinCreatedTenant = UserCommandOf<
  'JoinCreatedTenant',
  { tenantId: number; tenantClassification: TenantClassification }
>;

export type ChangeMembershipRole = UserCommandOf<
  'ChangeMembershipRole',
  { tenantId: number; role: TenantRole }
>;
export type ChangeMembershipStatus = UserCommandOf<
  'ChangeMembershipStatus',
  { tenantId: number; status: MembershipStatus; toggleReports: boolean }
>;
export type ChangeMembershipClassification = UserCommandOf<
  'ChangeMembershipClassification',
  { tenantId: number; classification: MembershipClassification }
>;
export type ChangeMembershipJobTitle = UserCommandOf<
  'ChangeMembershipJobTitle',
  { tenantId: number; jobTitle: string | null }
>;
/** The user's standing choice of weekly and monthly reports in the tenant; absent fields are unchanged. */
export type ChangeMembershipReportPreferences = UserCommandOf<
  'ChangeMembershipReportPreferences',
  { tenantId: number; sendWeekly?: boolean; sendMonthly?: boolean }
>;

/**
 * The decider sees only this user's stream, so the facts about the tenant and its other members come
 * from the command layer: the tenant's current classification (tenant stream) and how many OTHER
 * members are active advisors or active admins (users read model, excluding this user).
 */
export type LeaveTenant = UserCommandOf<
  'LeaveTenant',
  { tenantId: number; tenantClassification: TenantClassification; otherActiveAdvisorsOrAdmins: number }
>;

export type UserCommand =
  | RegisterUser
  | VerifyUserEmail
  | RecordLogin
  | ChangePassword
  | RequestPasswordRecovery
  | RecoverPassword
  | RequirePasswordReset
  | ResetUserAuth
  | RenameUser
  | ChangeUserEmail
  | ChangePrimaryClassification
  | ChangeDefaultPartnerTenant
  | ChangeUserActiveCampaignId
  | ChangeAssignToAllClients
  | DeleteUser
  | JoinTenant
  | JoinCreatedTenant
  | ChangeMembershipRole
  | ChangeMembershipStatus
  | ChangeMembershipClassification
  | ChangeMembershipJobTitle
  | ChangeMembershipReportPreferences
  | LeaveTenant;

const text = {
  notFound: 'User not found.',
  alreadyExists: 'A user with this id already exists.',
  givenNameRequired: 'First name is required',
  familyNameRequired: 'Last name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address.',
  emailInUse: 'The email is already in use.',
  passwordRequired: 'Password is required',
  verificationStale: 'Oops! It seems that this verification link is no longer valid',
  invalidCredentials: 'Invalid credentials supplied.',
  currentPasswordRequired: 'Please enter your current password.',
  currentPasswordWrong: 'The current password is incorrect.',
  recoveryInvalid: 'This password recovery link is no longer valid. Please request a new one.',
  onlySelf: 'Only the user themselves can do this.',
  onlyPlatformAdmin: 'Only a platform administrator can do this.',
  onlyTenantAdmin: 'Only an administrator of this company can change its team.',
  cannotDeleteSelf: 'You cannot delete your own account.',
  cannotChangeOwnStatus: 'You cannot disable or enable your own access.',
  alreadyMember: 'The user is already a member of this company.',
  notMember: 'The user is not a member of this company.',
  cannotLeaveFirm: 'You cannot leave an advisory firm.',
  onlyAdvisorsLeave: 'Only an advisor can leave a company.',
  assignOnlyFirmAdvisors:
    'Only an advisor who is an administrator of an advisory firm can be assigned to all of its clients.',
  lastAdvisorOrAdmin: 'You cannot leave this company: no other active advisor or administrator would remain.',
} as const;

const emailProblems = (email: string, emailInUse: boolean): Problem[] => {
  if (email === '') return [{ field: 'email', code: 'required', message: text.emailRequired }];
  if (!isValidEmail(email)) return [{ field: 'email', code: 'invalid', message: text.emailInvalid }];
  if (emailInUse) return [{ field: 'email', code: 'not_unique', message: text.emailInUse }];
  return [];
};

const nameProblems = (givenName: string, familyName: string): Problem[] => [
  ...(givenName === ''
    ? [{ field: 'givenName', code: 'required', message: text.givenNameRequired } as const]
    : []),
  ...(familyName === ''
    ? [{ field: 'familyName', code: 'required', message: text.familyNameRequired } as const]
    : []),
];

/** A deleted user is gone for every command. */
const existing = (state: UserState): User => {
  if (state.status !== 'registered') throw new AppError('not_found', text.notFound);
  return state;
};

const isSelf = (actor: Actor, user: User): boolean => actor.userId === user.userId;

const requireSelf = (actor: Actor, user: User): void => {
  if (!isSelf(actor, user)) throw new AppError('forbidden', text.onlySelf);
};

const requirePlatformAdmin = (actor: Actor): void => {
  if (!actor.isPlatformAdmin) throw new AppError('forbidden', text.onlyPlatformAdmin);
};

const requireTenantAdmin = (actor: Actor): void => {
  if (!actor.isPlatformAdmin && actor.tenantRole !== 'ADMIN')
    throw new AppError('forbidden', text.onlyTenantAdmin);
};

const membershipOf = (user: User, tenantId: number): Membership => {
  const membership = user.memberships[tenantId];
  if (!membership) throw new AppError('not_found', text.notMember);
  return membership;
};

const decideRegister = (command: RegisterUser, state: UserState): UserEvent[] => {
  if (state.status !== 'none') throw new AppError('conflict', text.alreadyExists);
  const { data } = command;
  const email = normaliseEmail(data.email);
  const givenName = data.givenName.trim();
  const familyName = data.familyName.trim();
  const passwordHash = blankToNull(data.passwordHash);
  rejectInvalid([
    ...nameProblems(givenName, familyName),
    ...emailProblems(email, data.emailInUse),
    ...(data.authProvider === 'password' && passwordHash === null
      ? [{ field: 'password', code: 'required', message: text.passwordRequired } as const]
      : []),
  ]);
  return [
    {
      type: 'UserRegistered',
      data: {
        UserId: data.userId,
        Email: email,
        GivenName: givenName,
        FamilyName: familyName,
        PasswordHash: passwordHash,
        AuthProvider: data.authProvider,
        EmailVerified: data.emailVerified,
        Referrer: blankToNull(data.referrer),
        ReferrerIdentifier: blankToNull(data.referrerIdentifier),
        LandingPage: blankToNull(data.landingPage),
        PlanIdentifier: blankToNull(data.planIdentifier),
        RegisteredAt: command.now.toISOString(),
      },
    },
  ];
};

const decideVerifyEmail = (command: VerifyUserEmail, state: UserState): UserEvent[] => {
  const user = existing(state);
  if (normaliseEmail(command.data.email) !== user.email)
    throw new AppError('conflict', text.verificationStale);
  // A second click on the same link is harmless.
  if (user.emailVerified) return [];
  return [
    {
      type: 'UserEmailVerified',
      data: { UserId: user.userId, Email: user.email, VerifiedAt: command.now.toISOString() },
    },
  ];
};

const decideLogin = (command: RecordLogin, state: UserState): UserEvent[] => {
  const user = existing(state);
  if (command.data.method === 'password' && user.passwordHash === null)
    throw new AppError('unauthorized', text.invalidCredentials);
  return [
    {
      type: 'UserLoggedIn',
      data: {
        UserId: user.userId,
        Method: command.data.method,
        Logins: user.logins + 1,
        LoggedInAt: command.now.toISOString(),
      },
    },
  ];
};

const passwordHashOf = (value: string): string => {
  const hash = blankToNull(value);
  if (hash === null)
    throw invalidFields([{ field: 'password', code: 'required', message: text.passwordRequired }]);
  return hash;
};

const decideChangePassword = (command: ChangePassword, state: UserState): UserEvent[] => {
  const user = existing(state);
  requireSelf(command.actor, user);
  const PasswordHash = passwordHashOf(command.data.passwordHash);
  const at = command.now.toISOString();
  if (user.passwordHash === null)
    return [{ type: 'UserPasswordSet', data: { UserId: user.userId, PasswordHash, SetAt: at } }];
  // A user flagged for a mandatory reset is not asked for the current password.
  if (!user.passwordResetRequired) {
    if (command.data.currentPassword === 'not_given')
      throw invalidFields([
        { field: 'currentPassword', code: 'required', message: text.currentPasswordRequired },
      ]);
    if (command.data.currentPassword === 'wrong')
      throw invalidFields([
        { field: 'currentPassword', code: 'invalid', message: text.currentPasswordWrong },
      ]);
  }
  return [{ type: 'UserPasswordChanged', data: { UserId: user.userId, PasswordHash, ChangedAt: at } }];
};

const decideRequestRecovery = (command: RequestPasswordRecovery, state: UserState): UserEvent[] => {
  const user = existing(state);
  return [
    {
      type: 'UserPasswordRecoveryRequested',
      data: {
        UserId: user.userId,
        TokenHash: command.data.tokenHash,
        RequestedAt: command.now.toISOString(),
        ExpiresAt: new Date(command.now.getTime() + recoveryLinkValidityMs).toISOString(),
      },
    },
  ];
};

/** Only the latest link works, once, and only until it expires. */
const decideRecover = (command: RecoverPassword, state: UserState): UserEvent[] => {
  const user = existing(state);
  const recovery = user.recovery;
  const valid =
    recovery !== null &&
    recovery.tokenHash === command.data.tokenHash &&
    command.now.getTime() < new Date(recovery.expiresAt).getTime();
  if (!valid) throw new AppError('conflict', text.recoveryInvalid);
  const PasswordHash = passwordHashOf(command.data.passwordHash);
  return [
    {
      type: 'UserPasswordReset',
      data: { UserId: user.userId, PasswordHash, ResetAt: command.now.toISOString() },
    },
  ];
};

const decideJoin = (command: JoinTenant, state: UserState): UserEvent[] => {
  const user = existing(state);
  const { actor, data } = command;
  const byInvite = data.inviteId !== null && isSelf(actor, user);
  if (!byInvite) requireTenantAdmin(actor);
  if (user.memberships[data.tenantId]) throw new AppError('conflict', text.alreadyMember);
  return [
    {
      type: 'UserJoinedTenant',
      data: {
        UserId: user.userId,
        TenantId: data.tenantId,
        Role: data.role,
        Status: 'ACTIVE',
        Classification: data.classification,
        JobTitle: blankToNull(data.jobTitle),
        SendWeekly: data.sendWeekly,
        SendMonthly: data.sendMonthly,
        InviteId: data.inviteId,
        JoinedAt: command.now.toISOString(),
      },
    },
  ];
};

const decideJoinCreated = (command: JoinCreatedTenant, state: UserState): UserEvent[] => {
  const user = existing(state);
  const { actor, data } = command;
  if (!isSelf(actor, user)) requirePlatformAdmin(actor);
  if (user.memberships[data.tenantId]) throw new AppError('conflict', text.alreadyMember);
  const isFirm = data.tenantClassification === 'FIRM';
  const UserId = user.userId;
  const events: UserEvent[] = [
    {
      type: 'UserJoinedTenant',
      data: {
        UserId,
        TenantId: data.tenantId,
        Role: 'ADMIN',
        Status: 'ACTIVE',
        // An advisor who adds a client manages it as its advisor.
        Classification: isFirm || user.primaryClassification === 'ADVISOR' ? 'ADVISOR' : 'MEMBER',
        JobTitle: null,
        // Weekly is the default send frequency.
        SendWeekly: true,
        SendMonthly: false,
        InviteId: null,
        JoinedAt: command.now.toISOString(),
      },
    },
  ];
  if (isFirm && user.primaryClassification !== 'ADVISOR')
    events.push({
      type: 'UserPrimaryClassificationChanged',
      data: { UserId, PrimaryClassification: 'ADVISOR' },
    });
  // An advisor who already has a firm keeps it as their default.
  if (isFirm && user.defaultPartnerTenantId === null)
    events.push({
      type: 'UserDefaultPartnerTenantChanged',
      data: { UserId, DefaultPartnerTenantId: data.tenantId },
    });
  return events;
};

const decideLeave = (command: LeaveTenant, state: UserState): UserEvent[] => {
  const user = existing(state);
  const { data } = command;
  requireSelf(command.actor, user);
  const membership = membershipOf(user, data.tenantId);
  if (data.tenantClassification === 'FIRM') throw new AppError('conflict', text.cannotLeaveFirm);
  const isAdvisor = user.primaryClassification === 'ADVISOR' || membership.classification === 'ADVISOR';
  if (!isAdvisor) throw new AppError('forbidden', text.onlyAdvisorsLeave);
  if (data.otherActiveAdvisorsOrAdmins < 1) throw new AppError('conflict', text.lastAdvisorOrAdmin);
  return [
    {
      type: 'UserLeftTenant',
      data: { UserId: user.userId, TenantId: data.tenantId, LeftAt: command.now.toISOString() },
    },
  ];
};

/** Membership edits that a tenant admin (or platform admin) makes; nothing is appended when nothing changes. */
const decideMembershipEdit = (
  command: { actor: Actor; data: { tenantId: number } },
  state: UserState,
  change: (membership: Membership, user: User) => UserEvent[],
): UserEvent[] => {
  const user = existing(state);
  requireTenantAdmin(command.actor);
  return change(membershipOf(user, command.data.tenantId), user);
};

/** Edits a user may make to their own membership too. */
const decideOwnMembershipEdit = (
  command: { actor: Actor; data: { tenantId: number } },
  state: UserState,
  change: (membership: Membership, user: User) => UserEvent[],
): UserEvent[] => {
  const user = existing(state);
  if (!isSelf(command.actor, user)) requireTenantAdmin(command.actor);
  return change(membershipOf(user, command.data.tenantId), user);
};

const decidePlatformAdminEdit = (
  command: { actor: Actor },
  state: UserState,
  change: (user: User) => UserEvent[],
): UserEvent[] => {
  const user = existing(state);
  requirePlatformAdmin(command.actor);
  return change(user);
};

export const decideUser = (command: UserCommand, state: UserState): UserEvent[] =>
  match(command)
    .with({ type: 'RegisterUser' }, (c) => decideRegister(c, state))
    .with({ type: 'VerifyUserEmail' }, (c) => decideVerifyEmail(c, state))
    .with({ type: 'RecordLogin' }, (c) => decideLogin(c, state))
    .with({ type: 'ChangePassword' }, (c) => decideChangePassword(c, state))
    .with({ type: 'RequestPasswordRecovery' }, (c) => decideRequestRecovery(c, state))
    .with({ type: 'RecoverPassword' }, (c) => decideRecover(c, state))
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
    .with({ type: 'ChangeAssignToAllClients' }, (c) =>
      decideMembershipEdit(c, state, (m, user): UserEvent[] => {
        const eligible =
          c.data.tenantClassification === 'FIRM' &&
          user.primaryClassification === 'ADVISOR' &&
          m.role === 'ADMIN';
        if (c.data.assignToAllClients && !eligible)
          throw invalidFields([
            { field: 'AssignToAllClients', code: 'invalid', message: text.assignOnlyFirmAdvisors },
          ]);
        if (c.data.assignToAllClients === user.assignToAllClients) return [];
        return [
          {
            type: 'UserAssignToAllClientsChanged',
            data: {
              UserId: user.userId,
              TenantId: m.tenantId,
              AssignToAllClients: c.data.assignToAllClients,
            },
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
    .with({ type: 'JoinTenant' }, (c) => decideJoin(c, state))
    .with({ type: 'JoinCreatedTenant' }, (c) => decideJoinCreated(c, state))
    .with({ type: 'ChangeMembershipRole' }, (c) =>
      decideMembershipEdit(c, state, (m, user): UserEvent[] =>
        m.role === c.data.role
          ? []
          : [
              {
                type: 'UserTenantRoleChanged',
                data: { UserId: user.userId, TenantId: m.tenantId, Role: c.data.role },
              },
            ],
      ),
    )
    .with({ type: 'ChangeMembershipStatus' }, (c) =>
      decideMembershipEdit(c, state, (m, user): UserEvent[] => {
        // Disabling yourself would lock you out of the company you are managing.
        if (isSelf(c.actor, user)) throw new AppError('forbidden', text.cannotChangeOwnStatus);
        if (m.status === c.data.status) return [];
        return [
          {
            type: 'UserTenantStatusChanged',
            data: {
              UserId: user.userId,
              TenantId: m.tenantId,
              Status: c.data.status,
              ToggleReports: c.data.toggleReports,
            },
          },
        ];
      }),
    )
    .with({ type: 'ChangeMembershipClassification' }, (c) =>
      decideMembershipEdit(c, state, (m, user): UserEvent[] =>
        m.classification === c.data.classification
          ? []
          : [
              {
                type: 'UserTenantClassificationChanged',
                data: { UserId: user.userId, TenantId: m.tenantId, Classification: c.data.classification },
              },
            ],
      ),
    )
    .with({ type: 'ChangeMembershipJobTitle' }, (c) =>
      decideOwnMembershipEdit(c, state, (m, user): UserEvent[] => {
        const jobTitle = blankToNull(c.data.jobTitle);
        if (m.jobTitle === jobTitle) return [];
        return [
          {
            type: 'UserTenantJobTitleChanged',
            data: { UserId: user.userId, TenantId: m.tenantId, JobTitle: jobTitle },
          },
        ];
      }),
    )
    .with({ type: 'ChangeMembershipReportPreferences' }, (c) =>
      decideOwnMembershipEdit(c, state, (m, user): UserEvent[] => {
        const sendWeekly = c.data.sendWeekly ?? m.sendWeekly;
        const sendMonthly = c.data.sendMonthly ?? m.sendMonthly;
        if (sendWeekly === m.sendWeekly && sendMonthly === m.sendMonthly) return [];
        return [
          {
            type: 'UserTenantReportPreferencesChanged',
            data: {
              UserId: user.userId,
              TenantId: m.tenantId,
              SendWeekly: sendWeekly,
              SendMonthly: sendMonthly,
            },
          },
        ];
      }),
    )
    .with({ type: 'LeaveTenant' }, (c) => decideLeave(c, state))
    .exhaustive();
