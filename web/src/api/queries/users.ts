import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  PendingInvitesResponse,
  TeamMember,
  TeamResponse,
  UserWithTenants,
  type UpdateUserRequest,
  type UserStatusRequest,
} from '../../../../contracts/api/users';
import { InviteResponse, SessionResponse, type InviteRequest } from '../../../../contracts/auth';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId, useSessionQuery } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { sessionKey } from './session';
import { tenantResource, type TenantId } from './tenant-scope';

/** The team (GET /api/users) and one user (GET /api/users/{id}). */
export const usersResource = tenantResource('users');
/** Pending invitations (GET /api/users?pending=1). */
export const invitesResource = tenantResource('invites');

export const userQueries = {
  team: (api: ApiClient, tenantId: TenantId) =>
    queryOptions({
      queryKey: [...usersResource.key(tenantId), 'team'],
      queryFn: () => api.get('/api/users', { schema: TeamResponse }),
      enabled: tenantId !== null,
    }),
  /** A tenant admin's (portal.md section 6); nobody else asks. */
  pendingInvites: (api: ApiClient, tenantId: TenantId) =>
    queryOptions({
      queryKey: invitesResource.key(tenantId),
      queryFn: () => api.get('/api/users', { query: { pending: 1 }, schema: PendingInvitesResponse }),
      enabled: tenantId !== null,
    }),
  one: (api: ApiClient, input: { tenantId: TenantId; userId: number }) =>
    queryOptions({
      queryKey: [...usersResource.key(input.tenantId), 'one', input.userId],
      queryFn: () => api.get(`/api/users/${input.userId}`, { schema: UserWithTenants }),
      enabled: input.tenantId !== null,
    }),
};

export const useTeam = () => {
  const { api } = useAppServices();
  return useQuery(userQueries.team(api, useCurrentTenantId()));
};

export const usePendingInvites = (enabled: boolean) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery({ ...userQueries.pendingInvites(api, tenantId), enabled: tenantId !== null && enabled });
};

export const useUser = (userId: number) => {
  const { api } = useAppServices();
  return useQuery(userQueries.one(api, { tenantId: useCurrentTenantId(), userId }));
};

/**
 * After a change to the team, its lists refetch before the mutation settles (the server answers
 * read-your-writes), so a closing form never shows the old row.
 */
const useRefreshTeam = () => {
  const { queryClient } = useAppServices();
  const tenantId = useCurrentTenantId();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: usersResource.key(tenantId) }),
      queryClient.invalidateQueries({ queryKey: invitesResource.key(tenantId) }),
    ]);
};

/** POST /api/auth/invite. */
export const useInviteUser = () => {
  const { api } = useAppServices();
  const refreshTeam = useRefreshTeam();
  return useMutation({
    mutationFn: (body: InviteRequest) =>
      api.request('/api/auth/invite', { method: 'POST', body, schema: InviteResponse }),
    onSuccess: refreshTeam,
  });
};

/** DELETE /api/auth/invite/{uuid}. */
export const useCancelInvite = () => {
  const { api } = useAppServices();
  const refreshTeam = useRefreshTeam();
  return useMutation({
    mutationFn: (uuid: string) =>
      api.request(`/api/auth/invite/${encodeURIComponent(uuid)}`, { method: 'DELETE' }),
    onSuccess: refreshTeam,
  });
};

/**
 * PUT /api/users/{id}: a user's details, role or report toggles. A change to the signed-in user
 * refetches the session too, since it names them (the profile page).
 */
export const useUpdateUser = () => {
  const { api, queryClient } = useAppServices();
  const refreshTeam = useRefreshTeam();
  const signedInUserId = useSessionQuery().data?.user.Id;
  return useMutation({
    mutationFn: (input: { userId: number; body: UpdateUserRequest }) =>
      api.request(`/api/users/${input.userId}`, { method: 'PUT', body: input.body, schema: UserWithTenants }),
    onSuccess: (_user, input) =>
      Promise.all([
        refreshTeam(),
        input.userId === signedInUserId ? queryClient.invalidateQueries({ queryKey: sessionKey }) : null,
      ]),
  });
};

/** PUT /api/users/{id}/status: grant or revoke a member's access. */
export const useChangeUserStatus = () => {
  const { api } = useAppServices();
  const refreshTeam = useRefreshTeam();
  return useMutation({
    mutationFn: (input: { userId: number; body: UserStatusRequest }) =>
      api.request(`/api/users/${input.userId}/status`, {
        method: 'PUT',
        body: input.body,
        schema: TeamMember,
      }),
    onSuccess: refreshTeam,
  });
};

/**
 * POST /api/auth/leaveTenant: the answer is the session in another tenant; the caller replaces the
 * session with it (web/src/session/session-actions.ts), which drops this tenant's cache.
 */
export const useLeaveTenant = () => {
  const { api } = useAppServices();
  return useMutation({
    mutationFn: (tenantId: number) =>
      api.request('/api/auth/leaveTenant', {
        method: 'POST',
        body: { tenantId, confirmed: true },
        schema: SessionResponse,
      }),
  });
};
