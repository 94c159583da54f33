import { queryOptions, useQuery } from '@tanstack/react-query';
import { CustomerForecastResponse, SellerForecastsResponse } from '../../../../contracts/api/forecasts';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, type TenantId } from './tenant-scope';

/** A seller's revenue and collections forecasts and a customer's expected cash-in (issue 15). */
export const forecastsResource = tenantResource('forecasts');

export const forecastQueries = {
  /** GET /api/forecasts/sellers/{sellerId}: weekly and monthly revenue, collections, validation. */
  seller: (api: ApiClient, input: { tenantId: TenantId; sellerId: number }) =>
    queryOptions({
      queryKey: [...forecastsResource.key(input.tenantId), input.sellerId],
      queryFn: () => api.get(`/api/forecasts/sellers/${input.sellerId}`, { schema: SellerForecastsResponse }),
      enabled: input.tenantId !== null,
    }),
  /** GET /api/forecasts/sellers/{sellerId}/customers/{customerId}: its cash-in and open invoices. */
  customer: (api: ApiClient, input: { tenantId: TenantId; sellerId: number; customerId: number }) =>
    queryOptions({
      queryKey: [...forecastsResource.key(input.tenantId), input.sellerId, 'customers', input.customerId],
      queryFn: () =>
        api.get(`/api/forecasts/sellers/${input.sellerId}/customers/${input.customerId}`, {
          schema: CustomerForecastResponse,
        }),
      enabled: input.tenantId !== null,
    }),
};

export const useSellerForecasts = (sellerId: number) => {
  const { api } = useAppServices();
  return useQuery(forecastQueries.seller(api, { tenantId: useCurrentTenantId(), sellerId }));
};

export const useCustomerForecast = (input: { sellerId: number; customerId: number }) => {
  const { api } = useAppServices();
  return useQuery(forecastQueries.customer(api, { tenantId: useCurrentTenantId(), ...input }));
};
