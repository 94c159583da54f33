import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { BrowserStateResponse } from '../../../../contracts/api/browser-state';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, type TenantId } from './tenant-scope';

/** What the browser keeps on the server per user and tenant (GET /api/browser/{key}). */
export const browserStateResource = tenantResource('browser-state');

export const browserStateQueries = {
  one: (api: ApiClient, input: { tenantId: TenantId; key: string }) =>
    queryOptions({
      queryKey: [...browserStateResource.key(input.tenantId), input.key],
      queryFn: () => api.get(`/api/browser/${input.key}`, { schema: BrowserStateResponse }),
      enabled: input.tenantId !== null,
    }),
};

export const useBrowserState = (key: string) => {
  const { api } = useAppServices();
  return useQuery(browserStateQueries.one(api, { tenantId: useCurrentTenantId(), key }));
};

/**
 * PUT /api/browser/{key}. The cache is not touched: the page that saves already shows what it
 * saved, and a refetch would only echo it.
 */
export const useSaveBrowserState = (key: string) => {
  const { api } = useAppServices();
  return useMutation({
    mutationFn: (value: BrowserStateResponse['value']) =>
      api.request(`/api/browser/${key}`, { method: 'PUT', body: { value } }),
  });
};
