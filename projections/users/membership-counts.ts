import type { Db } from 'mongodb';
import { currentCollection } from '../framework/read-model-versions';
import { usersProjection, type MembershipDocument } from './users-projection';

export const membershipsCollection = (db: Db) =>
  currentCollection<keyof typeof usersProjection.collections, MembershipDocument>(
    db,
    usersProjection,
    'memberships',
  );

/** Members of a tenant, whatever their status; deleted users no longer count. */
const counted = { userDeleted: false } as const;

/** User count per tenant (admin tenants list), for the given tenants or all of them. */
export const userCountsByTenant = async (
  db: Db,
  tenantIds?: readonly number[],
): Promise<Map<number, number>> => {
  const memberships = await membershipsCollection(db);
  const rows = await memberships
    .aggregate<{ _id: number; count: number }>([
      { $match: { ...counted, ...(tenantIds ? { tenantId: { $in: [...tenantIds] } } : {}) } },
      { $group: { _id: '$tenantId', count: { $sum: 1 } } },
    ])
    .toArray();
  return new Map(rows.map((row) => [row._id, row.count]));
};
