import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  Partner,
  PartnersResponse,
  type CreatePartnerRequest,
  type UpdatePartnerRequest,
} from '../../../../contracts/api/partners';
import { FileContent } from '../../../../contracts/api/reports';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import { saveFileContent } from './reports';
import { tenantResource, useInvalidateResources } from './tenant-scope';

/** The admin partners table (GET /api/partners). */
export const partnersResource = tenantResource('admin-partners');

export const usePartners = (search: string) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery(
    queryOptions({
      queryKey: [...partnersResource.key(tenantId), search],
      queryFn: () =>
        api.get('/api/partners', { query: { search: search.trim() || undefined }, schema: PartnersResponse }),
    }),
  );
};

/** POST /api/partners, or PATCH /api/partners/{TenantId} with the partner's Id when editing. */
export const useSavePartner = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (
      input:
        | { kind: 'create'; body: Partial<CreatePartnerRequest> }
        | { kind: 'update'; tenantId: number; body: UpdatePartnerRequest },
    ) =>
      input.kind === 'create'
        ? api.request('/api/partners', { method: 'POST', body: input.body, schema: Partner })
        : api.request(`/api/partners/${input.tenantId}`, {
            method: 'PATCH',
            body: input.body,
            schema: Partner,
          }),
    onSuccess: () => invalidate(partnersResource),
  });
};

/** GET /api/tenants/{id}/reports/client: the partner firm's Client report (PDF), saved by the browser. */
export const useDownloadPartnerClientReport = () => {
  const { api } = useAppServices();
  return useMutation({
    mutationFn: async (tenantId: number) =>
      saveFileContent(
        await api.get(`/api/tenants/${tenantId}/reports/client`, {
          query: { format: 'pdf' },
          schema: FileContent,
        }),
      ),
  });
};
