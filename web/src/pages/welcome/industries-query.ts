import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { Industry, type IndustrySource } from '../../../../contracts/industries';
import { useAppServices } from '../../session/app-services-context';

const hour = 60 * 60 * 1000;

/** GET /api/industries: reference data shared by every tenant, cached for an hour (portal.md section 4). */
export const useIndustries = (source: IndustrySource = 'NAICS2017') => {
  const { api } = useAppServices();
  return useQuery({
    queryKey: ['industries', source],
    queryFn: () => api.get('/api/industries', { query: { source }, schema: z.array(Industry) }),
    staleTime: hour,
    gcTime: hour,
  });
};
