import { queryOptions, useQuery } from '@tanstack/react-query';
import { AuditResponse, auditHistoryMaxRows } from '../../../../contracts/api/audit';
import { StreamHistoryResponse } from '../../../../contracts/stream-history';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { tenantResource, type TenantId } from './tenant-scope';

/** A tenant's audit history and the platform admin's stream replay. */
export const adminAuditResource = tenantResource('admin-audit');

/** admin.md section 9: at most 1000 rows of audit history. */
export const auditRowLimit = auditHistoryMaxRows;

/** Steps of a stream replay read at once. */
export const replayPageSize = 100;

export const adminAuditQueries = {
  history: (api: ApiClient, input: { tenantId: TenantId; auditedTenantId: number }) =>
    queryOptions({
      queryKey: [...adminAuditResource.key(input.tenantId), 'history', input.auditedTenantId],
      queryFn: () =>
        api.get(`/api/tenants/${input.auditedTenantId}/audit`, {
          query: { limit: auditRowLimit },
          schema: AuditResponse,
        }),
    }),
  replay: (api: ApiClient, input: { tenantId: TenantId; streamId: string; from: number }) =>
    queryOptions({
      queryKey: [...adminAuditResource.key(input.tenantId), 'replay', input.streamId, input.from],
      queryFn: () =>
        api.get(`/api/admin/streams/${encodeURIComponent(input.streamId)}/history`, {
          query: { from: input.from, limit: replayPageSize },
          schema: StreamHistoryResponse,
        }),
    }),
};

export const useAuditHistory = (auditedTenantId: number) => {
  const { api } = useAppServices();
  return useQuery(adminAuditQueries.history(api, { tenantId: useCurrentTenantId(), auditedTenantId }));
};

/** `streamId` null: nothing asked yet. */
export const useStreamReplay = (streamId: string | null, from: number) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery({
    ...adminAuditQueries.replay(api, { tenantId, streamId: streamId ?? '', from }),
    enabled: streamId !== null,
    placeholderData: (previous) => previous,
  });
};
