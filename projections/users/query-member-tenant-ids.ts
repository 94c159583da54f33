import type { Db } from 'mongodb';
import { membershipsCollection } from './membership-counts';

/** The tenants a user belongs to, whatever the membership's status (live notices about the person). */
export const queryMemberTenantIds = async (db: Db, userId: number): Promise<number[]> => {
  const memberships = await membershipsCollection(db);
  const rows = await memberships.find({ userId }, { projection: { tenantId: 1 } }).toArray();
  return [...new Set(rows.map((row) => row.tenantId))];
};
