import type { Db } from 'mongodb';
import type { SellerProvider } from '../../contracts/events/seller';
import { currentCollection } from '../framework/read-model-versions';
import { countActiveSellersByTenant } from '../sellers/query-sellers';
import { sellersProjection, type SellerCollections, type SellerDoc } from '../sellers/sellers-projection';

/** What tenants, clients and stats read from the sellers read model (projections/sellers/). */
const sellersCollection = (db: Db) =>
  currentCollection<SellerCollections, SellerDoc>(db, sellersProjection, 'sellers');

/** Active-seller count per tenant, for the given tenants or all of them: the sellers read model's own definition. */
export const activeSellerCountsByTenant = (db: Db, tenantIds?: readonly number[]) =>
  countActiveSellersByTenant(db, tenantIds);

/** The distinct providers of each tenant's connected sellers (the Platforms column), sorted. */
export const providersByTenant = async (
  db: Db,
  tenantIds: readonly number[],
): Promise<Map<number, SellerProvider[]>> => {
  if (tenantIds.length === 0) return new Map();
  const rows = await (
    await sellersCollection(db)
  )
    .find(
      { tenantId: { $in: [...tenantIds] }, deleted: false, disconnected: false },
      { projection: { tenantId: 1, provider: 1 } },
    )
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
    sellers.countDocuments({ active: true, deleted: false }),
    sellers.countDocuments({ active: false, deleted: false }),
  ]);
  return { active, inactive };
};
