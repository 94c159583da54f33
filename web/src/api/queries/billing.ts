import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  BillingSessionResponse,
  BillingSubscription,
  PlansResponse,
  TenantSubscriptionResponse,
  type CancelSubscriptionRequest,
} from '../../../../contracts/api/billing';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, useInvalidateResources, type TenantId } from './tenant-scope';
import { featuresResource, tenantDetailsResource } from './tenants';

/** The current tenant's billing subscription (GET /api/billing/subscriptions/{tenantId}). */
export const billingResource = tenantResource('billing');

export const billingQueries = {
  subscription: (api: ApiClient, tenantId: TenantId) =>
    queryOptions({
      queryKey: [...billingResource.key(tenantId), 'subscription'],
      queryFn: () =>
        api.get(`/api/billing/subscriptions/${tenantId}`, { schema: TenantSubscriptionResponse }),
      enabled: tenantId !== null,
    }),
  plans: (api: ApiClient, tenantId: TenantId, classification: string) =>
    queryOptions({
      queryKey: [...billingResource.key(tenantId), 'plans', classification],
      queryFn: () =>
        api.get('/api/billing/plans', { query: { classification, active: true }, schema: PlansResponse }),
      enabled: tenantId !== null,
    }),
};

export const useTenantSubscription = (enabled = true) => {
  const { api } = useAppServices();
  return useQuery({ ...billingQueries.subscription(api, useCurrentTenantId()), enabled });
};

export const usePlans = (classification: string, enabled = true) => {
  const { api } = useAppServices();
  return useQuery({ ...billingQueries.plans(api, useCurrentTenantId(), classification), enabled });
};

/** POST /api/billing/session: the payment provider's billing portal, where the browser is sent. */
export const useOpenBillingPortal = () => {
  const services = useAppServices();
  const { api } = services;
  const tenantId = useCurrentTenantId();
  return useMutation({
    mutationFn: async () => {
      const { url } = await api.request('/api/billing/session', {
        method: 'POST',
        body: { tenantId },
        schema: BillingSessionResponse,
      });
      services.leaveApp(url);
    },
  });
};

/** PATCH /api/billing/subscriptions/{tenantId} with a plan: what a paying tenant's admin may change. */
export const useChangePlan = () => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (planId: number) =>
      api.request(`/api/billing/subscriptions/${tenantId}`, {
        method: 'PATCH',
        body: { TenantId: tenantId ?? 0, PlanId: planId },
        schema: BillingSubscription,
      }),
    onSuccess: () => invalidate(billingResource, tenantDetailsResource, featuresResource),
  });
};

/** POST /api/billing/subscriptions/{tenantId}/cancel: effective at the end of the period. */
export const useCancelSubscription = () => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (body: CancelSubscriptionRequest) =>
      api.request(`/api/billing/subscriptions/${tenantId}/cancel`, {
        method: 'POST',
        body,
        schema: BillingSubscription,
      }),
    onSuccess: () => invalidate(billingResource, tenantDetailsResource, featuresResource),
  });
};
