import { match } from 'ts-pattern';
import { AppError } from '../../contracts/errors';
import type { TenantClassification } from '../../contracts/events/tenant';
import type {
  MembershipClassification,
  MembershipStatus,
  TenantRole,
  UserEvent,
} from '../../contracts/events/user';
import type { Actor } from '../actor';
import { blankToNull, invalidFields } from '../field-problems';
import type { Membership, User, UserState } from './user';
import {
  existing,
  isSelf,
  membershipOf,
  requirePlatformAdmin,
  requireSelf,
  requireTenantAdmin,
  text,
  type UserCommandOf,
} from './user-rules';

/** The user's memberships of tenants: joining, leaving, and each membership's role, status and settings. */

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

/**
 * The advisor assignment checkbox: only for an advisor (PrimaryClassification ADVISOR) who is an ADMIN
 * of the advisory firm named by tenantId; `tenantClassification` is that tenant's, from its stream.
 */
export type ChangeAssignToAllClients = UserCommandOf<
  'ChangeAssignToAllClients',
  { tenantId: number; tenantClassification: TenantClassification; assignToAllClients: boolean }
>;

export type MembershipCommand =
  | JoinTenant
  | JoinCreatedTenant
  | ChangeMembershipRole
  | ChangeMembershipStatus
  | ChangeMembershipClassification
  | ChangeMembershipJobTitle
  | ChangeMembershipReportPreferences
  | ChangeAssignToAllClients
  | LeaveTenant;

export const membershipCommandTypes = [
  'JoinTenant',
  'JoinCreatedTenant',
  'ChangeMembershipRole',
  'ChangeMembershipStatus',
  'ChangeMembershipClassification',
  'ChangeMembershipJobTitle',
  'ChangeMembershipReportPreferences',
  'ChangeAssignToAllClients',
  'LeaveTenant',
] as const satisfies readonly MembershipCommand['type'][];

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

export const decideMembership = (command: MembershipCommand, state: UserState): UserEvent[] =>
  match(command)
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
    .with({ type: 'LeaveTenant' }, (c) => decideLeave(c, state))
    .exhaustive();
