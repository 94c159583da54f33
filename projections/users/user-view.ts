import type { Db } from 'mongodb';
import type { User } from '../../contracts/api/users';
import type { LoginMethod } from '../../contracts/events/user';
import { currentCollection } from '../framework/read-model-versions';
import { usersProjection, type UserDocument } from './users-projection';

/** The User entity as the admin and portal screens read it (no credentials): the API's User. */
export type UserView = User;

export const usersCollection = (db: Db) =>
  currentCollection<keyof typeof usersProjection.collections, UserDocument>(db, usersProjection, 'users');

/**
 * google or microsoft when the account signs in through them, password when it has one, else null: as
 * the user decider derives it, the sign-up provider stays and a password alone means 'password'.
 */
const authProviderOf = (user: UserDocument): LoginMethod | null =>
  user.signupProvider ?? (user.hasPassword ? 'password' : null);

export const toUserView = (user: UserDocument): UserView => ({
  Id: user._id,
  Email: user.Email,
  GivenName: user.GivenName,
  FamilyName: user.FamilyName,
  Name: user.Name,
  JobTitle: user.JobTitle,
  PrimaryClassification: user.PrimaryClassification,
  AuthProvider: authProviderOf(user),
  Logins: user.Logins,
  LastLogin: user.LastLogin ? user.LastLogin.toISOString() : null,
  LastLoginMethod: user.LastLoginMethod,
  createdAt: user.createdAt.toISOString(),
  DefaultPartnerTenantId: user.DefaultPartnerTenantId,
  ActiveCampaignId: user.ActiveCampaignId ?? null,
  AssignToAllClients: user.AssignToAllClients ?? false,
  EmailVerified: user.EmailVerified,
  PasswordResetRequired: user.PasswordResetRequired,
  deleted: user.deleted,
});
