import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  AdminSubscriptionsResponse,
  BillingSubscription,
  BillingTenantsResponse,
  PlansResponse,
  ProductsResponse,
  type UpdateSubscriptionRequest,
} from '../../../../contracts/api/billing';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import { billingResource } from './billing';
import { tenantResource, useInvalidateResources } from './tenant-scope';

/** The admin billing screens (admin.md section 2): every tenant's subscription, the plans, the products. */
export const adminBillingResource = tenantResource('admin-billing');

export type SubscriptionFilters = {
  search: string;
  classification: string;
  /** Plan identifiers. */
  plans: string[];
  paymentStatuses: string[];
};

export const useAdminSubscriptions = (filters: SubscriptionFilters) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery(
    queryOptions({
      queryKey: [...adminBillingResource.key(tenantId), 'subscriptions', filters],
      queryFn: () =>
        api.get('/api/billing/subscriptions', {
          query: {
            search: filters.search.trim() || undefined,
            classification: filters.classification || undefined,
            plan: filters.plans.join(',') || undefined,
            paymentStatus: filters.paymentStatuses.join(',') || undefined,
          },
          schema: AdminSubscriptionsResponse,
        }),
      placeholderData: (previous) => previous,
    }),
  );
};

/** Every plan with how many subscribe to it (GET /api/billing/plans?include=Subscriptions). */
export const useAdminPlans = () => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery(
    queryOptions({
      queryKey: [...adminBillingResource.key(tenantId), 'plans'],
      queryFn: () =>
        api.get('/api/billing/plans', { query: { include: 'Subscriptions' }, schema: PlansResponse }),
    }),
  );
};

export const useBillingProducts = (enabled: boolean) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery({
    queryKey: [...adminBillingResource.key(tenantId), 'products'],
    queryFn: () => api.get('/api/billing/products', { schema: ProductsResponse }),
    enabled,
  });
};

/** The tenants a subscription may be billed to (the edit form's billing tenant). */
export const useBillingTenants = (enabled: boolean) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery({
    queryKey: [...adminBillingResource.key(tenantId), 'tenants'],
    queryFn: () => api.get('/api/billing/tenants', { schema: BillingTenantsResponse }),
    enabled,
  });
};

/** PATCH /api/billing/subscriptions/{tenantId}, optionally pushing it to Stripe (resyncStripe). */
export const useUpdateSubscription = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (input: { body: UpdateSubscriptionRequest; resyncStripe?: boolean }) =>
      api.request(`/api/billing/subscriptions/${String(input.body.TenantId)}`, {
        method: 'PATCH',
        body: input.body,
        ...(input.resyncStripe ? { query: { resyncStripe: 'true' } } : {}),
        schema: BillingSubscription,
      }),
    onSuccess: () => invalidate(adminBillingResource, billingResource),
  });
};
