import { queryOptions, useQuery } from '@tanstack/react-query';
import { RecipientsResponse } from '../../../../contracts/api/recipients';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, type TenantId } from './tenant-scope';

/** Report recipients (GET /api/subscriptions). */
export const recipientsResource = tenantResource('recipients');

export const recipientQueries = {
  list: (api: ApiClient, tenantId: TenantId) =>
    queryOptions({
      queryKey: recipientsResource.key(tenantId),
      queryFn: () => api.get('/api/subscriptions', { schema: RecipientsResponse }),
      enabled: tenantId !== null,
    }),
};

export const useRecipients = () => {
  const { api } = useAppServices();
  return useQuery(recipientQueries.list(api, useCurrentTenantId()));
};
