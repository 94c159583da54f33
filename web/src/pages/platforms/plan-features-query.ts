import { useQuery } from '@tanstack/react-query';
import { TenantFeaturesResponse } from '../../../../contracts/api/features';
import { resources, tenantKey } from '../../api/query-keys';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../dashboard/dashboard-queries';

const featureSet = (answer: { Features: string[] }): ReadonlySet<string> => new Set(answer.Features);

/**
 * The plan-gated features of the current tenant (GET /api/tenants/{id}/features), which the connect
 * cards are locked by. Live billing and plan notices make it stale (web/src/live/notice-query-keys.ts).
 * A demo tenant has every feature (portal.md section 6), so it does not ask.
 */
export const usePlanFeatures = (input: { isDemo: boolean }) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery({
    queryKey: tenantKey(tenantId, resources.features),
    queryFn: () => api.get(`/api/tenants/${tenantId}/features`, { schema: TenantFeaturesResponse }),
    enabled: tenantId !== null && !input.isDemo,
    select: featureSet,
  });
};
