import { z } from 'zod';
import { EntityId, IsoDateTime, type PersonalDataFields } from './values';

export const LoginMethod = z.enum(['password', 'google', 'microsoft']);
export type LoginMethod = z.infer<typeof LoginMethod>;

export const PrimaryClassification = z.enum(['MEMBER', 'ADVISOR']);
export type PrimaryClassification = z.infer<typeof PrimaryClassification>;

export const TenantRole = z.enum(['ADMIN', 'USER']);
export type TenantRole = z.infer<typeof TenantRole>;

export const MembershipStatus = z.enum(['ACTIVE', 'INACTIVE']);
export type MembershipStatus = z.infer<typeof MembershipStatus>;

/** How the user is classified within one tenant; ADVISOR puts the tenant in their client list. */
export const MembershipClassification = z.enum(['MEMBER', 'ADVISOR']);
export type MembershipClassification = z.infer<typeof MembershipClassification>;

/** Password hashes are opaque: hashing and comparing happen outside the domain. */
const PasswordHash = z.string().min(1);

export const UserRegistered = z.object({
  type: z.literal('UserRegistered'),
  data: z.object({
    UserId: EntityId,
    /** Normalised: trimmed and lower-case. */
    Email: z.email(),
    GivenName: z.string().min(1),
    FamilyName: z.string().min(1),
    /** null: signs in with Google or Microsoft, or was added by invite and has not completed registration. */
    PasswordHash: PasswordHash.nullable(),
    AuthProvider: LoginMethod.nullable(),
    /** A Google or Microsoft sign-up arrives with the provider's verified address. */
    EmailVerified: z.boolean(),
    Referrer: z.string().nullable(),
    ReferrerIdentifier: z.string().nullable(),
    LandingPage: z.string().nullable(),
    PlanIdentifier: z.string().nullable(),
    RegisteredAt: IsoDateTime,
  }),
});

export const UserEmailVerified = z.object({
  type: z.literal('UserEmailVerified'),
  data: z.object({ UserId: EntityId, Email: z.email(), VerifiedAt: IsoDateTime }),
});

/** Logins is the count after this login, so a projection can set it without incrementing. */
export const UserLoggedIn = z.object({
  type: z.literal('UserLoggedIn'),
  data: z.object({
    UserId: EntityId,
    Method: LoginMethod,
    Logins: z.number().int().positive(),
    LoggedInAt: IsoDateTime,
  }),
});

/** The first password of an account that had none (complete registration). */
export const UserPasswordSet = z.object({
  type: z.literal('UserPasswordSet'),
  data: z.object({ UserId: EntityId, PasswordHash, SetAt: IsoDateTime }),
});

export const UserPasswordChanged = z.object({
  type: z.literal('UserPasswordChanged'),
  data: z.object({ UserId: EntityId, PasswordHash, ChangedAt: IsoDateTime }),
});

/** Only a hash of the emailed token is kept; the link is valid until ExpiresAt (30 minutes). */
export const UserPasswordRecoveryRequested = z.object({
  type: z.literal('UserPasswordRecoveryRequested'),
  data: z.object({
    UserId: EntityId,
    TokenHash: z.string().min(1),
    RequestedAt: IsoDateTime,
    ExpiresAt: IsoDateTime,
  }),
});

/** A password set through a recovery link. */
export const UserPasswordReset = z.object({
  type: z.literal('UserPasswordReset'),
  data: z.object({ UserId: EntityId, PasswordHash, ResetAt: IsoDateTime }),
});

/** The user is sent to /reset-password until they change their password. */
export const UserPasswordResetRequired = z.object({
  type: z.literal('UserPasswordResetRequired'),
  data: z.object({ UserId: EntityId, RequiredAt: IsoDateTime }),
});

/** An admin's auth reset: password and sign-in provider are dropped; the user recovers or re-registers. */
export const UserAuthReset = z.object({
  type: z.literal('UserAuthReset'),
  data: z.object({ UserId: EntityId, ResetAt: IsoDateTime }),
});

export const UserRenamed = z.object({
  type: z.literal('UserRenamed'),
  data: z.object({ UserId: EntityId, GivenName: z.string().min(1), FamilyName: z.string().min(1) }),
});

/** A changed address is unverified until the user confirms it. */
export const UserEmailChanged = z.object({
  type: z.literal('UserEmailChanged'),
  data: z.object({ UserId: EntityId, Email: z.email() }),
});

export const UserPrimaryClassificationChanged = z.object({
  type: z.literal('UserPrimaryClassificationChanged'),
  data: z.object({ UserId: EntityId, PrimaryClassification }),
});

/** The advisory firm an advisor returns to from a client (the advisor dashboard). */
export const UserDefaultPartnerTenantChanged = z.object({
  type: z.literal('UserDefaultPartnerTenantChanged'),
  data: z.object({ UserId: EntityId, DefaultPartnerTenantId: EntityId.nullable() }),
});

/** The user's contact id in the marketing-automation platform (ActiveCampaign), set by a platform admin. */
export const UserActiveCampaignIdChanged = z.object({
  type: z.literal('UserActiveCampaignIdChanged'),
  data: z.object({ UserId: EntityId, ActiveCampaignId: z.string().min(1).nullable() }),
});

/** An advisor of a firm who is to be assigned to every client of the firm (the advisor assignment checkbox). */
export const UserAssignToAllClientsChanged = z.object({
  type: z.literal('UserAssignToAllClientsChanged'),
  data: z.object({ UserId: EntityId, TenantId: EntityId, AssignToAllClients: z.boolean() }),
});

