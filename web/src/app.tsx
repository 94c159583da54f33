import { StrictMode } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { logoutReasons } from './api/error-catalogue';
import { appRoutes } from './routing/app-routes';
import type { AppServices } from './session/app-services';
import { AppServicesProvider } from './session/app-services-context';
import { endSession } from './session/session-actions';

/** A browser router in the app, a memory router in tests: the same type. */
type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * Wires the services to the router: navigation from outside components, and the API client's forced
 * logout (a 401 or 403 anywhere ends the session with reason Access Denied, once).
 */
export const connectServices = (services: AppServices, router: AppRouter): void => {
  services.navigate = (to) => void router.navigate(to, { replace: true });
  let endingSession = false;
  services.api.onAccessDenied = () => {
    if (endingSession) return;
    endingSession = true;
    void endSession(services, { reason: logoutReasons.accessDenied }).finally(() => {
      endingSession = false;
    });
  };
};

export const AppRoot = ({ services, router }: { services: AppServices; router: AppRouter }) => (
  <AppServicesProvider services={services}>
    <RouterProvider router={router} />
  </AppServicesProvider>
);

export const createApp = (services: AppServices) => {
  const router = createBrowserRouter(appRoutes);
  connectServices(services, router);
  return (
    <StrictMode>
      <AppRoot services={services} router={router} />
    </StrictMode>
  );
};
