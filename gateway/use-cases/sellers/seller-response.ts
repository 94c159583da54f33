import type { Db } from 'mongodb';
import type { SellerProgressBadge, SellerResponse } from '../../../contracts/api/sellers';
import type { ReadAfter } from '../../../projections/read-after';
import { listTenantRecipients, listAdminRecipients } from '../../../projections/recipients/query-recipients';
import type { SellerView } from '../../../projections/sellers/query-sellers';

export type SellerInclude = 'Subscriptions' | 'FeatureFlags';

/** Report subscriptions per seller, read once for a page of sellers. */
const subscriptionsBySeller = async (
  db: Db,
  query: { tenantId: number | null; readAfter: ReadAfter },
): Promise<Map<number, NonNullable<SellerResponse['Subscriptions']>>> => {
  const rows =
    query.tenantId === null
      ? (await listAdminRecipients(db, { readAfter: query.readAfter })).rows
      : (await listTenantRecipients(db, { tenantId: query.tenantId, readAfter: query.readAfter })).recipients;
  const bySeller = new Map<number, NonNullable<SellerResponse['Subscriptions']>>();
  for (const row of rows) {
    const list = bySeller.get(row.SellerId) ?? [];
    list.push({
      Id: row.Id,
      SubscriberId: row.SubscriberId,
      STATE: row.STATE,
      SendWeekly: row.SendWeekly,
      SendMonthly: row.SendMonthly,
    });
    bySeller.set(row.SellerId, list);
  }
  return bySeller;
};

const progressTexts: Record<SellerResponse['Progress'], string> = {
  syncing: 'Syncing...',
  generating: 'Generating metrics...',
  completed: 'Completed',
};

/**
 * The progress badge of a seller (portal.md section 4), none while its authentication is revoked:
 * the one place this rule lives, so the web shows it instead of deriving it from the dates.
 */
export const sellerProgressBadge = (
  seller: Pick<SellerView, 'Progress'> & { AuthToken: Pick<SellerView['AuthToken'], 'Status'> },
): SellerProgressBadge =>
  seller.AuthToken.Status === 'REVOKED'
    ? null
    : { stage: seller.Progress, text: progressTexts[seller.Progress] };

/** One seller as the API answers it (the lists go through `sellerResponses`). */
export const withProgressBadge = <View extends SellerView>(
  seller: View,
): View & Pick<SellerResponse, 'ProgressBadge'> => ({
  ...seller,
  ProgressBadge: sellerProgressBadge(seller),
});

/**
 * Sellers as the API answers them: FeatureFlags and Subscriptions only when asked for
 * (`include=Subscriptions,FeatureFlags`); a single seller always carries its flags.
 */
export const sellerResponses = async <View extends SellerView>(
  db: Db,
  query: {
    sellers: readonly View[];
    include: readonly SellerInclude[];
    /** The tenant whose subscriptions to read; null for every tenant (admin scope). */
    tenantId: number | null;
    readAfter: ReadAfter;
  },
): Promise<
  (Omit<View, 'FeatureFlags'> & Pick<SellerResponse, 'FeatureFlags' | 'Subscriptions' | 'ProgressBadge'>)[]
> => {
  const subscriptions = query.include.includes('Subscriptions')
    ? await subscriptionsBySeller(db, query)
    : null;
  const withFlags = query.include.includes('FeatureFlags');
  return query.sellers.map(({ FeatureFlags, ...seller }) => ({
    ...seller,
    ProgressBadge: sellerProgressBadge(seller),
    ...(withFlags ? { FeatureFlags } : {}),
    ...(subscriptions ? { Subscriptions: subscriptions.get(seller.Id) ?? [] } : {}),
  }));
};
