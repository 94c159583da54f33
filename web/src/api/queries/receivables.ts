import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  AssetResponse,
  SellerAgingResponse,
  SellerCustomersResponse,
  type SellerCustomersQuery,
} from '../../../../contracts/api/receivables';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, type TenantId } from './tenant-scope';

/**
 * A seller's receivables as its last metrics run left them: the customers table, aging as of a date,
 * and one customer's invoices. They change with the seller's metrics, so a seller notice refreshes them.
 */
export const receivablesResource = tenantResource('receivables');

export type CustomersPage = Pick<SellerCustomersQuery, 'page' | 'pageSize' | 'sort' | 'order'> & {
  search: string;
};

export const receivableQueries = {
  /** GET /api/sellers/{sellerId}/customers: one page, sorted and searched by the server. */
  customers: (api: ApiClient, input: { tenantId: TenantId; sellerId: number; page: CustomersPage }) =>
    queryOptions({
      queryKey: [...receivablesResource.key(input.tenantId), input.sellerId, 'customers', input.page],
      queryFn: () => {
        const { search, ...rest } = input.page;
        return api.get(`/api/sellers/${input.sellerId}/customers`, {
          query: { ...rest, ...(search.trim() ? { search: search.trim() } : {}) },
          schema: SellerCustomersResponse,
        });
      },
      enabled: input.tenantId !== null,
    }),
  /** GET /api/sellers/{sellerId}/aging?asOf=: open amounts by days past due at the end of that day. */
  aging: (api: ApiClient, input: { tenantId: TenantId; sellerId: number; asOf: string | null }) =>
    queryOptions({
      queryKey: [...receivablesResource.key(input.tenantId), input.sellerId, 'aging', input.asOf],
      queryFn: () =>
        api.get(`/api/sellers/${input.sellerId}/aging`, {
          query: input.asOf ? { asOf: input.asOf } : {},
          schema: SellerAgingResponse,
        }),
      enabled: input.tenantId !== null,
    }),
  /** GET /api/assets/{customerId}?sellerId=: the customer's invoices, oldest first. */
  customerInvoices: (api: ApiClient, input: { tenantId: TenantId; sellerId: number; customerId: number }) =>
    queryOptions({
      queryKey: [...receivablesResource.key(input.tenantId), input.sellerId, 'assets', input.customerId],
      queryFn: () =>
        api.get(`/api/assets/${input.customerId}`, {
          query: { sellerId: input.sellerId },
          schema: AssetResponse,
        }),
      enabled: input.tenantId !== null,
    }),
};

/** The previous page stays on screen while the next one loads, so the table does not jump. */
export const useSellerCustomers = (sellerId: number, page: CustomersPage) => {
  const { api } = useAppServices();
  return useQuery({
    ...receivableQueries.customers(api, { tenantId: useCurrentTenantId(), sellerId, page }),
    placeholderData: keepPreviousData,
  });
};

export const useSellerAging = (sellerId: number, asOf: string | null) => {
  const { api } = useAppServices();
  return useQuery({
    ...receivableQueries.aging(api, { tenantId: useCurrentTenantId(), sellerId, asOf }),
    placeholderData: keepPreviousData,
  });
};

/** `anyTenant`: the development explorer, where a platform admin names any seller. */
export const useCustomerInvoices = (
  input: { sellerId: number; customerId: number },
  options: { anyTenant?: boolean; enabled?: boolean } = {},
) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery({
    ...receivableQueries.customerInvoices(api, { tenantId, ...input }),
    enabled: (options.anyTenant === true || tenantId !== null) && options.enabled !== false,
  });
};
