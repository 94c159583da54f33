import { useQueryClient } from '@tanstack/react-query';
import { IntegrationResponse } from '../../../../contracts/api/integrations';
import { QbdConfigResponse, type QbdConfigRequest } from '../../../../contracts/api/qbd';
import { SellerResponse, type CreateSellerRequest } from '../../../../contracts/api/sellers';
import { resources, tenantKey } from '../../api/query-keys';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../dashboard/dashboard-queries';

/**
 * The platform calls of portal.md section 7. After each, the tenant's sellers and integrations are
 * refetched: the server answered only after its read model had the change (read-your-writes). A 403
 * from a connection is a refusal to show (plan, demo), not a reason to end the session.
 */
export const usePlatformCalls = () => {
  const { api } = useAppServices();
  const queryClient = useQueryClient();
  const tenantId = useCurrentTenantId();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: tenantKey(tenantId, resources.sellers) }),
      queryClient.invalidateQueries({ queryKey: tenantKey(tenantId, resources.integrations) }),
      queryClient.invalidateQueries({ queryKey: tenantKey(tenantId, resources.jobs) }),
    ]);
  const after = async <T>(call: Promise<T>): Promise<T> => {
    const answer = await call;
    await refresh();
    return answer;
  };
  return {
    connectSeller: (body: CreateSellerRequest) =>
      after(
        api.request('/api/sellers', { method: 'POST', body, schema: SellerResponse, authFailure: 'throw' }),
      ),
    connectActiveCampaign: (credentials: { URL: string; ApiKey: string }) =>
      after(
        api.request('/api/integrations', {
          method: 'POST',
          body: { Provider: 'ACTIVE_CAMPAIGN', Credentials: credentials },
          schema: IntegrationResponse,
          authFailure: 'throw',
        }),
      ),
    qbdConfig: (body: QbdConfigRequest) =>
      after(
        api.request('/api/qbd/config', {
          method: 'POST',
          body,
          schema: QbdConfigResponse,
          authFailure: 'throw',
        }),
      ),
    disconnectSeller: (sellerId: number) =>
      after(api.request(`/api/sellers/${sellerId}/disconnect`, { method: 'POST' })),
    disconnectIntegration: (integrationId: number) =>
      after(api.request(`/api/integrations/${integrationId}/disconnect`, { method: 'POST' })),
  };
};
export type PlatformCalls = ReturnType<typeof usePlatformCalls>;
