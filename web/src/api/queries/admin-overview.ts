import { queryOptions, useQuery } from '@tanstack/react-query';
import { AnalyticsStatsResponse } from '../../../../contracts/api/analytics';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, type TenantId } from './tenant-scope';

/** GET /api/stats: the admin dashboard's counts (platform admins). */
export const adminStatsResource = tenantResource('admin-stats');

export const adminOverviewQueries = {
  stats: (api: ApiClient, tenantId: TenantId) =>
    queryOptions({
      queryKey: adminStatsResource.key(tenantId),
      queryFn: () => api.get('/api/stats', { schema: AnalyticsStatsResponse }),
    }),
};

export const useAdminStats = () => {
  const { api } = useAppServices();
  return useQuery(adminOverviewQueries.stats(api, useCurrentTenantId()));
};
