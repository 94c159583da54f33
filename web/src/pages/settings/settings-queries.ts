import { useQuery } from '@tanstack/react-query';
import { Tenant, type UpdateTenantRequest } from '../../../../contracts/api/tenants';
import type { ApiClient } from '../../api/api-client';
import { resources, tenantKey } from '../../api/query-keys';
import { useAppServices } from '../../session/app-services-context';

export const settingsCalls = {
  update: (api: ApiClient, input: { tenantId: number; body: UpdateTenantRequest }) =>
    api.request(`/api/tenants/${input.tenantId}`, { method: 'PUT', body: input.body, schema: Tenant }),
  uploadLogo: (api: ApiClient, input: { tenantId: number; file: File }) => {
    const form = new FormData();
    form.append('file', input.file, input.file.name);
    return api.request(`/api/tenants/${input.tenantId}/logo`, { method: 'POST', body: form, schema: Tenant });
  },
};

/** The current company (GET /api/tenants/{id}). */
export const useTenant = (tenantId: number) => {
  const { api } = useAppServices();
  return useQuery({
    queryKey: tenantKey(tenantId, resources.tenant, tenantId),
    queryFn: () => api.get(`/api/tenants/${tenantId}`, { schema: Tenant }),
  });
};

/** A saved tenant replaces the cached one at once, so the page never shows the old value. */
export const useStoreTenant = () => {
  const { queryClient } = useAppServices();
  return (tenant: Tenant) =>
    queryClient.setQueryData(tenantKey(tenant.Id, resources.tenant, tenant.Id), tenant);
};
