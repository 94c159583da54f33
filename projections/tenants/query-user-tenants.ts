import type { Db } from 'mongodb';
import type { z } from 'zod';
import type { MyTenant } from '../../contracts/api/tenants';
import { membershipsCollection } from '../users/membership-counts';
import { USERS } from '../users/users-projection';
import { waitForReadModels, type Consistency } from '../wait-for-read-models';
import { tenantsCollection } from './tenant-view';
import { TENANTS } from './tenants-projection';

/** One entry of the tenant switcher: the API's MyTenant. */
export type SwitchableTenant = z.infer<typeof MyTenant>;

/**
 * The tenants a user can switch to: their active memberships in tenants that are neither disabled nor
 * purged, by name. (A platform admin may switch anywhere; that is the admin tenants list.)
 */
export const queryUserTenants = async (
  db: Db,
  query: Consistency & { userId: number },
): Promise<{ tenants: SwitchableTenant[]; stale: boolean }> => {
  const stale = await waitForReadModels(db, [TENANTS, USERS], query);
  const memberships = await (
    await membershipsCollection(db)
  )
    .find({ userId: query.userId, Status: 'ACTIVE', userDeleted: false })
    .toArray();
  if (memberships.length === 0) return { tenants: [], stale };
  const byTenant = new Map(memberships.map((m) => [m.tenantId, m]));
  const docs = await (
    await tenantsCollection(db)
  )
    .find({ _id: { $in: [...byTenant.keys()] }, status: 'active' })
    .sort({ sortName: 1, _id: 1 })
    .toArray();
  const tenants = docs.flatMap((doc): SwitchableTenant[] => {
    const membership = byTenant.get(doc._id);
    if (!membership) return [];
    return [
      {
        Id: doc._id,
        Name: doc.Name,
        FriendlyName: doc.FriendlyName,
        Classification: doc.Classification,
        UsageType: doc.UsageType,
        Role: membership.Role,
        MembershipClassification: membership.Classification,
      },
    ];
  });
  return { tenants, stale };
};
