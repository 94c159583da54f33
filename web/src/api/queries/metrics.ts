import { queryOptions, useQuery } from '@tanstack/react-query';
import { MetricRowsResponse } from '../../../../contracts/api/ledger';
import type { MetricFrequency, MetricType } from '../../../../contracts/ledger';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, type TenantId } from './tenant-scope';

/** A seller's metric rows (GET /api/metrics/sellers/{id}); new ones come with the seller's MetricsDate. */
export const metricsResource = tenantResource('metrics');

export type MetricSeries = { sellerId: number; type: MetricType; frequency: MetricFrequency };

export const metricQueries = {
  rows: (api: ApiClient, input: { tenantId: TenantId; series: MetricSeries }) => {
    const { sellerId, type, frequency } = input.series;
    return queryOptions({
      queryKey: [...metricsResource.key(input.tenantId), sellerId, type, frequency],
      queryFn: () =>
        api.get(`/api/metrics/sellers/${sellerId}`, {
          query: { type, frequency },
          schema: MetricRowsResponse,
        }),
      enabled: input.tenantId !== null,
    });
  },
};

/** `anyTenant`: the platform admin's chart, which reads any seller with or without a current tenant. */
export const useMetricRows = (
  series: MetricSeries,
  options: { anyTenant?: boolean; enabled?: boolean } = {},
) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  const query = metricQueries.rows(api, { tenantId, series });
  return useQuery({
    ...query,
    enabled: (options.anyTenant === true || tenantId !== null) && options.enabled !== false,
  });
};
