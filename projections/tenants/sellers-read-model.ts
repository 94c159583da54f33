import type { Collection, Db } from 'mongodb';
import type { SellerProvider } from '../../contracts/events/seller';
import { versionedCollectionName } from '../framework/projection';
import { currentVersion } from '../framework/read-model-versions';

/**
 * The fields this folder reads from the sellers read model (projections/sellers/, kept by a colleague):
 * one document per seller. Deleted sellers may be flagged or removed; both count as gone.
 */
export type SellerRow = {
  _id: number;
  tenantId: number;
  provider: SellerProvider;
  active: boolean;
  deleted?: boolean;
};

/** The sellers projection's name and base collection name. */
const SELLERS = 'sellers';

/**
 * The one place that finds the sellers collection. Once projections/sellers/ exports its projection,
 * this becomes `currentCollection(db, sellersProjection, 'sellers')`.
 */
export const sellersCollection = async (db: Db): Promise<Collection<SellerRow>> =>
  db.collection<SellerRow>(versionedCollectionName(SELLERS, await currentVersion(db, SELLERS)));

/** Sellers still connected to their tenant (not deleted), active or not. */
export const notDeleted = { deleted: { $ne: true } } as const;

/** What the admin tables count as an active seller. */
export const activeSeller = { active: true, ...notDeleted } as const;

/** Active-seller count per tenant, for the given tenants or all of them. */
export const activeSellerCountsByTenant = async (
  db: Db,
  tenantIds?: readonly number[],
): Promise<Map<number, number>> => {
  const sellers = await sellersCollection(db);
  const rows = await sellers
    .aggregate<{ _id: number; count: number }>([
      { $match: { ...activeSeller, ...(tenantIds ? { tenantId: { $in: [...tenantIds] } } : {}) } },
      { $group: { _id: '$tenantId', count: { $sum: 1 } } },
    ])
    .toArray();
  return new Map(rows.map((row) => [row._id, row.count]));
};

/** The distinct providers of each tenant's connected sellers (the Platforms column), sorted. */
export const providersByTenant = async (
  db: Db,
  tenantIds: readonly number[],
): Promise<Map<number, SellerProvider[]>> => {
  if (tenantIds.length === 0) return new Map();
  const sellers = await sellersCollection(db);
  const rows = await sellers
    .find({ ...notDeleted, tenantId: { $in: [...tenantIds] } }, { projection: { tenantId: 1, provider: 1 } })
    .toArray();
  const providers = new Map<number, Set<SellerProvider>>();
  for (const row of rows) {
    const set = providers.get(row.tenantId) ?? new Set<SellerProvider>();
    set.add(row.provider);
    providers.set(row.tenantId, set);
  }
  return new Map([...providers].map(([tenantId, set]) => [tenantId, [...set].sort()]));
};

/** Active and inactive seller totals across all tenants (admin dashboard, tenants summary). */
export const sellerTotals = async (db: Db): Promise<{ active: number; inactive: number }> => {
  const sellers = await sellersCollection(db);
  const [active, inactive] = await Promise.all([
    sellers.countDocuments(activeSeller),
    sellers.countDocuments({ ...notDeleted, active: { $ne: true } }),
  ]);
  return { active, inactive };
};
