import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { ApiClient } from '../api/api-client';
import { AppRoot, connectServices } from '../app';
import { appRoutes } from '../routing/app-routes';
import { preloadPages } from '../routing/lazy-page';
import { createAppServices } from '../session/app-services';
import type { SocketLike } from '../live/live-socket';
import type { FakeFetch } from './fake-fetch';

// Pages are lazy chunks (web/src/routing/app-routes.tsx); every test file that renders the app loads
// them before its first test, so no test's waits include compiling them.
beforeAll(() => preloadPages(), 30_000);

/** The whole app at `path` in memory, talking to a scripted API. */
export const renderApp = (input: {
  path: string;
  fake: FakeFetch;
  /** The live websocket; none unless a test gives one. */
  openLiveSocket?: (url: string) => SocketLike;
  /** The query cache; by default one that treats every answer as stale at once. */
  queryClient?: QueryClient;
}) => {
  let keys = 0;
  const api = new ApiClient({
    fetch: input.fake.fetch,
    sleep: () => Promise.resolve(),
    newIdempotencyKey: () => `test-key-${++keys}`,
  });
  const queryClient =
    input.queryClient ??
    new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const services = createAppServices({ api, queryClient, openLiveSocket: input.openLiveSocket ?? null });
  const router = createMemoryRouter(appRoutes, { initialEntries: [input.path] });
  connectServices(services, router);
  const view = render(<AppRoot services={services} router={router} />);
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...view, router, services, location };
};
