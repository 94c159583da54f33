import type { QueryClient } from '@tanstack/react-query';
import type { createStore } from 'jotai';
import type { ServerMessage } from '../../../contracts/live';
import { sessionKey } from '../api/queries/session';
import { isFinished, jobProgressAtom, withJobProgress } from './job-progress';
import { matchesNoticeKey, noticeQueryKeys, type SessionIdentity } from './notice-query-keys';

export type LiveTarget = {
  queryClient: QueryClient;
  /** The current client-state store (it is replaced on a tenant switch). */
  store: () => ReturnType<typeof createStore>;
  who: () => SessionIdentity;
};

/** Everything the page shows is refetched; the session stays, since refetching it is the guard's job. */
const refetchShown = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });

/** What a server message does to the browser's state (docs/adr/0015-live-notices.md). */
export const applyLiveMessage = (
  target: LiveTarget,
  message: ServerMessage,
  context: { firstConnect: boolean },
): void => {
  const { queryClient } = target;
  switch (message.type) {
    case 'invalidate': {
      const keys = noticeQueryKeys(message, target.who());
      void queryClient.invalidateQueries({
        predicate: (query) => keys.some((key) => matchesNoticeKey(key, query.queryKey)),
      });
      return;
    }
    case 'job-progress': {
      const store = target.store();
      store.set(jobProgressAtom, withJobProgress(store.get(jobProgressAtom), message));
      // A finished job changed what it produced (a report job: the archive, the recipients' last-sent
      // dates): every resource that shows jobs' results is refetched, as for a job notice.
      if (isFinished(message.status)) {
        const keys = noticeQueryKeys(
          {
            type: 'invalidate',
            entity: 'job',
            id: message.jobId,
            tenantId: message.tenantId,
            position: message.position,
          },
          target.who(),
        );
        void queryClient.invalidateQueries({
          predicate: (query) => keys.some((key) => matchesNoticeKey(key, query.queryKey)),
        });
      }
      return;
    }
    case 'refetch':
      void refetchShown(queryClient);
      return;
    case 'hello':
      // Queries that ran before the first socket opened may have missed notices.
      if (context.firstConnect) void refetchShown(queryClient);
      return;
    case 'heartbeat':
    case 'error':
      return;
  }
};
