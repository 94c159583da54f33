import type { Db } from 'mongodb';
import { PARTNERS } from '../partners/partners-projection';
import { waitForReadModels, type Consistency } from '../wait-for-read-models';
import { tenantsCollection, toTenantViews, type TenantView } from './tenant-view';
import { TENANTS } from './tenants-projection';

export type TenantQuery = Consistency & {
  tenantId: number;
  /** Admins may open a purged tenant's record; everyone else gets null for it. */
  includePurged?: boolean;
};

/** GET /api/tenants/{id}: one tenant with its partners and subscription, or null when there is none. */
export const queryTenant = async (
  db: Db,
  query: TenantQuery,
): Promise<{ tenant: TenantView | null; stale: boolean }> => {
  const stale = await waitForReadModels(db, [TENANTS, PARTNERS], query);
  const tenants = await tenantsCollection(db);
  const doc = await tenants.findOne({
    _id: query.tenantId,
    ...(query.includePurged ? {} : { status: { $ne: 'purged' as const } }),
  });
  if (!doc) return { tenant: null, stale };
  const [tenant] = await toTenantViews(db, [doc]);
  return { tenant: tenant ?? null, stale };
};
