import type { Db } from 'mongodb';
import { currentCollection } from '../framework/read-model-versions';
import { tenantsProjection, type TenantDocument } from '../tenants/tenants-projection';

/**
 * A partner's Clients: the tenants whose PartnerId is the partner, read from the tenants read model.
 * Purged tenants are no one's clients any more; disabled ones still are (they may be restored).
 * Partners without clients are absent from the map.
 */
export const countClientsByPartner = async (
  db: Db,
  partnerIds: readonly number[],
): Promise<Map<number, number>> => {
  if (partnerIds.length === 0) return new Map();
  const tenants = await currentCollection<keyof typeof tenantsProjection.collections, TenantDocument>(
    db,
    tenantsProjection,
    'tenants',
  );
  const groups = await tenants
    .aggregate<{ _id: number; count: number }>([
      { $match: { PartnerId: { $in: [...partnerIds] }, status: { $ne: 'purged' } } },
      { $group: { _id: '$PartnerId', count: { $sum: 1 } } },
    ])
    .toArray();
  return new Map(groups.map((group) => [group._id, group.count]));
};
