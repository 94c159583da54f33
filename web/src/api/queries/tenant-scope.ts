import type { QueryKey } from '@tanstack/react-query';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';

/** The tenant a key was read in; null before the session names one (such queries stay disabled). */
export type TenantId = number | null;

/**
 * Server state belongs to a tenant, so every key but the session's starts `['tenant', id, resource]`:
 * a switch can never show one company's rows under another's name, and a live notice makes one
 * resource of one tenant stale by that prefix (web/src/live/notice-query-keys.ts).
 */
export type TenantResource = {
  /** The key's third part, unique per resource. */
  readonly name: string;
  /** The prefix of every key of this resource in a tenant. */
  readonly key: (tenantId: TenantId) => QueryKey;
};

export const tenantResource = (name: string): TenantResource => ({
  name,
  key: (tenantId) => ['tenant', tenantId ?? 'none', name],
});

/**
 * Makes resources of the current tenant stale; active queries refetch before the returned promise
 * settles, so a mutation's `onSuccess` returning it settles once the page shows the change.
 */
export const useInvalidateResources = () => {
  const { queryClient } = useAppServices();
  const tenantId = useCurrentTenantId();
  return (...resources: readonly TenantResource[]) =>
    Promise.all(
      resources.map((resource) => queryClient.invalidateQueries({ queryKey: resource.key(tenantId) })),
    );
};
