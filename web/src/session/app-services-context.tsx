import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { AppServices } from './app-services';

const AppServicesContext = createContext<AppServices | null>(null);

export const useAppServices = (): AppServices => {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error('useAppServices outside <AppServicesProvider>');
  return services;
};

/** Provides the services, the query cache and the current jotai store (replaced on logout and switch). */
export const AppServicesProvider = ({
  services,
  children,
}: {
  services: AppServices;
  children: ReactNode;
}) => {
  const { clientState } = services;
  const store = useSyncExternalStore(clientState.subscribe, clientState.store);
  return (
    <AppServicesContext.Provider value={services}>
      <QueryClientProvider client={services.queryClient}>
        <JotaiProvider store={store}>{children}</JotaiProvider>
      </QueryClientProvider>
    </AppServicesContext.Provider>
  );
};
