import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  QbdCaptureResponse,
  QbdLogsResponse,
  QbdSessionResponse,
  type QbdCaptureRequest,
  type QbdSessionRequest,
} from '../../../../contracts/api/qbd';
import { BulkSellerSyncResponse, SellersResponse } from '../../../../contracts/api/sellers';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, useInvalidateResources, type TenantId } from './tenant-scope';

/** The admin collection tools: the QuickBooks Desktop log viewer, session and capture forms. */
export const adminCollectionResource = tenantResource('admin-collection');

/** admin.md section 9: the 1000 most recent QBD log entries. */
export const qbdLogLimit = 1000;

export const adminCollectionQueries = {
  qbdLogs: (api: ApiClient, input: { tenantId: TenantId; sellerId: number }) =>
    queryOptions({
      queryKey: [...adminCollectionResource.key(input.tenantId), 'qbd-logs', input.sellerId],
      queryFn: () =>
        api.get(`/api/qbd/logs/${input.sellerId}`, {
          query: { limit: qbdLogLimit },
          schema: QbdLogsResponse,
        }),
    }),
};

export const useQbdLogs = (sellerId: number) => {
  const { api } = useAppServices();
  return useQuery(adminCollectionQueries.qbdLogs(api, { tenantId: useCurrentTenantId(), sellerId }));
};

/** POST /api/qbd/session: a Web Connector session started by hand. */
export const useStartQbdSession = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (body: QbdSessionRequest) =>
      api.request('/api/qbd/session', { method: 'POST', body, schema: QbdSessionResponse }),
    onSuccess: () => invalidate(adminCollectionResource),
  });
};

/** POST /api/qbd/capture: a captured qbXML response replayed into the seller's ledger. */
export const useReplayQbdCapture = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (body: QbdCaptureRequest) =>
      api.request('/api/qbd/capture', { method: 'POST', body, schema: QbdCaptureResponse }),
    onSuccess: () => invalidate(adminCollectionResource),
  });
};

/** The collection page's tabs (admin.md section 2), each a provider. */
export const collectionProviders = ['QBO', 'QBD', 'XERO', 'SAGE'] as const;
export type CollectionProvider = (typeof collectionProviders)[number];

/** The sellers of one provider, every tenant (platform admin), by company name. */
export const useCollectionSellers = (provider: CollectionProvider) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery({
    queryKey: [...adminCollectionResource.key(tenantId), 'sellers', provider],
    queryFn: () =>
      api.get('/api/sellers', {
        query: { scope: 'all', provider, sort: 'CompanyName', limit: 1000 },
        schema: SellersResponse,
      }),
  });
};

/** POST /api/sellers/sync: every active seller of the provider. */
export const useBulkSync = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (provider: CollectionProvider) =>
      api.request('/api/sellers/sync', {
        method: 'POST',
        body: { provider, active: true },
        schema: BulkSellerSyncResponse,
      }),
    onSuccess: () => invalidate(adminCollectionResource),
  });
};
