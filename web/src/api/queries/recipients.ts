import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  RecipientResponse,
  RecipientsResponse,
  type CreateSubscriptionRequest,
  type PatchSubscriptionRequest,
} from '../../../../contracts/api/recipients';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, useInvalidateResources, type TenantId } from './tenant-scope';

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

/** PATCH /api/subscriptions/{id}: activate or deactivate (platform admin), or one send flag. */
export const usePatchRecipient = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (input: { recipientId: number; body: PatchSubscriptionRequest }) =>
      api.request(`/api/subscriptions/${input.recipientId}`, {
        method: 'PATCH',
        body: input.body,
        schema: RecipientResponse,
      }),
    onSuccess: () => invalidate(recipientsResource),
  });
};

/** DELETE /api/subscriptions/{id} (platform admin, after confirmation). */
export const useDeleteRecipient = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (recipientId: number) =>
      api.request(`/api/subscriptions/${recipientId}`, { method: 'DELETE' }),
    onSuccess: () => invalidate(recipientsResource),
  });
};

/** POST /api/subscriptions: a team member or a contact for a seller's reports. */
export const useAddRecipient = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (body: CreateSubscriptionRequest) =>
      api.request('/api/subscriptions', { method: 'POST', body, schema: RecipientResponse }),
    onSuccess: () => invalidate(recipientsResource),
  });
};
