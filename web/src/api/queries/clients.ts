import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { ClientsResponse, ClientUsersResponse } from '../../../../contracts/api/clients';
import {
  BatchUpdateTenantsResponse,
  type BatchUpdateTenantsRequest,
} from '../../../../contracts/api/tenants';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, type TenantId } from './tenant-scope';

/** The advisor's clients (GET /api/clients). */
export const clientsResource = tenantResource('clients');
/** The users of every client (GET /api/clients/users): Manage Users Across Your Clients. */
export const clientUsersResource = tenantResource('client-users');

// The cache holds each answer whole, as its contract parses it; a page picks what it shows.
export const clientQueries = {
  /** Every client of the advisor, by name with Demo Client last; pages filter it themselves. */
  list: (api: ApiClient, tenantId: TenantId) =>
    queryOptions({
      queryKey: clientsResource.key(tenantId),
      queryFn: () => api.get('/api/clients', { schema: ClientsResponse }),
      enabled: tenantId !== null,
    }),
  users: (api: ApiClient, tenantId: TenantId) =>
    queryOptions({
      queryKey: clientUsersResource.key(tenantId),
      queryFn: () => api.get('/api/clients/users', { schema: ClientUsersResponse }),
      enabled: tenantId !== null,
    }),
};

/** Only advisors ask for clients: `enabled` false for the others. */
export const useClients = (enabled = true) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery({ ...clientQueries.list(api, tenantId), enabled: tenantId !== null && enabled });
};

export const useClientUsers = (enabled = true) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery({ ...clientQueries.users(api, tenantId), enabled: tenantId !== null && enabled });
};

/** PUT /api/tenants/batch: the clients page's bulk edit and Change Plan; the list refetches after. */
export const useBatchUpdateClients = () => {
  const { api, queryClient } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useMutation({
    mutationFn: (body: BatchUpdateTenantsRequest) =>
      api.request('/api/tenants/batch', { method: 'PUT', body, schema: BatchUpdateTenantsResponse }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientsResource.key(tenantId) }),
  });
};
