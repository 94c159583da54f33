import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../api-client';
import { fetchSession } from '../auth-calls';

/** The one key outside a tenant: the session is what names the current tenant. */
export const sessionKey = ['session'] as const;

/** GET /api/auth/self: the signed-in user and their current tenant; null for a guest. */
export const sessionQuery = (api: ApiClient) =>
  // The API client is the app's one service, not an input of the answer: it stays out of the key.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  queryOptions({
    queryKey: sessionKey,
    queryFn: () => fetchSession(api),
    staleTime: 60_000,
  });
