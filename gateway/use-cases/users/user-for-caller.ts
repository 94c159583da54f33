import type { FastifyRequest } from 'fastify';
import type { UserWithTenants } from '../../../contracts/api/users';
import { AppError } from '../../../contracts/errors';
import { queryUserTenants } from '../../../projections/tenants/query-user-tenants';
import { queryUserWithTenants } from '../../../projections/users/query-users';
import type { ReadAfter } from '../../../projections/read-after';
import { requireCaller } from '../../plugins/access';

const notFound = (userId: number) =>
  new AppError('not_found', 'User not found.', { message: `user ${userId} is not visible to the caller` });

/**
 * A user as the caller may see them: platform admins and the user themselves see every tenant of the
 * account; anyone else only a user they share an active company with, and only the shared companies,
 * so a user's other clients or employers are not revealed. Everyone else gets 404.
 */
export const userForCaller = async (
  request: FastifyRequest,
  userId: number,
  readAfter: ReadAfter = request.readAfter,
): Promise<UserWithTenants> => {
  const caller = requireCaller(request);
  const { db } = request.server.services;
  const { user } = await queryUserWithTenants(db, { userId, ...readAfter });
  if (!user || user.deleted) throw notFound(userId);
  if (caller.isPlatformAdmin || caller.userId === userId) return user;
  const { tenants } = await queryUserTenants(db, { userId: caller.userId, ...readAfter });
  const mine = new Set(tenants.map((tenant) => tenant.Id));
  const shared = user.Tenants.filter((tenant) => mine.has(tenant.Id));
  if (shared.length === 0) throw notFound(userId);
  return { ...user, Tenants: shared };
};
