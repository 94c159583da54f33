import { match } from 'ts-pattern';
import { AppError } from '../../contracts/errors';
import type { LoginMethod, UserEvent } from '../../contracts/events/user';
import { blankToNull, invalidFields, rejectInvalid } from '../field-problems';
import { normaliseEmail } from './email';
import type { UserState } from './user';
import { emailProblems, existing, nameProblems, requireSelf, text, type UserCommandOf } from './user-rules';

/** The account's own life: registering, verifying the address, signing in, passwords and their recovery. */

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

export type AccountCommand =
  RegisterUser | VerifyUserEmail | RecordLogin | ChangePassword | RequestPasswordRecovery | RecoverPassword;

export const accountCommandTypes = [
  'RegisterUser',
  'VerifyUserEmail',
  'RecordLogin',
  'ChangePassword',
  'RequestPasswordRecovery',
  'RecoverPassword',
] as const satisfies readonly AccountCommand['type'][];

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

export const decideAccount = (command: AccountCommand, state: UserState): UserEvent[] =>
  match(command)
    .with({ type: 'RegisterUser' }, (c) => decideRegister(c, state))
    .with({ type: 'VerifyUserEmail' }, (c) => decideVerifyEmail(c, state))
    .with({ type: 'RecordLogin' }, (c) => decideLogin(c, state))
    .with({ type: 'ChangePassword' }, (c) => decideChangePassword(c, state))
    .with({ type: 'RequestPasswordRecovery' }, (c) => decideRequestRecovery(c, state))
    .with({ type: 'RecoverPassword' }, (c) => decideRecover(c, state))
    .exhaustive();