export const UserDeleted = z.object({
  type: z.literal('UserDeleted'),
  data: z.object({ UserId: EntityId, DeletedAt: IsoDateTime }),
});

export const UserJoinedTenant = z.object({
  type: z.literal('UserJoinedTenant'),
  data: z.object({
    UserId: EntityId,
    TenantId: EntityId,
    Role: TenantRole,
    Status: MembershipStatus,
    Classification: MembershipClassification,
    JobTitle: z.string().nullable(),
    SendWeekly: z.boolean(),
    SendMonthly: z.boolean(),
    /** The invitation accepted, or null when the user created the tenant or an admin added them. */
    InviteId: z.string().nullable(),
    JoinedAt: IsoDateTime,
  }),
});

export const UserTenantRoleChanged = z.object({
  type: z.literal('UserTenantRoleChanged'),
  data: z.object({ UserId: EntityId, TenantId: EntityId, Role: TenantRole }),
});

/** ToggleReports: the user's report subscriptions in the tenant follow the new status (a reactor does it). */
export const UserTenantStatusChanged = z.object({
  type: z.literal('UserTenantStatusChanged'),
  data: z.object({
    UserId: EntityId,
    TenantId: EntityId,
    Status: MembershipStatus,
    ToggleReports: z.boolean(),
  }),
});

export const UserTenantClassificationChanged = z.object({
  type: z.literal('UserTenantClassificationChanged'),
  data: z.object({ UserId: EntityId, TenantId: EntityId, Classification: MembershipClassification }),
});

export const UserTenantJobTitleChanged = z.object({
  type: z.literal('UserTenantJobTitleChanged'),
  data: z.object({ UserId: EntityId, TenantId: EntityId, JobTitle: z.string().nullable() }),
});

export const UserTenantReportPreferencesChanged = z.object({
  type: z.literal('UserTenantReportPreferencesChanged'),
  data: z.object({ UserId: EntityId, TenantId: EntityId, SendWeekly: z.boolean(), SendMonthly: z.boolean() }),
});

export const UserLeftTenant = z.object({
  type: z.literal('UserLeftTenant'),
  data: z.object({ UserId: EntityId, TenantId: EntityId, LeftAt: IsoDateTime }),
});

export const UserEvent = z.discriminatedUnion('type', [
  UserRegistered,
  UserEmailVerified,
  UserLoggedIn,
  UserPasswordSet,
  UserPasswordChanged,
  UserPasswordRecoveryRequested,
  UserPasswordReset,
  UserPasswordResetRequired,
  UserAuthReset,
  UserRenamed,
  UserEmailChanged,
  UserPrimaryClassificationChanged,
  UserDefaultPartnerTenantChanged,
  UserActiveCampaignIdChanged,
  UserAssignToAllClientsChanged,
  UserDeleted,
  UserJoinedTenant,
  UserTenantRoleChanged,
  UserTenantStatusChanged,
  UserTenantClassificationChanged,
  UserTenantJobTitleChanged,
  UserTenantReportPreferencesChanged,
  UserLeftTenant,
]);
export type UserEvent = z.infer<typeof UserEvent>;

export const userEventVersions = {
  UserRegistered: 1,
  UserEmailVerified: 1,
  UserLoggedIn: 1,
  UserPasswordSet: 1,
  UserPasswordChanged: 1,
  UserPasswordRecoveryRequested: 1,
  UserPasswordReset: 1,
  UserPasswordResetRequired: 1,
  UserAuthReset: 1,
  UserRenamed: 1,
  UserEmailChanged: 1,
  UserPrimaryClassificationChanged: 1,
  UserDefaultPartnerTenantChanged: 1,
  UserActiveCampaignIdChanged: 1,
  UserAssignToAllClientsChanged: 1,
  UserDeleted: 1,
  UserJoinedTenant: 1,
  UserTenantRoleChanged: 1,
  UserTenantStatusChanged: 1,
  UserTenantClassificationChanged: 1,
  UserTenantJobTitleChanged: 1,
  UserTenantReportPreferencesChanged: 1,
  UserLeftTenant: 1,
} as const satisfies Record<UserEvent['type'], number>;

/** Password hashes are listed too: erasing a user must leave no credential behind. */
export const userPersonalDataFields = {
  UserRegistered: [
    'Email',
    'GivenName',
    'FamilyName',
    'PasswordHash',
    'Referrer',
    'ReferrerIdentifier',
    'LandingPage',
  ],
  UserEmailVerified: ['Email'],
  UserLoggedIn: [],
  UserPasswordSet: ['PasswordHash'],
  UserPasswordChanged: ['PasswordHash'],
  UserPasswordRecoveryRequested: [],
  UserPasswordReset: ['PasswordHash'],
  UserPasswordResetRequired: [],
  UserAuthReset: [],
  UserRenamed: ['GivenName', 'FamilyName'],
  UserEmailChanged: ['Email'],
  UserPrimaryClassificationChanged: [],
  UserDefaultPartnerTenantChanged: [],
  UserActiveCampaignIdChanged: ['ActiveCampaignId'],
  UserAssignToAllClientsChanged: [],
  UserDeleted: [],
  UserJoinedTenant: ['JobTitle'],
  UserTenantRoleChanged: [],
  UserTenantStatusChanged: [],
  UserTenantClassificationChanged: [],
  UserTenantJobTitleChanged: ['JobTitle'],
  UserTenantReportPreferencesChanged: [],
  UserLeftTenant: [],
} as const satisfies PersonalDataFields<UserEvent>;
