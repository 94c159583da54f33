import { ReturnPath } from '../../../contracts/api/oidc';
import type { SessionFacts } from '../session/session-facts';
import type { RouteMeta } from './route-access';

export type GuardDecision = { kind: 'show' } | { kind: 'redirect'; to: string } | { kind: 'logout' };

export const resetPasswordPath = '/reset-password';

const loginWithReturn = (path: string) =>
  path === '/' ? '/login' : `/login?returnTo=${encodeURIComponent(path)}`;

/**
 * The route guard rules of portal.md section 2.2, in order: force-logout pages end the session; a
 * mandatory password reset sends the user to /reset-password from every other page; guests-only pages
 * send users to /; pages needing a session send guests to /login keeping the return address; pages for
 * a standing the user lacks send them to /.
 */
export const guardDecision = (input: {
  route: RouteMeta;
  /** The path with its query string, kept as the return address. */
  path: string;
  session: SessionFacts | null;
}): GuardDecision => {
  const { route, session } = input;
  if (route.forceLogout) return session ? { kind: 'logout' } : { kind: 'show' };
  if (session?.resetPasswordRequired && !input.path.startsWith(resetPasswordPath)) {
    return { kind: 'redirect', to: resetPasswordPath };
  }
  switch (route.access) {
    case 'any':
      return { kind: 'show' };
    case 'guestOnly':
      return session ? { kind: 'redirect', to: signedInTarget(input.path, session) } : { kind: 'show' };
    case 'signedIn':
    case 'advisor':
    case 'tenantAdmin':
    case 'platformAdmin': {
      if (!session) return { kind: 'redirect', to: loginWithReturn(input.path) };
      if (session.isPlatformAdmin) return { kind: 'show' };
      const allowed =
        route.access === 'signedIn' ||
        (route.access === 'advisor' && session.isAdvisor) ||
        (route.access === 'tenantAdmin' && session.isTenantAdmin);
      return allowed ? { kind: 'show' } : { kind: 'redirect', to: '/' };
    }
  }
};

/**
 * A signed-in user on a guest page goes to /; right after logging in on /login (the session has just
 * arrived) they go to the login's return address or the platform admin's home instead.
 */
const signedInTarget = (path: string, session: SessionFacts): string => {
  if (!path.startsWith('/login')) return '/';
  const returnTo = new URLSearchParams(path.split('?')[1] ?? '').get('returnTo');
  return afterLoginPath({ returnTo, isPlatformAdmin: session.isPlatformAdmin });
};

/** Where a successful login goes: the return address when it is a path of this site, else home. */
export const afterLoginPath = (input: { returnTo: string | null; isPlatformAdmin: boolean }): string => {
  const returnTo = input.returnTo && ReturnPath.safeParse(input.returnTo).success ? input.returnTo : null;
  if (returnTo && !returnTo.startsWith('/login')) return returnTo;
  return input.isPlatformAdmin ? '/admin/overview' : '/overview';
};
