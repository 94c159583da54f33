import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { Done } from '../../../../contracts/api/common';
import {
  Tenant,
  TenantDetailsResponse,
  TenantListResponse,
  type CreateTenantRequest,
  type TenantSortField,
} from '../../../../contracts/api/tenants';
import type { DisableReason, TenantClassification, UsageType } from '../../../../contracts/events/tenant';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, type TenantId } from './tenant-scope';

/** The platform-wide tenants list and its rows' details (platform admins). */
export const adminTenantsResource = tenantResource('admin-tenants');

export type TenantListResponse = z.infer<typeof TenantListResponse>;
export type TenantListRow = TenantListResponse['rows'][number];

/** What the reader chose on the admin tenants page (null: that filter is off). */
export type AdminTenantsView = {
  search: string;
  usageType: UsageType | null;
  classification: TenantClassification | null;
  hasUsers: boolean | null;
  hasActiveSellers: boolean | null;
  sort: { field: z.infer<typeof TenantSortField>; direction: 'asc' | 'desc' } | null;
  /** 0-based; the server pages only while nothing is searched, filtered or sorted. */
  pageIndex: number;
};

export const initialTenantsView: AdminTenantsView = {
  search: '',
  usageType: null,
  classification: null,
  hasUsers: null,
  hasActiveSellers: null,
  sort: null,
  pageIndex: 0,
};

/** Whether the server answers every match at once (no pages): searching, filtering or sorting. */
export const isNarrowed = (view: AdminTenantsView): boolean =>
  view.search.trim() !== '' ||
  view.usageType !== null ||
  view.classification !== null ||
  view.hasUsers !== null ||
  view.hasActiveSellers !== null ||
  view.sort !== null;

/** GET /api/tenants?scope=all with the page's choices (contracts TenantsQuery). */
export const tenantsQueryOf = (view: AdminTenantsView): Record<string, string | number | undefined> => ({
  scope: 'all',
  search: view.search.trim() || undefined,
  usageType: view.usageType ?? undefined,
  classification: view.classification ?? undefined,
  hasUsers: view.hasUsers === null ? undefined : String(view.hasUsers),
  hasActiveSellers: view.hasActiveSellers === null ? undefined : String(view.hasActiveSellers),
  sort: view.sort?.field,
  direction: view.sort?.direction,
  page: isNarrowed(view) ? undefined : view.pageIndex + 1,
});

export const adminTenantQueries = {
  list: (api: ApiClient, input: { tenantId: TenantId; view: AdminTenantsView }) =>
    queryOptions({
      queryKey: [...adminTenantsResource.key(input.tenantId), 'list', input.view],
      queryFn: () =>
        api.get('/api/tenants', { query: tenantsQueryOf(input.view), schema: TenantListResponse }),
    }),
  details: (api: ApiClient, input: { tenantId: TenantId; rowTenantId: number }) =>
    queryOptions({
      queryKey: [...adminTenantsResource.key(input.tenantId), 'details', input.rowTenantId],
      queryFn: () => api.get(`/api/tenants/${input.rowTenantId}/details`, { schema: TenantDetailsResponse }),
    }),
  /** Any tenant by id, read by a platform admin; the key is the one the settings forms update. */
  one: (api: ApiClient, tenantId: number) =>
    queryOptions({
      queryKey: ['tenant', tenantId, 'tenant', tenantId],
      queryFn: () => api.get(`/api/tenants/${tenantId}`, { schema: Tenant }),
    }),
};

/** The previous page stays shown while the next loads. */
export const useAdminTenants = (view: AdminTenantsView) => {
  const { api } = useAppServices();
  return useQuery({
    ...adminTenantQueries.list(api, { tenantId: useCurrentTenantId(), view }),
    placeholderData: (previous) => previous,
  });
};

export const useAdminTenantDetails = (rowTenantId: number) => {
  const { api } = useAppServices();
  return useQuery(adminTenantQueries.details(api, { tenantId: useCurrentTenantId(), rowTenantId }));
};

export const useAdminTenant = (tenantId: number) => {
  const { api } = useAppServices();
  return useQuery(adminTenantQueries.one(api, tenantId));
};

/** After a change the list, its details and the changed tenant refetch. */
const useRefreshTenants = () => {
  const { queryClient } = useAppServices();
  const current = useCurrentTenantId();
  return (tenantId?: number) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminTenantsResource.key(current) }),
      ...(tenantId === undefined
        ? []
        : [queryClient.invalidateQueries({ queryKey: ['tenant', tenantId, 'tenant', tenantId] })]),
    ]);
};

/** The typed confirmations' actions: disable (with a reason), restore, purge (optionally permanent). */
export type TenantAction =
  | { kind: 'disable'; tenantId: number; reason: DisableReason | null }
  | { kind: 'restore'; tenantId: number }
  | { kind: 'purge'; tenantId: number; permanent: boolean };

export const useTenantAction = () => {
  const { api } = useAppServices();
  const refresh = useRefreshTenants();
  return useMutation({
    mutationFn: (action: TenantAction) => {
      const path = `/api/tenants/${action.tenantId}`;
      switch (action.kind) {
        case 'disable':
          return api.request(path, {
            method: 'DELETE',
            query: { reason: action.reason ?? undefined },
            schema: Done,
          });
        case 'restore':
          return api.request(`${path}/restore`, { method: 'POST', body: {}, schema: Done });
        case 'purge':
          return api.request(path, {
            method: 'DELETE',
            query: { purge: 'true', permanent: action.permanent ? 'true' : undefined },
            schema: Done,
          });
      }
    },
    onSuccess: (_done, action) => refresh(action.tenantId),
  });
};

/** POST /api/tenants as a platform admin: the admin does not join the new tenant. */
export const useAdminCreateTenant = () => {
  const { api } = useAppServices();
  const refresh = useRefreshTenants();
  return useMutation({
    mutationFn: (body: CreateTenantRequest) =>
      api.request('/api/tenants', {
        method: 'POST',
        body: { ...body, skipUserTenant: true },
        schema: Tenant,
      }),
    onSuccess: (tenant) => refresh(tenant.Id),
  });
};

/** Refetches the list after a tenant was edited elsewhere (the edit modal). */
export const useRefreshAdminTenants = useRefreshTenants;
