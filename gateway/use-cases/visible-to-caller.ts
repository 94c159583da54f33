import type { FastifyRequest } from 'fastify';
import { requireCaller } from '../plugins/access';

/**
 * Whether the caller may see a thing owned by `ownerTenantId`: platform admins everything, others
 * their current tenant's. A finder that gets false answers exactly as for an id that does not exist
 * (same status, same message), so ids of other tenants cannot be told from unused ones (issue 12).
 */
export const visibleToCaller = (request: FastifyRequest, ownerTenantId: number | null): boolean => {
  const caller = requireCaller(request);
  return caller.isPlatformAdmin || (ownerTenantId !== null && ownerTenantId === caller.tenantId);
};
