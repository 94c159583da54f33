import { useQuery } from '@tanstack/react-query';
import { SellersResponse } from '../../../contracts/api/sellers';
import { tenantKey } from '../api/query-keys';
import { useAppServices } from '../session/app-services-context';
import { useSessionQuery } from '../session/session-query';

/** The current tenant's connected sellers (GET /api/sellers?Active=true): Reports needs one. */
export const useConnectedSellers = () => {
  const { api } = useAppServices();
  const tenantId = useSessionQuery().data?.tenant?.Id ?? null;
  return useQuery({
    queryKey: tenantKey(tenantId, 'sellers', { Active: true }),
    queryFn: () => api.get('/api/sellers', { query: { Active: true }, schema: SellersResponse }),
    enabled: tenantId !== null,
  });
};
