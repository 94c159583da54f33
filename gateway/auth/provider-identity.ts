import type { IDToken } from 'openid-client';
import { providerSignInMessages, type SignInProvider } from '../../contracts/api/oidc';
import { AppError } from '../../contracts/errors';
import type { ProviderIdentity } from '../use-cases/auth/sign-in-with-provider';

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * Google states `email_verified`. Microsoft rarely does; its `xms_edov` optional claim says the
 * address's domain is verified by the account's owner, the only Microsoft signal that an email may
 * be trusted (docs/adr/0014-oidc-and-provider-connect.md).
 */
const isVerified = (provider: SignInProvider, claims: IDToken): boolean =>
  claims.email_verified === true || (provider === 'microsoft' && claims.xms_edov === true);

/** The person an ID token names; names fall back to the full name's words. */
export const identityFromClaims = (provider: SignInProvider, claims: IDToken): ProviderIdentity => {
  const email = text(claims.email);
  if (!email)
    throw new AppError('unauthorized', providerSignInMessages.noEmail, { message: 'no email claim' });
  const words = text(claims.name).split(/\s+/).filter(Boolean);
  return {
    provider,
    email,
    emailVerified: isVerified(provider, claims),
    givenName: text(claims.given_name) || words[0] || email.split('@')[0] || '',
    familyName: text(claims.family_name) || words.slice(1).join(' '),
  };
};
