import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { CronResponse, JobsResponse, type CronName, type TaskRequest } from '../../../../contracts/api/jobs';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';
import { jobsResource } from './jobs';
import { useInvalidateResources } from './tenant-scope';

/** POST /api/tasks: Move Customer, Update Demo Seller and the task trigger. */
export const useRunTask = () => {
  const { api } = useAppServices();
  const invalidate = useInvalidateResources();
  return useMutation({
    mutationFn: (task: TaskRequest) =>
      api.request('/api/tasks', { method: 'POST', body: task, schema: JobsResponse }),
    onSuccess: () => invalidate(jobsResource),
  });
};

/** GET /api/cron/{name}: what the task takes and its latest runs. */
export const useCron = (name: CronName) => {
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return useQuery(
    queryOptions({
      queryKey: [...jobsResource.key(tenantId), 'cron', name],
      queryFn: () => api.get(`/api/cron/${name}`, { schema: CronResponse }),
    }),
  );
};
