import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { TenantFeaturesResponse } from '../../../../contracts/api/features';
import {
  Tenant,
  type CreateTenantRequest,
  type UpdateTenantRequest,
} from '../../../../contracts/api/tenants';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, type TenantId } from './tenant-scope';

/** One company (GET /api/tenants/{id}). */
export const tenantDetailsResource = tenantResource('tenant');
/** The plan-gated features its plan and subscription give (GET /api/tenants/{id}/features). */
export const featuresResource = tenantResource('features');

const detailsKey = (tenantId: TenantId) => [...tenantDetailsResource.key(tenantId), tenantId];

export const tenantQueries = {
  /** The current company itself, read in its own scope. */
  details: (api: ApiClient, tenantId: TenantId) =>
    queryOptions({
      queryKey: detailsKey(tenantId),
      queryFn: () => api.get(`/api/tenants/${tenantId}`, { schema: Tenant }),
      enabled: tenantId !== null,
    }),
  features: (api: ApiClient, tenantId: TenantId) =>
    queryOptions({
      queryKey: featuresResource.key(tenantId),
      queryFn: () => api.get(`/api/tenants/${tenantId}/features`, { schema: TenantFeaturesResponse }),
      enabled: tenantId !== null,
    }),
};

export const useTenant = () => {
  const { api } = useAppServices();
  return useQuery(tenantQueries.details(api, useCurrentTenantId()));
};

const featureSet = (answer: z.infer<typeof TenantFeaturesResponse>): ReadonlySet<string> =>
  new Set(answer.Features);

/**
 * The plan-gated features of the current tenant, which lock the connect cards. A demo tenant has
 * every feature (portal.md section 6), so it does not ask.
 */
export const usePlanFeatures = (input: { isDemo: boolean }) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery({
    ...tenantQueries.features(api, tenantId),
    enabled: tenantId !== null && !input.isDemo,
    select: featureSet,
  });
};

/** A saved company replaces the cached one at once, so the page never shows the old value. */
const useStoreTenant = () => {
  const { queryClient } = useAppServices();
  return (tenant: Tenant) => queryClient.setQueryData<Tenant>(detailsKey(tenant.Id), tenant);
};

/** PUT /api/tenants/{id}: the settings forms. */
export const useUpdateTenant = () => {
  const { api } = useAppServices();
  const storeTenant = useStoreTenant();
  return useMutation({
    mutationFn: (input: { tenantId: number; body: UpdateTenantRequest }) =>
      api.request(`/api/tenants/${input.tenantId}`, { method: 'PUT', body: input.body, schema: Tenant }),
    onSuccess: storeTenant,
  });
};

/** POST /api/tenants/{id}/logo: the company logo, as a file upload. */
export const useUploadLogo = () => {
  const { api } = useAppServices();
  const storeTenant = useStoreTenant();
  return useMutation({
    mutationFn: (input: { tenantId: number; file: File }) => {
      const form = new FormData();
      form.append('file', input.file, input.file.name);
      return api.request(`/api/tenants/${input.tenantId}/logo`, {
        method: 'POST',
        body: form,
        schema: Tenant,
      });
    },
    onSuccess: storeTenant,
  });
};

/**
 * POST /api/tenants: a new company (the welcome form) or an advisor's new client. Nothing cached
 * changes before the caller switches to it, which refetches everything of the new tenant.
 */
export const useCreateTenant = () => {
  const { api } = useAppServices();
  return useMutation({
    mutationFn: (body: CreateTenantRequest) =>
      api.request('/api/tenants', { method: 'POST', body, schema: Tenant }),
  });
};
