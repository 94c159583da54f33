import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { SessionResponse } from '../../../contracts/auth';
import { sessionQuery } from '../api/queries/session';
import { useAppServices } from './app-services-context';

/** The signed-in user and their current tenant; `data` is null for a guest. */
export const useSessionQuery = () => {
  const { api } = useAppServices();
  return useQuery(sessionQuery(api));
};

/**
 * The current tenant's id for query keys, read from the query cache itself: during a tenant switch a
 * render can come before the shell passes the new session down, and must not ask for the old tenant.
 */
export const useCurrentTenantId = (): number | null => useSessionQuery().data?.tenant?.Id ?? null;

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
