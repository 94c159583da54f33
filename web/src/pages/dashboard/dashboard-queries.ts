import { useQuery } from '@tanstack/react-query';
import { ClientsResponse, ClientUsersResponse } from '../../../../contracts/api/clients';
import { IntegrationsResponse } from '../../../../contracts/api/integrations';
import { RecipientsResponse } from '../../../../contracts/api/recipients';
import { Tenant } from '../../../../contracts/api/tenants';
import { PendingInvitesResponse, TeamResponse } from '../../../../contracts/api/users';
import { resources, tenantKey } from '../../api/query-keys';
import { useAppServices } from '../../session/app-services-context';
import { useSessionQuery } from '../../session/session-query';

/**
 * The current tenant's id for keys, read from the query cache itself: during a tenant switch a
 * render can come before the shell passes the new session down, and must not ask for the old tenant.
 */
export const useCurrentTenantId = (): number | null => useSessionQuery().data?.tenant?.Id ?? null;
const useTenantId = useCurrentTenantId;

export const useTenant = () => {
  const { api } = useAppServices();
  const tenantId = useTenantId();
  return useQuery({
    queryKey: tenantKey(tenantId, resources.tenant, tenantId),
    queryFn: () => api.get(`/api/tenants/${tenantId}`, { schema: Tenant }),
    enabled: tenantId !== null,
  });
};

export const useRecipients = () => {
  const { api } = useAppServices();
  const tenantId = useTenantId();
  return useQuery({
    queryKey: tenantKey(tenantId, resources.recipients),
    queryFn: () => api.get('/api/subscriptions', { schema: RecipientsResponse }),
    enabled: tenantId !== null,
  });
};

export const useTeam = () => {
  const { api } = useAppServices();
  const tenantId = useTenantId();
  return useQuery({
    queryKey: tenantKey(tenantId, resources.users),
    queryFn: () => api.get('/api/users', { schema: TeamResponse }),
    enabled: tenantId !== null,
  });
};

/** Pending invites are a tenant admin's (portal.md section 6); others never ask. */
export const usePendingInvites = (isAdmin: boolean) => {
  const { api } = useAppServices();
  const tenantId = useTenantId();
  return useQuery({
    queryKey: tenantKey(tenantId, resources.invites),
    queryFn: () => api.get('/api/users', { query: { pending: 1 }, schema: PendingInvitesResponse }),
    enabled: tenantId !== null && isAdmin,
  });
};

export const useIntegrations = () => {
  const { api } = useAppServices();
  const tenantId = useTenantId();
  return useQuery({
    queryKey: tenantKey(tenantId, resources.integrations),
    queryFn: () => api.get('/api/integrations', { schema: IntegrationsResponse }),
    enabled: tenantId !== null,
  });
};

export const useClients = (enabled: boolean) => {
  const { api } = useAppServices();
  const tenantId = useTenantId();
  return useQuery({
    queryKey: tenantKey(tenantId, resources.clients, {}),
    queryFn: () => api.get('/api/clients', { schema: ClientsResponse }),
    enabled: tenantId !== null && enabled,
  });
};

export const useClientUsers = (enabled: boolean) => {
  const { api } = useAppServices();
  const tenantId = useTenantId();
  return useQuery({
    queryKey: tenantKey(tenantId, resources.clientUsers),
    queryFn: () => api.get('/api/clients/users', { schema: ClientUsersResponse }),
    enabled: tenantId !== null && enabled,
  });
};
