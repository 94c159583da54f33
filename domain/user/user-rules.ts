import { AppError } from '../../contracts/errors';
import type { Actor } from '../actor';
import type { DomainCommand } from '../decider';
import type { FieldProblem as Problem } from '../field-problems';
import { isValidEmail } from './email';
import type { Membership, User, UserState } from './user';

/**
 * What the user decider's commands share (decide-account, decide-platform-fields, decide-membership):
 * the command shape, the texts users see, and the checks of who may do what.
 *
 * For membership commands, `actor.tenantRole` is the actor's role in the tenant the command names
 * (data.tenantId); the command layer fills it from the actor's own user stream or read model.
 */
export type UserCommandOf<Type extends string, Data> = DomainCommand<Type, Data> & { actor: Actor };

export const text = {
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

export const emailProblems = (email: string, emailInUse: boolean): Problem[] => {
  if (email === '') return [{ field: 'email', code: 'required', message: text.emailRequired }];
  if (!isValidEmail(email)) return [{ field: 'email', code: 'invalid', message: text.emailInvalid }];
  if (emailInUse) return [{ field: 'email', code: 'not_unique', message: text.emailInUse }];
  return [];
};

export const nameProblems = (givenName: string, familyName: string): Problem[] => [
  ...(givenName === ''
    ? [{ field: 'givenName', code: 'required', message: text.givenNameRequired } as const]
    : []),
  ...(familyName === ''
    ? [{ field: 'familyName', code: 'required', message: text.familyNameRequired } as const]
    : []),
];

/** A deleted user is gone for every command. */
export const existing = (state: UserState): User => {
  if (state.status !== 'registered') throw new AppError('not_found', text.notFound);
  return state;
};

export const isSelf = (actor: Actor, user: User): boolean => actor.userId === user.userId;

export const requireSelf = (actor: Actor, user: User): void => {
  if (!isSelf(actor, user)) throw new AppError('forbidden', text.onlySelf);
};

export const requirePlatformAdmin = (actor: Actor): void => {
  if (!actor.isPlatformAdmin) throw new AppError('forbidden', text.onlyPlatformAdmin);
};

export const requireTenantAdmin = (actor: Actor): void => {
  if (!actor.isPlatformAdmin && actor.tenantRole !== 'ADMIN')
    throw new AppError('forbidden', text.onlyTenantAdmin);
};

export const membershipOf = (user: User, tenantId: number): Membership => {
  const membership = user.memberships[tenantId];
  if (!membership) throw new AppError('not_found', text.notMember);
  return membership;
};
