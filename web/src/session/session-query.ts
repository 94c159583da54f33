import { useQuery } from '@tanstack/react-query';
import type { SessionResponse } from '../../../contracts/auth';
import { fetchSession } from '../api/auth-calls';
import { sessionKey } from '../api/query-keys';
import { useAppServices } from './app-services-context';

/** The signed-in user and their current tenant; `data` is null for a guest. */
export const useSessionQuery = () => {
  const { api } = useAppServices();
  return useQuery<SessionResponse | null>({
    queryKey: sessionKey,
    queryFn: () => fetchSession(api),
    staleTime: 60_000,
  });
};

/** For components inside the signed-in shell, where the guard has already loaded a session. */
export const useSession = (): SessionResponse => {
  const { data } = useSessionQuery();
  if (!data) throw new Error('useSession outside a signed-in route');
  return data;
};
