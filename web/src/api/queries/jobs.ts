import { queryOptions, useQuery } from '@tanstack/react-query';
import { JobsResponse } from '../../../../contracts/api/jobs';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, type TenantId } from './tenant-scope';

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
