import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { Industry, type IndustrySource } from '../../../../contracts/industries';
import { useAppServices } from '../../session/app-services-context';
import type { ApiClient } from '../api-client';

const hour = 60 * 60 * 1000;

// Reference data shared by every tenant: the one resource outside the tenant scope besides the session.
export const industryQueries = {
  /** GET /api/industries, cached for an hour (portal.md section 4). */
  list: (api: ApiClient, source: IndustrySource) =>
    queryOptions({
      queryKey: ['industries', source],
      queryFn: () => api.get('/api/industries', { query: { source }, schema: z.array(Industry) }),
      staleTime: hour,
      gcTime: hour,
    }),
};

export const useIndustries = (source: IndustrySource = 'NAICS2017') => {
  const { api } = useAppServices();
  return useQuery(industryQueries.list(api, source));
};
