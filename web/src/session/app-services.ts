import { QueryClient } from '@tanstack/react-query';
import { ApiClient } from '../api/api-client';
import { ClientState } from '../state/client-state';

/** What the app shares outside React: the API client, the query cache, client state and navigation. */
export type AppServices = {
  api: ApiClient;
  queryClient: QueryClient;
  clientState: ClientState;
  /** Set once the router exists; navigation from outside components (a tenant switch). */
  navigate: (to: string) => void;
  /** Why the last session ended (Session Idle, Access Denied), for the login page to say. */
  logoutReason: { current: string | null };
};

export const createAppServices = (
  options: { api?: ApiClient; queryClient?: QueryClient } = {},
): AppServices => ({
  api:
    options.api ??
    new ApiClient({ onReport: (error, context) => console.error('API failure', context.path, error) }),
  queryClient:
    options.queryClient ??
    new QueryClient({
      defaultOptions: {
        // The API client retries what is worth retrying; react-query must not multiply it.
        queries: { staleTime: 30_000, retry: false },
        mutations: { retry: false },
      },
    }),
  clientState: new ClientState(),
  navigate: (to) => window.history.pushState(null, '', to),
  logoutReason: { current: null },
});
