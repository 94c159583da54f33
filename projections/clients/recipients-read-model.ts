import type { Db } from 'mongodb';
import type { RecipientState } from '../../contracts/events/recipient';
import { versionedCollectionName } from '../framework/projection';
import { currentVersion } from '../framework/read-model-versions';

/**
 * The fields read from the recipients read model (projections/recipients/, kept by a colleague): one
 * document per report subscription. Deleted ones may be flagged or removed; both count as gone.
 */
export type RecipientRow = { _id: number; tenantId: number; state: RecipientState; deleted?: boolean };

/** The recipients projection's name and base collection name. */
const RECIPIENTS = 'recipients';

/**
 * The one place that finds the recipients collection. Once projections/recipients/ exports its
 * projection, this becomes `currentCollection(db, recipientsProjection, 'recipients')`.
 */
const recipientsCollection = async (db: Db) =>
  db.collection<RecipientRow>(versionedCollectionName(RECIPIENTS, await currentVersion(db, RECIPIENTS)));

/** Subscriptions that receive reports: ACTIVE and ADMIN (INACTIVE and DEACTIVATED ones do not). */
const receiving: RecipientState[] = ['ACTIVE', 'ADMIN'];

/** The Recipients column of the clients table: receiving report subscriptions per tenant. */
export const recipientCountsByTenant = async (
  db: Db,
  tenantIds: readonly number[],
): Promise<Map<number, number>> => {
  if (tenantIds.length === 0) return new Map();
  const rows = await (
    await recipientsCollection(db)
  )
    .aggregate<{ _id: number; count: number }>([
      { $match: { tenantId: { $in: [...tenantIds] }, state: { $in: receiving }, deleted: { $ne: true } } },
      { $group: { _id: '$tenantId', count: { $sum: 1 } } },
    ])
    .toArray();
  return new Map(rows.map((row) => [row._id, row.count]));
};
