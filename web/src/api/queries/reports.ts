import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { JobsResponse, type ReportsRequest, type SellerReportType } from '../../../../contracts/api/jobs';
import {
  ArchivedReportsResponse,
  FileContent,
  ManagedReportsResponse,
  maxContentBytes,
  type ArchivedReport,
} from '../../../../contracts/api/reports';
import { saveFile } from '../../components/save-file';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import type { ApiClient } from '../api-client';
import { jobsResource } from './jobs';
import { tenantResource, useInvalidateResources, type TenantId } from './tenant-scope';

/** Archived and managed reports; a finished report job changes them (live notice `job`). */
export const reportsResource = tenantResource('reports');

export const reportQueries = {
  archived: (api: ApiClient, input: { tenantId: TenantId; sellerId?: number | undefined }) =>
    queryOptions({
      queryKey: [...reportsResource.key(input.tenantId), 'archived', input.sellerId ?? 'all'],
      queryFn: () =>
        api.get('/api/reports/archived', {
          query: { sellerId: input.sellerId },
          schema: ArchivedReportsResponse,
        }),
      // A platform admin looks at any tenant's seller without a current tenant.
      enabled: input.tenantId !== null || input.sellerId !== undefined,
    }),
  managed: (api: ApiClient, tenantId: TenantId) =>
    queryOptions({
      queryKey: [...reportsResource.key(tenantId), 'managed'],
      queryFn: () => api.get('/api/reports/managed', { schema: ManagedReportsResponse }),
      enabled: tenantId !== null,
    }),
};

export const useArchivedReports = (sellerId?: number) => {
  const { api } = useAppServices();
  return useQuery(reportQueries.archived(api, { tenantId: useCurrentTenantId(), sellerId }));
};

export const useManagedReports = () => {
  const { api } = useAppServices();
  return useQuery(reportQueries.managed(api, useCurrentTenantId()));
};

/** POST /api/sellers/{id}/reports/{type}: send one of a seller's reports now to chosen recipients. */
export const useRequestSellerReport = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (input: { sellerId: number; type: SellerReportType; recipientIds: number[] }) =>
      api.request(`/api/sellers/${input.sellerId}/reports/${input.type}`, {
        method: 'POST',
        body: { recipientIds: input.recipientIds },
        schema: JobsResponse,
      }),
    onSuccess: () => invalidate(jobsResource, reportsResource),
  });
};

/** POST /api/reports: the admin send-reports page (report options, workflow options, client performance). */
export const useRequestAdminReports = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (body: ReportsRequest) =>
      api.request('/api/reports', { method: 'POST', body, schema: JobsResponse }),
    onSuccess: () => invalidate(jobsResource, reportsResource),
  });
};

const base64Bytes = (data: string): Uint8Array<ArrayBuffer> => {
  const text = atob(data);
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
};

/** Saves a file answered as FileContent (archived report content, client reports). */
export const saveFileContent = (file: FileContent) =>
  saveFile({ bytes: base64Bytes(file.data), contentType: file.contentType, fileName: file.fileName });

/**
 * Downloads an archived report: small files through the JSON content call (so a failure can be shown
 * in a dialog), large ones by letting the browser stream the download route.
 */
export const useDownloadArchivedReport = () => {
  const { api } = useAppServices();
  return useMutation({
    mutationFn: async (report: Pick<ArchivedReport, 'Id' | 'Size'>) => {
      // The content call refuses files over its limit as JSON: those stream from the download route.
      if (report.Size > maxContentBytes) {
        window.location.assign(`/api/reports/archived/${report.Id}/download`);
        return;
      }
      saveFileContent(await api.get(`/api/reports/archived/${report.Id}/content`, { schema: FileContent }));
    },
  });
};

/**
 * The advisor's Client Performance Summary (GET /api/users/{id}/reports/client): a PDF for 1 to 29
 * clients; from 30 the server answers the customer-sheet workbook instead (portal.md section 9).
 */
export const useDownloadClientReport = () => {
  const { api } = useAppServices();
  return useMutation({
    mutationFn: async (input: { userId: number; format: 'pdf' | 'xlsx' }) =>
      saveFileContent(
        await api.get(`/api/users/${input.userId}/reports/client`, {
          query: { format: input.format },
          schema: FileContent,
        }),
      ),
  });
};
