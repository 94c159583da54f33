import { QueryClient } from '@tanstack/react-query';
import { ApiClient } from '../api/api-client';
import type { SocketLike } from '../live/live-socket';
import { ClientState } from '../state/client-state';

/** What the app shares outside React: the API client, the query cache, client state and navigation. */
export type AppServices = {
  api: ApiClient;
  queryClient: QueryClient;
  clientState: ClientState;
  /** Set once the router exists; navigation from outside components (a tenant switch). */
  navigate: (to: string) => void;
  /** Leaves the app for another site (the payment provider's billing portal). */
  leaveApp: (url: string) => void;
  /** Why the last session ended (Session Idle, Access Denied), for the login page to say. */
  logoutReason: { current: string | null };
  /** Opens the live websocket; null where there is none (component tests that do not need it). */
  openLiveSocket: ((url: string) => SocketLike) | null;
};

export const createAppServices = (
  options: {
    api?: ApiClient;
    queryClient?: QueryClient;
    openLiveSocket?: ((url: string) => SocketLike) | null;
  } = {},
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
  leaveApp: (url) => window.location.assign(url),
  logoutReason: { current: null },
  openLiveSocket:
    options.openLiveSocket !== undefined
      ? options.openLiveSocket
      : typeof WebSocket === 'undefined'
        ? null
        : (url) => new WebSocket(url) as unknown as SocketLike,
});
