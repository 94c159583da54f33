import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { ClientsResponse, ClientUsersResponse } from '../../../../contracts/api/clients';
import {
  BatchUpdateTenantsResponse,
  Tenant,
  type BatchUpdateTenantsRequest,
  type CreateTenantRequest,
} from '../../../../contracts/api/tenants';
import type { ApiClient } from '../../api/api-client';
import { resources, tenantKey } from '../../api/query-keys';
import { useAppServices } from '../../session/app-services-context';
import { useSessionQuery } from '../../session/session-query';

export const clientCalls = {
  batchUpdate: (api: ApiClient, body: BatchUpdateTenantsRequest) =>
    api.request('/api/tenants/batch', { method: 'PUT', body, schema: BatchUpdateTenantsResponse }),
  create: (api: ApiClient, body: CreateTenantRequest) =>
    api.request('/api/tenants', { method: 'POST', body, schema: Tenant }),
};

// The cache holds the API's answers whole, shared with the dashboard's queries of the same keys.

/** GET /api/clients: every client of the advisor, by name with Demo Client last; filtered in the page. */
export const useClients = () => {
  const { api } = useAppServices();
  const tenantId = useSessionQuery().data?.tenant?.Id ?? null;
  return useQuery({
    queryKey: tenantKey(tenantId, resources.clients),
    queryFn: () => api.get('/api/clients', { schema: ClientsResponse }),
    select: (answer: z.infer<typeof ClientsResponse>) => answer.clients,
  });
};

/** GET /api/clients/users: Manage Users Across Your Clients. */
export const useClientUsers = () => {
  const { api } = useAppServices();
  const tenantId = useSessionQuery().data?.tenant?.Id ?? null;
  return useQuery({
    queryKey: tenantKey(tenantId, resources.clientUsers),
    queryFn: () =>
      api.get('/api/clients/users', { schema: ClientUsersResponse }).then((answer) => answer.users),
  });
};
