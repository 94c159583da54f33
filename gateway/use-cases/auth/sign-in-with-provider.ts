import type { FastifyReply } from 'fastify';
import { providerSignInMessages, type SignInProvider } from '../../../contracts/api/oidc';
import type { SessionResponse } from '../../../contracts/auth';
import { AppError } from '../../../contracts/errors';
import { normaliseEmail } from '../../../domain/user/email';
import { userDecider } from '../../../domain/user/user-decider';
import { userIdByEmail } from '../../../projections/users/user-facts';
import { loadAggregate } from '../../execute-command';
import { registerUser } from './register-user';
import { startSession } from './start-session';
import { userStream } from '../../../contracts/stream-ids';

/** What a validated ID token says about the person (openid-client checked its signature and claims). */
export type ProviderIdentity = {
  provider: SignInProvider;
  email: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
};

export type SignUpDetails = {
  referrer?: string;
  referrerIdentifier?: string;
  landingPage?: string;
  planIdentifier?: string;
};

/**
 * Signs in the user who owns the token's email address, or registers one. An existing account is
 * entered only on an address the provider verified: otherwise anyone able to create a provider
 * account with someone else's address could take over their account.
 */
export const signInWithProvider = async (
  reply: FastifyReply,
  identity: ProviderIdentity,
  signUp: SignUpDetails | null,
): Promise<SessionResponse> => {
  const { request } = reply;
  const { services } = request.server;
  const email = normaliseEmail(identity.email);
  const { userId } = await userIdByEmail(services.db, { email, ...request.readAfter });
  if (userId !== null) {
    const { state } = await loadAggregate(request, userDecider, userStream(userId));
    if (state.status === 'registered') {
      if (!identity.emailVerified)
        throw new AppError('unauthorized', providerSignInMessages.unverifiedEmail, {
          message: `${identity.provider} did not verify the address of user ${userId}`,
        });
      return startSession(reply, { userId, email: state.email }, { method: identity.provider });
    }
  }
  const newUserId = await registerUser(reply, {
    email,
    givenName: identity.givenName,
    familyName: identity.familyName,
    authProvider: identity.provider,
    passwordHash: null,
    emailVerified: identity.emailVerified,
    referrer: signUp?.referrer ?? null,
    referrerIdentifier: signUp?.referrerIdentifier ?? null,
    landingPage: signUp?.landingPage ?? null,
    planIdentifier: signUp?.planIdentifier ?? null,
  });
  return startSession(reply, { userId: newUserId, email }, { method: identity.provider });
};
