import { z } from 'zod';
import { EntityId, IsoDateTime } from './events/values';

/** portal.md section 5: the password rule, its hint and its failure text, shared by the browser and the API. */
export const passwordHint =
  'At least 8 characters long, using numbers, lower case letters, and upper case letters.';
export const passwordRuleMessage = 'Your password does not meet the required criteria.';

export const Password = z
  .string({ error: 'Password is required' })
  .min(1, { error: 'Password is required', abort: true })
  .min(8, 'The supplied value is too short.')
  .max(128, passwordRuleMessage)
  .refine((value) => /\d/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value), passwordRuleMessage);

export const Email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, { error: 'Email is required', abort: true })
  .email('Email is invalid');

/** POST /api/auth/login */
export const LoginRequest = z
  .object({
    email: Email,
    // Login never reveals the policy: any non-empty password is checked against the hash.
    password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
  })
  .strict();
export type LoginRequest = z.infer<typeof LoginRequest>;

/** POST /api/auth/resetPassword */
export const ResetPasswordRequest = z
  .object({ password: Password, currentPassword: z.string().max(1024).optional() })
  .strict();
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

/** POST /api/auth/recoverPassword */
export const RecoverPasswordRequest = z.object({ email: Email }).strict();

export const loginMessages = {
  invalidCredentials: 'Invalid credentials supplied.',
  tooManyAttempts: 'Too many login attempts. Please wait 30 minutes and try again.',
  tooManyRecoveries: 'Too many requests to reset the password. Please wait or contact support.',
} as const;

/** The method a user last signed in with, for the login page's reminder. */
export const LoginMethod = z.enum(['password', 'google', 'microsoft']);
export type LoginMethod = z.infer<typeof LoginMethod>;

/** GET /api/auth/token: the anti-forgery token every write echoes in `x-csrf-token`. */
export const CsrfTokenResponse = z.object({ csrfToken: z.string() });

const Name = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100);

/** POST /api/auth/register: the Get started form, plus the marketing attribution of the sign-up link. */
export const RegisterRequest = z
  .object({
    givenName: Name('First name'),
    familyName: Name('Last name'),
    email: Email,
    password: Password,
    classification: z.enum(['BUSINESS', 'FIRM']).optional(),
    referrer: z.string().trim().max(200).optional(),
    referrerIdentifier: z.string().trim().max(200).optional(),
    landingPage: z.string().trim().max(500).optional(),
    planIdentifier: z.string().trim().max(100).optional(),
  })
  .strict();
export type RegisterRequest = z.infer<typeof RegisterRequest>;

/** POST /api/auth/switchTenant */
export const SwitchTenantRequest = z.object({ tenantId: z.coerce.number().int().positive() }).strict();

/** POST /api/auth/leaveTenant: the user must tick "I understand that I will lose access to manage this company". */
export const LeaveTenantRequest = z
  .object({
    tenantId: z.coerce.number().int().positive().optional(),
    confirmed: z.literal(true, { error: 'Please confirm that you understand you will lose access.' }),
  })
  .strict();

/** GET /api/auth/logout?reason=: why the session ended (Session Idle, Access Denied...), shown on the login page. */
export const LogoutQuery = z.object({ reason: z.string().trim().max(100).optional() }).strict();
/** POST /api/auth/logout, what the web app uses (the GET of the spec needs the anti-forgery header). */
export const LogoutRequest = LogoutQuery;
export const LogoutResponse = z.object({ loggedOut: z.literal(true), reason: z.string().nullable() });

export const RecoverPasswordResponse = z.object({ message: z.string() });
export const recoverySentMessage =
  'Successfully sent password recovery email. The request is valid for 30 minutes.';
export const passwordChangedMessage = 'Successfully updated your password.';

