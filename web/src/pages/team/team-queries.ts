import { useQuery } from '@tanstack/react-query';
import {
  PendingInvitesResponse,
  TeamMember,
  TeamResponse,
  UserWithTenants,
  type UpdateUserRequest,
  type UserStatusRequest,
} from '../../../../contracts/api/users';
import { InviteResponse, SessionResponse, type InviteRequest } from '../../../../contracts/auth';
import type { ApiClient } from '../../api/api-client';
import { resources, tenantKey } from '../../api/query-keys';
import { useAppServices } from '../../session/app-services-context';
import { useSessionQuery } from '../../session/session-query';

/** The team page's calls (portal.md section 7, Users). */
export const teamCalls = {
  invite: (api: ApiClient, body: InviteRequest) =>
    api.request('/api/auth/invite', { method: 'POST', body, schema: InviteResponse }),
  cancelInvite: (api: ApiClient, uuid: string) =>
    api.request(`/api/auth/invite/${encodeURIComponent(uuid)}`, { method: 'DELETE' }),
  updateUser: (api: ApiClient, input: { userId: number; body: UpdateUserRequest }) =>
    api.request(`/api/users/${input.userId}`, { method: 'PUT', body: input.body, schema: UserWithTenants }),
  changeStatus: (api: ApiClient, input: { userId: number; body: UserStatusRequest }) =>
    api.request(`/api/users/${input.userId}/status`, { method: 'PUT', body: input.body, schema: TeamMember }),
  leaveTenant: (api: ApiClient, tenantId: number) =>
    api.request('/api/auth/leaveTenant', {
      method: 'POST',
      body: { tenantId, confirmed: true },
      schema: SessionResponse,
    }),
};

/**
 * The tenant of the keys, read from the session query itself: a render during a tenant switch must
 * not ask for the old tenant's data (as the dashboard's queries do).
 */
const useTenantId = () => useSessionQuery().data?.tenant?.Id ?? null;

export const useTeam = () => {
  const { api } = useAppServices();
  const tenantId = useTenantId();
  return useQuery({
    queryKey: tenantKey(tenantId, resources.users),
    queryFn: () => api.get('/api/users', { schema: TeamResponse }),
    select: (answer: TeamResponse) => answer.members,
  });
};

// The cache holds the API's answers whole, shared with the dashboard's queries of the same keys.

/** Pending invitations: the tenant admin's (portal.md section 6); not asked for by anyone else. */
export const usePendingInvites = (enabled: boolean) => {
  const { api } = useAppServices();
  const tenantId = useTenantId();
  return useQuery({
    queryKey: tenantKey(tenantId, resources.invites),
    queryFn: () => api.get('/api/users', { query: { pending: 1 }, schema: PendingInvitesResponse }),
    select: (answer: PendingInvitesResponse) => answer.invites,
    enabled,
  });
};

export const useUser = (userId: number) => {
  const { api } = useAppServices();
  const tenantId = useTenantId();
  return useQuery({
    queryKey: tenantKey(tenantId, resources.users, userId),
    queryFn: () => api.get(`/api/users/${userId}`, { schema: UserWithTenants }),
  });
};

/** After a change to the team: the lists refetch (the server answers read-your-writes). */
export const useRefreshTeam = () => {
  const { queryClient } = useAppServices();
  const tenantId = useTenantId();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: tenantKey(tenantId, resources.users) }),
      queryClient.invalidateQueries({ queryKey: tenantKey(tenantId, resources.invites) }),
    ]);
};
