import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { IntegrationResponse, IntegrationsResponse } from '../../../../contracts/api/integrations';
import { QbdConfigResponse, type QbdConfigRequest } from '../../../../contracts/api/qbd';
import {
  SellerResponse,
  SellersResponse,
  type CreateSellerRequest,
  type SellerSortField,
} from '../../../../contracts/api/sellers';
import type { SellerProvider } from '../../../../contracts/events/seller';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { forecastsResource } from './forecasts';
import { jobsResource } from './jobs';
import { tenantResource, useInvalidateResources, type TenantId } from './tenant-scope';

// The connected platforms of portal.md section 2.3: sellers (accounting and payment platforms) and
// integrations (CRM and marketing), shown together and refreshed together after every platform call.

/** The tenant's sellers (GET /api/sellers). */
export const sellersResource = tenantResource('sellers');
/** The tenant's CRM and marketing integrations (GET /api/integrations). */
export const integrationsResource = tenantResource('integrations');

export const sellerQueries = {
  /** The connected ones (Active=true), with their status and dates: dashboards, Platforms, Reports. */
  connected: (api: ApiClient, tenantId: TenantId) =>
    queryOptions({
      queryKey: [...sellersResource.key(tenantId), { Active: true }],
      queryFn: () => api.get('/api/sellers', { query: { Active: true }, schema: SellersResponse }),
      enabled: tenantId !== null,
    }),
  /** One seller of the tenant (any for a platform admin): the seller page's heading and dates. */
  one: (api: ApiClient, input: { tenantId: TenantId; sellerId: number }) =>
    queryOptions({
      queryKey: [...sellersResource.key(input.tenantId), input.sellerId],
      queryFn: () => api.get(`/api/sellers/${input.sellerId}`, { schema: SellerResponse }),
      enabled: input.tenantId !== null,
    }),
  /** Every tenant's active sellers matching `search` (platform admin): the admin metrics chart's choice. */
  everyTenant: (api: ApiClient, input: { tenantId: TenantId; search: string }) =>
    queryOptions({
      queryKey: [...sellersResource.key(input.tenantId), 'all', { search: input.search }],
      queryFn: () =>
        api.get('/api/sellers', {
          query: {
            scope: 'all',
            Active: true,
            sort: 'CompanyName',
            limit: 50,
            ...(input.search.trim() ? { search: input.search.trim() } : {}),
          },
          schema: SellersResponse,
        }),
      // Platform-wide: a platform admin may have no current tenant.
      enabled: true,
    }),
};

/** One page of the admin sellers table as the reader set it (null: that filter is off). */
export type AdminSellersView = {
  search: string;
  provider: SellerProvider | null;
  active: boolean | null;
  collection: 'recent' | 'stale' | null;
  metrics: 'recent' | 'stale' | null;
  partnerId: number | null;
  sort: SellerSortField;
  direction: 'asc' | 'desc';
  pageIndex: number;
  pageSize: number;
};

/** GET /api/sellers?scope=all: filters, search, sort and paging are the server's (contracts SellersQuery). */
const adminSellersQuery = (view: AdminSellersView) => ({
  scope: 'all',
  provider: view.provider ?? undefined,
  Active: view.active ?? undefined,
  collection: view.collection ?? undefined,
  metrics: view.metrics ?? undefined,
  partnerId: view.partnerId ?? undefined,
  search: view.search.trim() || undefined,
  sort: view.sort,
  direction: view.direction,
  offset: view.pageIndex * view.pageSize,
  limit: view.pageSize,
});

export const adminSellerQueries = {
  /** The admin sellers table (platform admin): one page of every tenant's sellers. */
  page: (api: ApiClient, input: { tenantId: TenantId; view: AdminSellersView }) =>
    queryOptions({
      queryKey: [...sellersResource.key(input.tenantId), 'admin', input.view],
      queryFn: () =>
        api.get('/api/sellers', { query: adminSellersQuery(input.view), schema: SellersResponse }),
      // Platform-wide: a platform admin may have no current tenant.
      enabled: true,
    }),
};

export const integrationQueries = {
  list: (api: ApiClient, tenantId: TenantId) =>
    queryOptions({
      queryKey: integrationsResource.key(tenantId),
      queryFn: () => api.get('/api/integrations', { schema: IntegrationsResponse }),
      enabled: tenantId !== null,
    }),
};

