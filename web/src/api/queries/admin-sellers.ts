import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { Done } from '../../../../contracts/api/common';
import { SellerResponse, type UpdateSellerRequest } from '../../../../contracts/api/sellers';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import { sellersResource } from './platforms';
import { useInvalidateResources } from './tenant-scope';

/** PUT /api/sellers/{id}: Active and FeatureFlags (admin.md section 5, a seller update). */
export const useUpdateSeller = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (input: { sellerId: number; body: UpdateSellerRequest }) =>
      api.request(`/api/sellers/${input.sellerId}`, {
        method: 'PUT',
        body: input.body,
        schema: SellerResponse,
      }),
    onSuccess: () => invalidate(sellersResource),
  });
};

/** DELETE /api/sellers/{id}: offered only on inactive sellers, after the typed word delete. */
export const useDeleteSeller = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (sellerId: number) =>
      api.request(`/api/sellers/${sellerId}`, { method: 'DELETE', schema: Done }),
    onSuccess: () => invalidate(sellersResource),
  });
};

/** GET /api/sellers/{id}: one seller with its feature flags, for the edit modal. */
export const useAdminSeller = (sellerId: number) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery(
    queryOptions({
      queryKey: [...sellersResource.key(tenantId), 'admin-one', sellerId],
      queryFn: () => api.get(`/api/sellers/${sellerId}`, { schema: SellerResponse }),
    }),
  );
};
