import type { SessionResponse } from '../../../contracts/auth';
import { logout, switchTenant } from '../api/auth-calls';
import { sessionKey } from '../api/queries/session';
import type { AppServices } from './app-services';
import { rememberLoginMethod } from './last-login-method';

/**
 * Drops every cached query and client choice, and puts the new session (or null) in place at once, so
 * no component ever sees the old tenant's data or a missing session in between.
 */
export const replaceSession = (services: AppServices, session: SessionResponse | null): void => {
  const { queryClient } = services;
  void queryClient.cancelQueries();
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
  queryClient.setQueryData(sessionKey, session);
  services.clientState.reset();
};

/** After login or registration: the new session replaces whatever a previous user left behind. */
export const startSignedIn = (services: AppServices, session: SessionResponse): void => {
  replaceSession(services, session);
  services.logoutReason.current = null;
  rememberLoginMethod(session.user.LastLoginMethod);
};

/**
 * Logout (portal.md section 4): ends the server session, forgets the anti-forgery token, every
 * cached query and client choice. The route guard then sends the user to /login, keeping the page as
 * the return address; the login page says why the session ended.
 */
export const endSession = async (services: AppServices, options: { reason?: string } = {}): Promise<void> => {
  await logout(services.api, options.reason);
  services.api.csrf.forget();
  services.logoutReason.current = options.reason ?? null;
  replaceSession(services, null);
};

/** Switching tenant replaces the session and drops the previous tenant's data and choices. */
export const switchToTenant = async (
  services: AppServices,
  input: { tenantId: number; to?: string },
): Promise<SessionResponse> => {
  const session = await switchTenant(services.api, input.tenantId);
  replaceSession(services, session);
  services.navigate(input.to ?? '/overview');
  return session;
};
