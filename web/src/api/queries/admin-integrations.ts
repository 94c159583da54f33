import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { Done } from '../../../../contracts/api/common';
import {
  IntegrationJobResponse,
  IntegrationResponse,
  IntegrationsResponse,
} from '../../../../contracts/api/integrations';
import type { CrmSettings, IntegrationProvider } from '../../../../contracts/events/integration';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import { integrationsResource } from './platforms';
import { useInvalidateResources } from './tenant-scope';

export type AdminIntegrationsView = {
  provider: IntegrationProvider | null;
  product: 'REVOPS' | 'none' | null;
  search: string;
};

/** GET /api/integrations?scope=all: every tenant's accounts with the actions their state allows. */
export const useAdminIntegrations = (view: AdminIntegrationsView) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery(
    queryOptions({
      queryKey: [...integrationsResource.key(tenantId), 'admin', view],
      queryFn: () =>
        api.get('/api/integrations', {
          query: {
            scope: 'all',
            provider: view.provider ?? undefined,
            product: view.product ?? undefined,
            search: view.search.trim() || undefined,
          },
          schema: IntegrationsResponse,
        }),
    }),
  );
};

/** One admin action on an account (admin.md section 4); the server refuses one its state does not allow. */
export type IntegrationActionRequest =
  | { kind: 'sync' | 'unlink' | 'disconnect' | 'delete'; id: number }
  | { kind: 'purge'; id: number; unlink: boolean }
  | { kind: 'active'; id: number; active: boolean }
  | { kind: 'locked'; id: number; locked: boolean }
  | { kind: 'settings'; id: number; settings: Partial<CrmSettings> };

export const useIntegrationAction = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: async (input: IntegrationActionRequest): Promise<string | null> => {
      const path = `/api/integrations/${input.id}`;
      switch (input.kind) {
        case 'sync':
          return (await api.request(`${path}/sync`, { method: 'POST', schema: IntegrationJobResponse }))
            .message;
        case 'unlink':
          return (await api.request(`${path}/unlink`, { method: 'POST', schema: IntegrationJobResponse }))
            .message;
        case 'purge':
          return (
            await api.request(`${path}/purge`, {
              method: 'POST',
              body: { unlink: input.unlink },
              schema: IntegrationJobResponse,
            })
          ).message;
        case 'disconnect':
          await api.request(`${path}/disconnect`, { method: 'POST', schema: IntegrationResponse });
          return null;
        case 'delete':
          await api.request(path, { method: 'DELETE', schema: Done });
          return null;
        case 'active':
          await api.request(path, {
            method: 'PATCH',
            body: { Active: input.active },
            schema: IntegrationResponse,
          });
          return null;
        case 'settings':
          await api.request(path, {
            method: 'PATCH',
            body: { Settings: input.settings },
            schema: IntegrationResponse,
          });
          return null;
        case 'locked':
          await api.request(path, {
            method: 'PATCH',
            body: { Locked: input.locked },
            schema: IntegrationResponse,
          });
          return null;
      }
    },
    onSuccess: () => invalidate(integrationsResource),
  });
};
