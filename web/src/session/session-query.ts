import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
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

/**
 * The session inside the signed-in shell. The shell provides it and keeps the last one while a
 * logout unmounts it, so no component below ever renders without a session.
 */
export const SignedInSession = createContext<SessionResponse | null>(null);

export const useSession = (): SessionResponse => {
  const session = useContext(SignedInSession);
  if (!session) throw new Error('useSession outside the signed-in shell');
  return session;
};
