import { match } from 'ts-pattern';
import type {
  LoginMethod,
  MembershipClassification,
  MembershipStatus,
  PrimaryClassification,
  TenantRole,
  UserEvent,
} from '../../contracts/events/user';

/**
 * A user's link to one tenant. Memberships live in the user's stream: every membership rule that the
 * spec gives is about one user (leave, status, role), and the facts about other users that leaving
 * needs come in the command, so no separate membership stream is worth its extra append.
 */
export type Membership = {
  tenantId: number;
  role: TenantRole;
  status: MembershipStatus;
  classification: MembershipClassification;
  jobTitle: string | null;
  sendWeekly: boolean;
  sendMonthly: boolean;
};

export type User = {
  status: 'registered' | 'deleted';
  userId: number;
  email: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
  passwordHash: string | null;
  authProvider: LoginMethod | null;
  passwordResetRequired: boolean;
  recovery: { tokenHash: string; expiresAt: string } | null;
  primaryClassification: PrimaryClassification;
  defaultPartnerTenantId: number | null;
  activeCampaignId: string | null;
  /** An advisor to be assigned to every client of their firm. */
  assignToAllClients: boolean;
  logins: number;
  lastLogin: { at: string; method: LoginMethod } | null;
  /** Keyed by tenant id. */
  memberships: Readonly<Record<number, Membership>>;
};

export type UserState = { status: 'none' } | User;

export const initialUserState = (): UserState => ({ status: 'none' });

const whenExisting = (state: UserState, change: (user: User) => User): UserState =>
  state.status === 'none' ? state : change(state);

const withMembership = (
  state: UserState,
  tenantId: number,
  change: (membership: Membership) => Membership,
): UserState =>
  whenExisting(state, (user) => {
    const membership = user.memberships[tenantId];
    return membership
      ? { ...user, memberships: { ...user.memberships, [tenantId]: change(membership) } }
      : user;
  });

export const evolveUser = (state: UserState, event: UserEvent): UserState =>
  match(event)
    .with({ type: 'UserRegistered' }, ({ data }): UserState => ({
      status: 'registered',
      userId: data.UserId,
      email: data.Email,
      emailVerified: data.EmailVerified,
      givenName: data.GivenName,
      familyName: data.FamilyName,
      passwordHash: data.PasswordHash,
      authProvider: data.AuthProvider,
      passwordResetRequired: false,
      recovery: null,
      primaryClassification: 'MEMBER',
      defaultPartnerTenantId: null,
      activeCampaignId: null,
      assignToAllClients: false,
      logins: 0,
      lastLogin: null,
      memberships: {},
    }))
    .with({ type: 'UserEmailVerified' }, () => whenExisting(state, (u) => ({ ...u, emailVerified: true })))
    .with({ type: 'UserLoggedIn' }, ({ data }) =>
      whenExisting(state, (u) => ({
        ...u,
        logins: data.Logins,
        lastLogin: { at: data.LoggedInAt, method: data.Method },
      })),
    )
    .with(
      { type: 'UserPasswordSet' },
      { type: 'UserPasswordChanged' },
      { type: 'UserPasswordReset' },
      ({ data }) =>
        whenExisting(state, (u) => ({
          ...u,
          passwordHash: data.PasswordHash,
          authProvider: u.authProvider ?? 'password',
          passwordResetRequired: false,
          recovery: null,
        })),
    )
    .with({ type: 'UserPasswordRecoveryRequested' }, ({ data }) =>
      whenExisting(state, (u) => ({
        ...u,
        recovery: { tokenHash: data.TokenHash, expiresAt: data.ExpiresAt },
      })),
    )
    .with({ type: 'UserPasswordResetRequired' }, () =>
      whenExisting(state, (u) => ({ ...u, passwordResetRequired: true })),
    )
    .with({ type: 'UserAuthReset' }, () =>
      whenExisting(state, (u) => ({
        ...u,
        passwordHash: null,
        authProvider: null,
        passwordResetRequired: false,
        recovery: null,
      })),
    )
    .with({ type: 'UserRenamed' }, ({ data }) =>
      whenExisting(state, (u) => ({ ...u, givenName: data.GivenName, familyName: data.FamilyName })),
    )
    .with({ type: 'UserEmailChanged' }, ({ data }) =>
      whenExisting(state, (u) => ({ ...u, email: data.Email, emailVerified: false })),
    )
    .with({ type: 'UserPrimaryClassificationChanged' }, ({ data }) =>
      whenExisting(state, (u) => ({ ...u, primaryClassification: data.PrimaryClassification })),
    )
    .with({ type: 'UserDefaultPartnerTenantChanged' }, ({ data }) =>
      whenExisting(state, (u) => ({ ...u, defaultPartnerTenantId: data.DefaultPartnerTenantId })),
    )
    .with({ type: 'UserActiveCampaignIdChanged' }, ({ data }) =>
      whenExisting(state, (u) => ({ ...u, activeCampaignId: data.ActiveCampaignId })),
    )
    .with({ type: 'UserAssignToAllClientsChanged' }, ({ data }) =>
      whenExisting(state, (u) => ({ ...u, assignToAllClients: data.AssignToAllClients })),
    )
    .with({ type: 'UserDeleted' }, () => whenExisting(state, (u) => ({ ...u, status: 'deleted' })))
    .with({ type: 'UserJoinedTenant' }, ({ data }) =>
      whenExisting(state, (u) => ({
        ...u,
        memberships: {
          ...u.memberships,
          [data.TenantId]: {
            tenantId: data.TenantId,
            role: data.Role,
            status: data.Status,
            classification: data.Classification,
            jobTitle: data.JobTitle,
            sendWeekly: data.SendWeekly,
            sendMonthly: data.SendMonthly,
          },
        },
      })),
    )
    .with({ type: 'UserTenantRoleChanged' }, ({ data }) =>
      withMembership(state, data.TenantId, (m) => ({ ...m, role: data.Role })),
    )
    .with({ type: 'UserTenantStatusChanged' }, ({ data }) =>
      withMembership(state, data.TenantId, (m) => ({ ...m, status: data.Status })),
    )
    .with({ type: 'UserTenantClassificationChanged' }, ({ data }) =>
      withMembership(state, data.TenantId, (m) => ({ ...m, classification: data.Classification })),
    )
    .with({ type: 'UserTenantJobTitleChanged' }, ({ data }) =>
      withMembership(state, data.TenantId, (m) => ({ ...m, jobTitle: data.JobTitle })),
    )
    .with({ type: 'UserTenantReportPreferencesChanged' }, ({ data }) =>
      withMembership(state, data.TenantId, (m) => ({
        ...m,
        sendWeekly: data.SendWeekly,
        sendMonthly: data.SendMonthly,
      })),
    )
    .with({ type: 'UserLeftTenant' }, ({ data }) =>
      whenExisting(state, (u) => {
        const { [data.TenantId]: _left, ...remaining } = u.memberships;
        return { ...u, memberships: remaining };
      }),
    )
    .exhaustive();