/** The signed-in user as GET /api/auth/self and every sign-in call answer it. */
export const SessionResponse = z.object({
  user: z.object({
    Id: z.number(),
    Email: z.string(),
    GivenName: z.string(),
    FamilyName: z.string(),
    Name: z.string(),
    PrimaryClassification: z.enum(['MEMBER', 'ADVISOR']),
    AuthProvider: z.enum(['password', 'google', 'microsoft']).nullable(),
    LastLoginMethod: z.enum(['password', 'google', 'microsoft']).nullable(),
    Logins: z.number(),
    EmailVerified: z.boolean(),
    DefaultPartnerTenantId: z.number().nullable(),
    isPlatformAdmin: z.boolean(),
    /** PLATFORM_ADMIN, or the role in the current tenant. */
    Role: z.enum(['PLATFORM_ADMIN', 'ADMIN', 'USER']).nullable(),
  }),
  /** The tenant the session works in; null before the welcome modal has created one. */
  tenant: z
    .object({
      Id: z.number(),
      Name: z.string(),
      FriendlyName: z.string().nullable(),
      Classification: z.enum(['BUSINESS', 'FIRM']),
      UsageType: z.enum(['NORMAL', 'TEST', 'INTERNAL', 'DEMO']),
    })
    .nullable(),
  membership: z
    .object({
      Role: z.enum(['ADMIN', 'USER']),
      Status: z.enum(['ACTIVE', 'INACTIVE']),
      Classification: z.enum(['MEMBER', 'ADVISOR']),
    })
    .nullable(),
  /** The tenant switcher: active memberships, by name. */
  tenants: z.array(
    z.object({
      Id: z.number(),
      Name: z.string(),
      Classification: z.enum(['BUSINESS', 'FIRM']),
      UsageType: z.enum(['NORMAL', 'TEST', 'INTERNAL', 'DEMO']),
      Role: z.enum(['ADMIN', 'USER']),
      MembershipClassification: z.enum(['MEMBER', 'ADVISOR']),
    }),
  ),
  resetPasswordRequired: z.boolean(),
  /** When the session ends without activity; the browser warns a minute before (idle banner). */
  idleExpiresAt: IsoDateTime,
  idleTimeoutSeconds: z.number(),
});
export type SessionResponse = z.infer<typeof SessionResponse>;

/** POST /api/auth/invite: the invite form (portal.md section 3, Forms; rules in section 5). */
export const InviteRequest = z
  .object({
    name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200),
    email: Email,
    role: z.enum(['ADMIN', 'USER', 'ADVISOR']).nullable().optional(),
    jobTitle: z.string().trim().max(100).nullable().optional(),
    subscribeToReports: z.boolean().default(false),
    classifyAsAdvisor: z.boolean().default(false),
    workflow: z.enum(['STANDARD', 'ACCOUNTING_ADMIN']).default('STANDARD'),
  })
  .strict();
export type InviteRequest = z.infer<typeof InviteRequest>;

export const InviteResponse = z.object({
  Uuid: z.uuid(),
  Email: z.string(),
  Name: z.string(),
  /** sent when the email went out; pending when it could not be sent yet. */
  status: z.enum(['pending', 'sent']),
});

export const InviteIdParam = z.object({ id: z.uuid() }).strict();

/** The invitation web page posts what the emailed link holds: the invite's Uuid and its secret token. */
export const AcceptInvitationRequest = z
  .object({
    inviteId: z.uuid(),
    /** 32 random bytes, base64url (docs/adr/0020-invitation-tokens.md). */
    token: z.string().regex(/^[\w-]{43}$/, 'must be the token of the invitation link'),
  })
  .strict();
export type AcceptInvitationRequest = z.infer<typeof AcceptInvitationRequest>;

/**
 * joined: the invitee is a member now and signed in (a new account chooses its password next);
 * signInRequired: the address has an account, so its owner signs in as themselves and accepts again.
 */
export const AcceptInvitationResponse = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('joined'),
    tenantId: EntityId,
    next: z.enum(['/overview', '/reset-password']),
  }),
  z.object({ outcome: z.literal('signInRequired'), email: z.string() }),
]);
export type AcceptInvitationResponse = z.infer<typeof AcceptInvitationResponse>;

/** What the invitation answers when the link is used, cancelled, superseded, expired or not genuine. */
export const invitationNoLongerValid = 'Oops! It seems that this invitation is no longer valid.';
export const invitationForAnotherAccount =
  'This invitation was sent to a different email address. Sign out, then open the invitation link again to accept it.';
