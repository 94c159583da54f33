import { useMutation, useQuery } from '@tanstack/react-query';
import {
  DatasetFile,
  maxDatasetContentBytes,
  SellerDatasetsResponse,
} from '../../../../../contracts/api/analytics-datasets';
import { JobsResponse, type DatasetRequest, type DatasetType } from '../../../../../contracts/api/jobs';
import { jobsResource } from '../../../api/queries/jobs';
import { useInvalidateResources } from '../../../api/queries/tenant-scope';
import { saveFileContent } from '../../../api/queries/reports';
import { useAppServices } from '../../../session/app-services-context';

/** POST /api/datasets: one job per selected seller (admin.md section 7). */
export const useRequestDatasets = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (body: DatasetRequest) =>
      api.request('/api/datasets', { method: 'POST', body, schema: JobsResponse }),
    onSuccess: () => invalidate(jobsResource),
  });
};

/** GET /api/sellers/{id}/datasets: a seller's generated files, newest first (the expandable row). */
export const useSellerDatasets = (sellerId: number) => {
  const { api } = useAppServices();
  return useQuery({
    queryKey: ['admin-datasets', sellerId],
    queryFn: () => api.get(`/api/sellers/${sellerId}/datasets`, { schema: SellerDatasetsResponse }),
  });
};

/**
 * Downloads a seller's newest file of a data set: through the JSON file call (so a failure shows in
 * a dialog), or, for a file known to be large, by letting the browser stream the download route.
 */
export const useDownloadDataset = () => {
  const { api } = useAppServices();
  return useMutation({
    mutationFn: async (input: { sellerId: number; dataset: DatasetType; bytes?: number }) => {
      const path = `/api/sellers/${input.sellerId}/datasets/${input.dataset}`;
      if ((input.bytes ?? 0) > maxDatasetContentBytes) {
        window.location.assign(`${path}/download`);
        return;
      }
      saveFileContent(await api.get(path, { schema: DatasetFile }));
    },
  });
};

/** admin.md section 8: the download failure dialog's title. */
export const downloadFailureTitle = (dataset: DatasetType) => `Download ${dataset} DataSet`;
export const errorText = (error: unknown) =>
  `There was an error: ${error instanceof Error ? error.message : String(error)}`;
