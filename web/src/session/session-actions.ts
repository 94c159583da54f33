import type { SessionResponse } from '../../../contracts/auth';
import { logout, switchTenant } from '../api/auth-calls';
import { sessionKey } from '../api/query-keys';
import type { AppServices } from './app-services';
import { rememberLoginMethod } from './last-login-method';

/** After login or registration: the new session replaces whatever a previous user left behind. */
export const startSignedIn = (services: AppServices, session: SessionResponse): void => {
  services.queryClient.clear();
  services.clientState.reset();
  services.queryClient.setQueryData(sessionKey, session);
  rememberLoginMethod(session.user.LastLoginMethod);
};

/**
 * Logout (portal.md section 4): ends the server session, forgets the anti-forgery token, every
 * cached query and client choice, then shows /login with the reason.
 */
export const endSession = async (
  services: AppServices,
  options: { reason?: string; navigate?: boolean } = {},
) => {
  await logout(services.api, options.reason);
  services.api.csrf.forget();
  services.queryClient.clear();
  services.clientState.reset();
  services.queryClient.setQueryData(sessionKey, null);
  if (options.navigate !== false) {
    services.navigate(options.reason ? `/login?reason=${encodeURIComponent(options.reason)}` : '/login');
  }
};

/** Switching tenant replaces the session and drops the previous tenant's data and choices. */
export const switchToTenant = async (
  services: AppServices,
  input: { tenantId: number; to?: string },
): Promise<SessionResponse> => {
  const session = await switchTenant(services.api, input.tenantId);
  services.queryClient.clear();
  services.clientState.reset();
  services.queryClient.setQueryData(sessionKey, session);
  services.navigate(input.to ?? '/overview');
  return session;
};
