import type { Db } from 'mongodb';
import { BILLING_SUBSCRIPTIONS } from '../billing/billing-projection';
import { PARTNERS } from '../partners/partners-projection';
import { waitForReadModels, type Consistency } from '../wait-for-read-models';
import { partnersCollection, tenantsCollection, toTenantViews, type TenantView } from './tenant-view';
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
  const stale = await waitForReadModels(db, [TENANTS, PARTNERS, BILLING_SUBSCRIPTIONS], query);
  const tenants = await tenantsCollection(db);
  const doc = await tenants.findOne({
    _id: query.tenantId,
    ...(query.includePurged ? {} : { status: { $ne: 'purged' as const } }),
  });
  if (!doc) return { tenant: null, stale };
  const [tenant] = await toTenantViews(db, [doc]);
  return { tenant: tenant ?? null, stale };
};

/** A tenant linked through a partner: a firm's clients, or a client's advisory firm. */
export type LinkedTenant = {
  Id: number;
  Name: string;
  Classification: TenantView['Classification'];
  /** client: linked to one of this tenant's partners; advisor: owns the partner this tenant belongs to. */
  link: 'client' | 'advisor';
};

/** The admin tenants list's expandable row, Linked Tenants: by name, purged tenants left out. */
export const queryLinkedTenants = async (
  db: Db,
  query: Consistency & { tenantId: number },
): Promise<{ tenants: LinkedTenant[]; stale: boolean }> => {
  const stale = await waitForReadModels(db, [TENANTS, PARTNERS], query);
  const [tenants, partners] = await Promise.all([tenantsCollection(db), partnersCollection(db)]);
  const self = await tenants.findOne({ _id: query.tenantId });
  if (!self) return { tenants: [], stale };
  const owned = await partners.find({ tenantId: query.tenantId }, { projection: { _id: 1 } }).toArray();
  const advisoryPartner =
    self.PartnerId === null
      ? null
      : await partners.findOne({ _id: self.PartnerId }, { projection: { tenantId: 1 } });
  const present = { status: { $ne: 'purged' as const } };
  const [clients, advisors] = await Promise.all([
    owned.length === 0
      ? []
      : tenants.find({ ...present, PartnerId: { $in: owned.map((p) => p._id) } }).toArray(),
    advisoryPartner ? tenants.find({ ...present, _id: advisoryPartner.tenantId }).toArray() : [],
  ]);
  const linked = [
    ...advisors.map((t): LinkedTenant => ({
      Id: t._id,
      Name: t.Name,
      Classification: t.Classification,
      link: 'advisor',
    })),
    ...clients
      .filter((t) => t._id !== query.tenantId)
      .map((t): LinkedTenant => ({
        Id: t._id,
        Name: t.Name,
        Classification: t.Classification,
        link: 'client',
      })),
  ];
  return { tenants: linked.sort((a, b) => a.Name.localeCompare(b.Name) || a.Id - b.Id), stale };
};
