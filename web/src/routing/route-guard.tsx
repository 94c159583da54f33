import { Suspense, useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { useAppServices } from '../session/app-services-context';
import { endSession } from '../session/session-actions';
import { factsOf } from '../session/session-facts';
import { useSessionQuery } from '../session/session-query';
import { titleOf, type RouteMeta } from './route-access';
import { guardDecision } from './guard-decision';
import { LoadingStatus } from './lazy-page';
import { useLoginCookie } from './use-login-cookie';

export type RouteHandle = { meta: RouteMeta };

const notFoundMeta: RouteMeta = { name: 'Not Found', access: 'any' };

/** The deepest matched route that declares its meta: every page route does. */
const useRouteMeta = (): RouteMeta => {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as RouteHandle | undefined;
    if (handle?.meta) return handle.meta;
  }
  return notFoundMeta;
};

/** Applies the route guard rules of portal.md section 2.2 to every navigation and sets the title. */
export const RouteGuard = () => {
  const services = useAppServices();
  const location = useLocation();
  const meta = useRouteMeta();
  const session = useSessionQuery();
  const loggingOut = useRef(false);
  useLoginCookie();

  useEffect(() => {
    document.title = titleOf(meta);
  }, [meta]);

  const path = `${location.pathname}${location.search}`;
  const decision =
    session.isPending || session.isError
      ? null
      : guardDecision({ route: meta, path, session: session.data ? factsOf(session.data) : null });

  useEffect(() => {
    if (decision?.kind !== 'logout' || loggingOut.current) return;
    loggingOut.current = true;
    void endSession(services).finally(() => {
      loggingOut.current = false;
    });
  }, [decision?.kind, services]);

  if (session.isError) {
    return (
      <p role="alert" className="p-6 text-sm text-red-700">
        {session.error.message}
      </p>
    );
  }
  if (!decision) return <LoadingStatus />;
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'logout' && session.data) return null;
  // The pages and the shell load their chunks on first use.
  return (
    <Suspense fallback={<LoadingStatus />}>
      <Outlet />
    </Suspense>
  );
};
