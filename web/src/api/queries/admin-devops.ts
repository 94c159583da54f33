import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DatabaseResponse,
  QUEUE_POLL_MS,
  QueueClearResponse,
  QueuesResponse,
  type QueueClearStatus,
} from '../../../../contracts/api/devops';
import type { JobKind } from '../../../../contracts/events/job';
import { useAppServices } from '../../session/app-services-context';
import type { ApiClient } from '../api-client';

/** Platform-wide: the keys need no tenant. */
const devopsKey = ['devops'] as const;

export const devopsQueries = {
  queues: (api: ApiClient, paused: boolean) =>
    queryOptions({
      queryKey: [...devopsKey, 'queues'],
      queryFn: () => api.get('/api/devops/queues', { schema: QueuesResponse }),
      // admin.md section 9: every 5 s, paused while a row is open.
      refetchInterval: paused ? false : QUEUE_POLL_MS,
    }),
  database: (api: ApiClient) =>
    queryOptions({
      queryKey: [...devopsKey, 'database'],
      queryFn: () => api.get('/api/devops/database', { schema: DatabaseResponse }),
    }),
};

/** GET /api/devops/queues, polled every 5 s unless `paused`. */
export const useWorkQueues = (paused: boolean) => {
  const { api } = useAppServices();
  return useQuery(devopsQueries.queues(api, paused));
};

/** GET /api/devops/database. */
export const useDatabaseStats = () => {
  const { api } = useAppServices();
  return useQuery(devopsQueries.database(api));
};

/** DELETE /api/devops/queues/{name}?status=: Clear Locks, Clear Waiting or Clear Failed. */
export const useClearQueue = () => {
  const { api } = useAppServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { queue: JobKind; status: QueueClearStatus }) =>
      api.request(`/api/devops/queues/${input.queue}`, {
        method: 'DELETE',
        query: { status: input.status },
        schema: QueueClearResponse,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...devopsKey, 'queues'] }),
  });
};