export const useConnectedSellers = () => {
  const { api } = useAppServices();
  return useQuery(sellerQueries.connected(api, useCurrentTenantId()));
};

export const useSeller = (sellerId: number) => {
  const { api } = useAppServices();
  return useQuery(sellerQueries.one(api, { tenantId: useCurrentTenantId(), sellerId }));
};

/** Platform admins only: `enabled` false for the others. */
export const useEveryTenantSellers = (search: string, enabled = true) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery({
    ...sellerQueries.everyTenant(api, { tenantId, search }),
    enabled,
    placeholderData: (previous) => previous,
  });
};

/** Platform admins only (the route guards the page); the previous page stays shown while the next loads. */
export const useAdminSellers = (view: AdminSellersView) => {
  const { api } = useAppServices();
  return useQuery({
    ...adminSellerQueries.page(api, { tenantId: useCurrentTenantId(), view }),
    placeholderData: (previous) => previous,
  });
};

export const useIntegrations = () => {
  const { api } = useAppServices();
  return useQuery(integrationQueries.list(api, useCurrentTenantId()));
};

/**
 * After a platform call the tenant's sellers, integrations and jobs refetch: the server answered only
 * once its read model had the change (read-your-writes).
 */
export const useRefreshPlatforms = () => {
  const invalidate = useInvalidateResources();
  return () => invalidate(sellersResource, integrationsResource, jobsResource);
};

/**
 * POST /api/sellers (Sage, Demo). A 403 is a refusal to show in the modal (plan, demo), not a reason
 * to end the session.
 */
export const useConnectSeller = () => {
  const { api } = useAppServices();
  const refreshPlatforms = useRefreshPlatforms();
  return useMutation({
    mutationFn: (body: CreateSellerRequest) =>
      api.request('/api/sellers', { method: 'POST', body, schema: SellerResponse, authFailure: 'throw' }),
    onSuccess: refreshPlatforms,
  });
};

/** POST /api/qbd/config: the QuickBooks Desktop seller and its Web Connector file. */
export const useQbdConfig = () => {
  const { api } = useAppServices();
  const refreshPlatforms = useRefreshPlatforms();
  return useMutation({
    mutationFn: (body: QbdConfigRequest) =>
      api.request('/api/qbd/config', {
        method: 'POST',
        body,
        schema: QbdConfigResponse,
        authFailure: 'throw',
      }),
    onSuccess: refreshPlatforms,
  });
};

/** POST /api/sellers/{id}/disconnect. */
export const useDisconnectSeller = () => {
  const { api } = useAppServices();
  const refreshPlatforms = useRefreshPlatforms();
  return useMutation({
    mutationFn: (sellerId: number) => api.request(`/api/sellers/${sellerId}/disconnect`, { method: 'POST' }),
    onSuccess: refreshPlatforms,
  });
};

/** POST /api/integrations: ActiveCampaign with its account URL and API key. */
export const useConnectActiveCampaign = () => {
  const { api } = useAppServices();
  const refreshPlatforms = useRefreshPlatforms();
  return useMutation({
    mutationFn: (credentials: { URL: string; ApiKey: string }) =>
      api.request('/api/integrations', {
        method: 'POST',
        body: { Provider: 'ACTIVE_CAMPAIGN', Credentials: credentials },
        schema: IntegrationResponse,
        authFailure: 'throw',
      }),
    onSuccess: refreshPlatforms,
  });
};

/** POST /api/integrations/{id}/disconnect. */
export const useDisconnectIntegration = () => {
  const { api } = useAppServices();
  const refreshPlatforms = useRefreshPlatforms();
  return useMutation({
    mutationFn: (integrationId: number) =>
      api.request(`/api/integrations/${integrationId}/disconnect`, { method: 'POST' }),
    onSuccess: refreshPlatforms,
  });
};

/**
 * POST /api/sellers/{id}/flags/forecasts with section Receivables: the seller's
 * forecasts.Receivables.Enabled flag (platform admin). The sellers and their forecasts refetch.
 */
export const useSetSellerForecasting = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (input: { sellerId: number; enabled: boolean }) =>
      api.request(`/api/sellers/${input.sellerId}/flags/forecasts`, {
        method: 'POST',
        body: { state: input.enabled, section: 'Receivables' },
        schema: SellerResponse,
      }),
    onSuccess: () => invalidate(sellersResource, forecastsResource),
  });
};
