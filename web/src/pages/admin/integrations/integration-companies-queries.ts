import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  IntegrationCompaniesResponse,
  type IntegrationCompaniesQuery,
} from '../../../../../contracts/api/integrations';
import { Job } from '../../../../../contracts/api/jobs';
import { useAppServices } from '../../../session/app-services-context';

/** GET /api/integrations/:id/companies: one page of the CRM companies a sync mirrored, with their links. */
export const useIntegrationCompanies = (integrationId: number, query: IntegrationCompaniesQuery) => {
  const { api } = useAppServices();
  return useQuery(
    queryOptions({
      queryKey: ['integration-companies', integrationId, query],
      queryFn: () =>
        api.get(`/api/integrations/${integrationId}/companies`, {
          query: {
            search: query.search?.trim() || undefined,
            filter: query.filter,
            method: query.method,
            offset: query.offset,
            limit: query.limit,
          },
          schema: IntegrationCompaniesResponse,
        }),
      placeholderData: keepPreviousData,
    }),
  );
};

/** The mirror's counts for the integrations table's expanded row (the first page of one row). */
export const useIntegrationMirrorSummary = (integrationId: number) => {
  const { api } = useAppServices();
  return useQuery(
    queryOptions({
      queryKey: ['integration-companies', integrationId, 'summary'],
      queryFn: async () =>
        (
          await api.get(`/api/integrations/${integrationId}/companies`, {
            query: { limit: 1 },
            schema: IntegrationCompaniesResponse,
          })
        ).Summary,
    }),
  );
};

/** A running integration job (GET /api/jobs/:id), polled every two seconds until it ends. */
export const useIntegrationJob = (jobId: number | null) => {
  const { api } = useAppServices();
  return useQuery(
    queryOptions({
      queryKey: ['integration-job', jobId],
      queryFn: () => api.get(`/api/jobs/${jobId ?? 0}`, { schema: Job }),
      enabled: jobId !== null,
      refetchInterval: (query) => {
        const status = query.state.data?.Status;
        return status === undefined || status === 'created' || status === 'running' ? 2000 : false;
      },
    }),
  );
};
