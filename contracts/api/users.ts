import { z } from 'zod';
import {
  LoginMethod,
  MembershipClassification,
  MembershipStatus,
  PrimaryClassification,
  TenantRole,
} from '../events/user';
import { TenantClassification, UsageType } from '../events/tenant';
import { InviteRole, InviteWorkflow } from '../events/invite';
import { QueryFlag, Text } from './common';

/** The User entity as the team page, the profile and the admin users table read it (portal.md section 3). */
export const User = z.object({
  Id: z.number(),
  Email: z.string(),
  GivenName: z.string(),
  FamilyName: z.string(),
  Name: z.string(),
  JobTitle: z.string().nullable(),
  PrimaryClassification,
  AuthProvider: LoginMethod.nullable(),
  Logins: z.number(),
  LastLogin: z.string().nullable(),
  LastLoginMethod: LoginMethod.nullable(),
  createdAt: z.string(),
  DefaultPartnerTenantId: z.number().nullable(),
  ActiveCampaignId: z.string().nullable(),
  AssignToAllClients: z.boolean(),
  EmailVerified: z.boolean(),
  PasswordResetRequired: z.boolean(),
  deleted: z.boolean(),
});
export type User = z.infer<typeof User>;

/** A user's link to one tenant (UserTenants). */
export const Membership = z.object({
  TenantId: z.number(),
  Status: MembershipStatus,
  Role: TenantRole,
  Classification: MembershipClassification,
  JobTitle: z.string().nullable(),
  SendWeekly: z.boolean(),
  SendMonthly: z.boolean(),
  joinedAt: z.string(),
});
export type Membership = z.infer<typeof Membership>;

/** A row of the team page (/users). */
export const TeamMember = User.extend({ Membership });
export type TeamMember = z.infer<typeof TeamMember>;

/** GET /api/users: the current tenant's team, by name. */
export const TeamResponse = z.object({ members: z.array(TeamMember) });
export type TeamResponse = z.infer<typeof TeamResponse>;

export const PendingInvite = z.object({
  Uuid: z.string(),
  Email: z.string(),
  Name: z.string(),
  Role: InviteRole,
  JobTitle: z.string().nullable(),
  Workflow: InviteWorkflow,
  status: z.enum(['pending', 'sent']),
  createdAt: z.string(),
  lastSentAt: z.string().nullable(),
});
export type PendingInvite = z.infer<typeof PendingInvite>;

/** GET /api/users?pending=1: the current tenant's invitations not yet accepted or cancelled, newest first. */
export const PendingInvitesResponse = z.object({ invites: z.array(PendingInvite) });
export type PendingInvitesResponse = z.infer<typeof PendingInvitesResponse>;

export const UserListRow = User.extend({ TenantCount: z.number() });

/** GET /api/users?scope=all: the admin users table, a page at a time. */
export const UserListResponse = z.object({
  users: z.array(UserListRow),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type UserListResponse = z.infer<typeof UserListResponse>;

export const UsersResponse = z.union([TeamResponse, PendingInvitesResponse, UserListResponse]);

export const UserSortField = z.enum(['Id', 'Name', 'Email', 'createdAt', 'LastLogin', 'Logins']);

export const UsersQuery = z
  .object({
    pending: QueryFlag.optional(),
    scope: z.literal('all').optional(),
    search: Text(200).optional(),
    sort: UserSortField.optional(),
    direction: z.enum(['asc', 'desc']).optional(),
    page: z.coerce.number().int().min(1).max(100_000).optional(),
    pageSize: z.coerce.number().int().min(1).max(1000).optional(),
  })
  .strict();
export type UsersQuery = z.infer<typeof UsersQuery>;

/** One of a user's tenants in GET /api/users/{id}. */
export const UserTenant = z.object({
  Id: z.number(),
  Name: z.string(),
  Classification: TenantClassification,
  UsageType,
  disabled: z.boolean(),
  Membership,
});

/** GET /api/users/{id}: the user with the tenants the caller shares with them (all of them for admins). */
export const UserWithTenants = User.extend({ Tenants: z.array(UserTenant) });
export type UserWithTenants = z.infer<typeof UserWithTenants>;

const Name = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100);

/**
 * PUT or PATCH /api/users/{id} (portal.md section 5, User edit sends): JobTitle and Role concern the
 * membership in the caller's current tenant; the account fields are a platform admin's; absent fields
 * are unchanged.
 */
export const UpdateUserRequest = z
  .object({
    JobTitle: Text(100).nullable().optional(),
    Role: TenantRole.nullable().optional(),
    Name: Name('Name').optional(),
    GivenName: Name('First name').optional(),
    FamilyName: Name('Last name').optional(),
    Email: z.string().trim().email('Email is invalid').max(254).optional(),
    PrimaryClassification: PrimaryClassification.optional(),
    ActiveCampaignId: Text(100).nullable().optional(),
    AssignToAllClients: z.boolean().optional(),
    SendWeekly: z.boolean().optional(),
    SendMonthly: z.boolean().optional(),
  })
  .strict();
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;

/** PUT /api/users/{id}/status: disable or enable a member's access, optionally their reports too. */
export const UserStatusRequest = z
  .object({ Status: MembershipStatus, ToggleReports: z.boolean().default(false) })
  .strict();
export type UserStatusRequest = z.infer<typeof UserStatusRequest>;

/** portal.md section 8. */
export const userMessages = {
  updateFailed: 'There was an error while updating the user.',
  emailInUse: 'The email is already in use.',
  notFound: 'User not found.',
} as const;
