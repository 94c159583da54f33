import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { JobsResponse, type MetricsJobType } from '../../../../contracts/api/jobs';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, useInvalidateResources, type TenantId } from './tenant-scope';

/** The tenant's pipeline jobs (GET /api/jobs); live progress comes over the socket meanwhile. */
export const jobsResource = tenantResource('jobs');

export type JobsFilter = { sellerId?: number | undefined; limit: number };

export const jobQueries = {
  list: (api: ApiClient, input: { tenantId: TenantId; filter: JobsFilter }) =>
    queryOptions({
      queryKey: [...jobsResource.key(input.tenantId), input.filter],
      queryFn: () => api.get('/api/jobs', { query: input.filter, schema: JobsResponse }),
      enabled: input.tenantId !== null,
    }),
};

export const useJobs = (filter: JobsFilter) => {
  const { api } = useAppServices();
  return useQuery(jobQueries.list(api, { tenantId: useCurrentTenantId(), filter }));
};

/**
 * POST /api/metrics/sellers?jobType=: a metrics or forecast job for one seller of any tenant (the admin
 * sellers table's S, F S, F C and C buttons, and capture historical).
 */
export const useRequestSellerMetrics = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (input: { sellerId: number; jobType: MetricsJobType; onlyMissing: boolean }) =>
      api.request('/api/metrics/sellers', {
        method: 'POST',
        query: { jobType: input.jobType },
        body: { id: input.sellerId, onlyMissing: input.onlyMissing },
        schema: JobsResponse,
      }),
    onSuccess: () => invalidate(jobsResource),
  });
};
