import type { RecordedEvent } from '../../contracts/events/envelope';
import type {
  LoginMethod,
  MembershipClassification,
  MembershipStatus,
  PrimaryClassification,
  TenantRole,
  UserEvent,
} from '../../contracts/events/user';
import { ERASED } from '../../commands/personal-data';
import { defineProjection, type ReadModelWrite } from '../framework/projection';

/**
 * One document per user (`_id` = UserId). Fields the spec names keep the spec's spelling; the
 * password hash and recovery token never enter a read model.
 */
export type UserDocument = {
  _id: number;
  position: number;
  Email: string;
  GivenName: string;
  FamilyName: string;
  Name: string;
  /** Lower-case Name, for sorting without collation (FerretDB has none). */
  sortName: string;
  /** The job title most recently given in any of the user's memberships (the admin users table shows one). */
  JobTitle: string | null;
  PrimaryClassification: PrimaryClassification;
  /** The provider the account signed up with; AuthProvider is derived from it and `hasPassword`. */
  signupProvider: LoginMethod | null;
  hasPassword: boolean;
  Logins: number;
  LastLogin: Date | null;
  LastLoginMethod: LoginMethod | null;
  createdAt: Date;
  DefaultPartnerTenantId: number | null;
  /** Absent on documents projected before these fields existed: read as null and false. */
  ActiveCampaignId?: string | null;
  AssignToAllClients?: boolean;
  EmailVerified: boolean;
  PasswordResetRequired: boolean;
  deleted: boolean;
  deletedAt: Date | null;
};

/** One document per user and tenant (`_id` = `<userId>:<tenantId>`): the UserTenants link. */
export type MembershipDocument = {
  _id: string;
  position: number;
  userId: number;
  tenantId: number;
  Status: MembershipStatus;
  Role: TenantRole;
  Classification: MembershipClassification;
  JobTitle: string | null;
  SendWeekly: boolean;
  SendMonthly: boolean;
  InviteId: string | null;
  joinedAt: Date;
  /** Set when the user is deleted, so team lists and counts leave the membership out. */
  userDeleted: boolean;
};

type Collections = 'users' | 'memberships';

export const USERS = 'users';

export const membershipId = (userId: number, tenantId: number): string => `${userId}:${tenantId}`;

/** A name made of an erased part is erased as a whole, as a rebuild after the erasure would show it. */
export const fullName = (givenName: string, familyName: string): string =>
  givenName === ERASED || familyName === ERASED ? ERASED : `${givenName} ${familyName}`.trim();

const nameFields = (givenName: string, familyName: string) => {
  const Name = fullName(givenName, familyName);
  return { GivenName: givenName, FamilyName: familyName, Name, sortName: Name.toLowerCase() };
};

const setUser = (id: number, fields: Partial<Omit<UserDocument, '_id' | 'position'>>) =>
  ({ kind: 'set', collection: 'users', id, fields }) as const;

const setMembership = (
  userId: number,
  tenantId: number,
  fields: Partial<Omit<MembershipDocument, '_id' | 'position'>>,
) => ({ kind: 'set', collection: 'memberships', id: membershipId(userId, tenantId), fields }) as const;

const passwordSet = (userId: number) => setUser(userId, { hasPassword: true, PasswordResetRequired: false });

/**
 * A deleted user's key is erased (docs/adr/0005-personal-data.md), so a rebuild reads their name,
 * email and job titles as the erased marker: live processing writes the same.
 */
const deletionWrites = (userId: number, deletedAt: string): ReadModelWrite<Collections>[] => [
  setUser(userId, {
    deleted: true,
    deletedAt: new Date(deletedAt),
    Email: ERASED,
    ...nameFields(ERASED, ERASED),
  }),
  {
    kind: 'update',
    collection: 'users',
    filter: { _id: userId, JobTitle: { $ne: null } },
    fields: { JobTitle: ERASED },
  },
  {
    kind: 'update',
    collection: 'users',
    filter: { _id: userId, ActiveCampaignId: { $ne: null } },
    fields: { ActiveCampaignId: ERASED },
  },
  { kind: 'update', collection: 'memberships', filter: { userId }, fields: { userDeleted: true } },
  {
    kind: 'update',
    collection: 'memberships',
    filter: { userId, JobTitle: { $ne: null } },
    fields: { JobTitle: ERASED },
  },
];

