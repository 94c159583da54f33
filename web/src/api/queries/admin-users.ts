import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { Done } from '../../../../contracts/api/common';
import { UserListResponse, UserWithTenants, type UpdateUserRequest } from '../../../../contracts/api/users';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import { tenantResource, useInvalidateResources } from './tenant-scope';

/** The admin users table (GET /api/users?scope=all) and one user's tenants. */
export const adminUsersResource = tenantResource('admin-users');

export type AdminUserSort = 'Id' | 'Name' | 'Email' | 'createdAt' | 'LastLogin' | 'Logins';

export type AdminUsersView = {
  search: string;
  sort: AdminUserSort;
  direction: 'asc' | 'desc';
  pageIndex: number;
  pageSize: number;
};

export const useAdminUsers = (view: AdminUsersView) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery(
    queryOptions({
      queryKey: [...adminUsersResource.key(tenantId), 'list', view],
      queryFn: () =>
        api.get('/api/users', {
          query: {
            scope: 'all',
            search: view.search.trim() || undefined,
            sort: view.sort,
            direction: view.direction,
            page: view.pageIndex + 1,
            pageSize: view.pageSize,
          },
          schema: UserListResponse,
        }),
      placeholderData: keepPreviousData,
    }),
  );
};

/** GET /api/users/{id}: every tenant of the user (a platform admin sees them all). */
export const useAdminUser = (userId: number) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery(
    queryOptions({
      queryKey: [...adminUsersResource.key(tenantId), 'one', userId],
      queryFn: () => api.get(`/api/users/${userId}`, { schema: UserWithTenants }),
    }),
  );
};

/** PUT /api/users/{id} with the fields a platform admin may send (admin.md section 5). */
export const useAdminUpdateUser = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (input: { userId: number; body: UpdateUserRequest }) =>
      api.request(`/api/users/${input.userId}`, { method: 'PUT', body: input.body, schema: UserWithTenants }),
    onSuccess: () => invalidate(adminUsersResource),
  });
};

/** DELETE /api/users/{id} (delete) or DELETE /api/users/{id}/auth (Reset Auth). */
export const useAdminUserAction = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (input: { kind: 'delete' | 'reset'; userId: number }) =>
      api.request(
        input.kind === 'delete' ? `/api/users/${input.userId}` : `/api/users/${input.userId}/auth`,
        {
          method: 'DELETE',
          schema: Done,
        },
      ),
    onSuccess: () => invalidate(adminUsersResource),
  });
};
