import { queryOptions, useQuery } from '@tanstack/react-query';
import { RecipientsResponse } from '../../../../contracts/api/recipients';
import type { RecipientState } from '../../../../contracts/events/recipient';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import { recipientsResource } from './recipients';

export { useDeleteRecipient, usePatchRecipient } from './recipients';

export type AdminRecipientsView = { search: string; state: RecipientState | null; sellerId: number | null };

/** GET /api/subscriptions?scope=all: every tenant's report recipients (platform admin). */
export const useAdminRecipients = (view: AdminRecipientsView) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery(
    queryOptions({
      // Under the recipients resource, so the shared patch and delete mutations refresh it too.
      queryKey: [...recipientsResource.key(tenantId), 'admin', view],
      queryFn: () =>
        api.get('/api/subscriptions', {
          query: {
            scope: 'all',
            search: view.search.trim() || undefined,
            state: view.state ?? undefined,
            sellerId: view.sellerId ?? undefined,
          },
          schema: RecipientsResponse,
        }),
    }),
  );
};