const writesFor = (event: UserEvent): ReadModelWrite<Collections>[] => {
  switch (event.type) {
    case 'UserRegistered': {
      const { data } = event;
      return [
        setUser(data.UserId, {
          Email: data.Email,
          ...nameFields(data.GivenName, data.FamilyName),
          JobTitle: null,
          PrimaryClassification: 'MEMBER',
          signupProvider: data.AuthProvider,
          hasPassword: data.PasswordHash !== null,
          Logins: 0,
          LastLogin: null,
          LastLoginMethod: null,
          createdAt: new Date(data.RegisteredAt),
          DefaultPartnerTenantId: null,
          EmailVerified: data.EmailVerified,
          PasswordResetRequired: false,
          deleted: false,
          deletedAt: null,
        }),
      ];
    }
    case 'UserEmailVerified':
      return [setUser(event.data.UserId, { EmailVerified: true })];
    case 'UserLoggedIn': {
      const { data } = event;
      return [
        setUser(data.UserId, {
          Logins: data.Logins,
          LastLogin: new Date(data.LoggedInAt),
          LastLoginMethod: data.Method,
        }),
      ];
    }
    case 'UserPasswordSet':
    case 'UserPasswordChanged':
    case 'UserPasswordReset':
      return [passwordSet(event.data.UserId)];
    case 'UserPasswordRecoveryRequested':
      return [];
    case 'UserPasswordResetRequired':
      return [setUser(event.data.UserId, { PasswordResetRequired: true })];
    case 'UserAuthReset':
      return [
        setUser(event.data.UserId, {
          signupProvider: null,
          hasPassword: false,
          PasswordResetRequired: false,
        }),
      ];
    case 'UserRenamed':
      return [setUser(event.data.UserId, nameFields(event.data.GivenName, event.data.FamilyName))];
    case 'UserEmailChanged':
      return [setUser(event.data.UserId, { Email: event.data.Email, EmailVerified: false })];
    case 'UserPrimaryClassificationChanged':
      return [setUser(event.data.UserId, { PrimaryClassification: event.data.PrimaryClassification })];
    case 'UserDefaultPartnerTenantChanged':
      return [setUser(event.data.UserId, { DefaultPartnerTenantId: event.data.DefaultPartnerTenantId })];
    case 'UserActiveCampaignIdChanged':
      return [setUser(event.data.UserId, { ActiveCampaignId: event.data.ActiveCampaignId })];
    case 'UserAssignToAllClientsChanged':
      return [setUser(event.data.UserId, { AssignToAllClients: event.data.AssignToAllClients })];
    case 'UserDeleted':
      return deletionWrites(event.data.UserId, event.data.DeletedAt);
    case 'UserJoinedTenant': {
      const { data } = event;
      return [
        setMembership(data.UserId, data.TenantId, {
          userId: data.UserId,
          tenantId: data.TenantId,
          Status: data.Status,
          Role: data.Role,
          Classification: data.Classification,
          JobTitle: data.JobTitle,
          SendWeekly: data.SendWeekly,
          SendMonthly: data.SendMonthly,
          InviteId: data.InviteId,
          joinedAt: new Date(data.JoinedAt),
          userDeleted: false,
        }),
        ...(data.JobTitle === null ? [] : [setUser(data.UserId, { JobTitle: data.JobTitle })]),
      ];
    }
    case 'UserTenantRoleChanged':
      return [setMembership(event.data.UserId, event.data.TenantId, { Role: event.data.Role })];
    case 'UserTenantStatusChanged':
      return [setMembership(event.data.UserId, event.data.TenantId, { Status: event.data.Status })];
    case 'UserTenantClassificationChanged':
      return [
        setMembership(event.data.UserId, event.data.TenantId, {
          Classification: event.data.Classification,
        }),
      ];
    case 'UserTenantJobTitleChanged': {
      const { data } = event;
      return [
        setMembership(data.UserId, data.TenantId, { JobTitle: data.JobTitle }),
        ...(data.JobTitle === null ? [] : [setUser(data.UserId, { JobTitle: data.JobTitle })]),
      ];
    }
    case 'UserTenantReportPreferencesChanged': {
      const { data } = event;
      return [
        setMembership(data.UserId, data.TenantId, {
          SendWeekly: data.SendWeekly,
          SendMonthly: data.SendMonthly,
        }),
      ];
    }
    case 'UserLeftTenant':
      return [
        {
          kind: 'delete',
          collection: 'memberships',
          filter: { _id: membershipId(event.data.UserId, event.data.TenantId) },
        },
      ];
  }
};

/** Users and their tenant memberships (admin users table, team page, switcher, command facts). */
export const usersProjection = defineProjection<Collections>({
  name: USERS,
  collections: { users: 'users', memberships: 'memberships' },
  indexes: {
    users: [
      { key: { Email: 1 }, name: 'email' },
      { key: { sortName: 1 }, name: 'sort_name' },
      // The admin users table: every user not deleted, by name, a page at a time (bench admin-tables).
      { key: { deleted: 1, sortName: 1, _id: 1 }, name: 'deleted_sort_name' },
      // Its total from counters, and its search box: name or email contains the text
      // (docs/adr/0051-admin-table-counts-and-search.md).
      { key: { deleted: 1 }, name: 'deleted_counts', counted: true },
      { key: { Name: 1, Email: 1 }, name: 'name_email_search', search: true },
    ],
    memberships: [
      { key: { tenantId: 1, userId: 1 }, name: 'tenant_user' },
      { key: { userId: 1 }, name: 'user' },
    ],
  },
  filter: { categories: ['user'] },
  // Validated when appended and upcast by the decoder, so typed, not parsed again: after an erasure
  // an address reads back as the erased marker, which z.email() (and so parseEvent) would refuse.
  // Unknown types (written by a newer version) are skipped rather than stalling the read model.
  project: (event: RecordedEvent) => writesFor({ type: event.type, data: event.data } as UserEvent) ?? [],
});
