import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { sessionQuery } from '../api/queries/session';
import { useAppServices } from '../session/app-services-context';
import { rememberLoginMethod } from '../session/last-login-method';
import { takeLoginCookie } from '../session/login-cookie';
import { endSession } from '../session/session-actions';

/**
 * portal.md section 2.2: when a login cookie is present on navigation (after a redirect sign-in), the
 * current user is refreshed from the server and the cookie removed; a failed refresh logs out. The
 * cookie's anti-forgery token is used, or one is fetched.
 */
export const useLoginCookie = (): void => {
  const services = useAppServices();
  const location = useLocation();

  useEffect(() => {
    const cookie = takeLoginCookie();
    if (!cookie) return;
    if (cookie.csrfToken) services.api.csrf.set(cookie.csrfToken);
    else services.api.csrf.forget();
    rememberLoginMethod(cookie.method ?? null);
    void services.queryClient
      .fetchQuery({ ...sessionQuery(services.api), staleTime: 0 })
      .then((session) => (session ? undefined : endSession(services)))
      .catch(() => endSession(services));
  }, [location.key, services]);
};
