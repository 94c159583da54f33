import { StrictMode } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { logoutReasons } from './api/error-catalogue';
import { appRoutes } from './routing/app-routes';
import type { AppServices } from './session/app-services';
import { AppServicesProvider } from './session/app-services-context';
import { endSession } from './session/session-actions';

/**
 * Wires the services to the router: navigation from outside components, and the API client's forced
 * logout (401 or 403 anywhere ends the session with reason Access Denied, once).
 */
export const createApp = (services: AppServices) => {
  const router = createBrowserRouter(appRoutes);
  services.navigate = (to) => void router.navigate(to, { replace: true });
  let endingSession = false;
  services.api.onAccessDenied = () => {
    if (endingSession) return;
    endingSession = true;
    void endSession(services, { reason: logoutReasons.accessDenied }).finally(() => {
      endingSession = false;
    });
  };
  return (
    <StrictMode>
      <AppServicesProvider services={services}>
        <RouterProvider router={router} />
      </AppServicesProvider>
    </StrictMode>
  );
};
