import type { SellerAuthTokenStatus, SellerProvider } from '../../contracts/events/seller';
import { sellerProgress } from '../../domain/seller/seller';

/** admin.md and portal.md section 9: under 60 minutes is recent; empty or 60 minutes or more is stale. */
export const RECENCY_CUTOFF_MS = 60 * 60 * 1000;
/** portal.md section 9: QBD sync warning after 10 days without sync. */
export const QBD_SYNC_WARNING_MS = 10 * 24 * 60 * 60 * 1000;

export type Recency = 'recent' | 'stale';

export const recencyOf = (date: Date | null, now: Date): Recency =>
  date !== null && now.getTime() - date.getTime() < RECENCY_CUTOFF_MS ? 'recent' : 'stale';

/** The oldest date that is still recent at `now`, for filtering in the database. */
export const recentSince = (now: Date): Date => new Date(now.getTime() - RECENCY_CUTOFF_MS + 1);

type StatusFacts = {
  provider: SellerProvider;
  authTokenStatus: SellerAuthTokenStatus;
  collectionDate: Date | null;
};

export type SellerStatus =
  | { kind: 'revoked'; text: 'Authentication Revoked' }
  | { kind: 'synced'; text: string; lastSync: string }
  | { kind: 'pending_installation'; text: 'Pending installation...' }
  | { kind: 'pending_sync'; text: 'Pending sync...' };

/**
 * The connected-platforms status text (portal.md section 2.3), in that order of precedence. The date
 * is the UTC day; the browser may show `lastSync` in the user's own format.
 */
export const sellerStatus = (seller: StatusFacts): SellerStatus => {
  if (seller.authTokenStatus === 'REVOKED') return { kind: 'revoked', text: 'Authentication Revoked' };
  if (seller.collectionDate !== null) {
    const lastSync = seller.collectionDate.toISOString();
    return { kind: 'synced', text: `Last sync on ${lastSync.slice(0, 10)}`, lastSync };
  }
  if (seller.provider === 'QBD') return { kind: 'pending_installation', text: 'Pending installation...' };
  return { kind: 'pending_sync', text: 'Pending sync...' };
};

/** A QuickBooks Desktop seller whose last sync is more than 10 days old (never synced shows no warning). */
export const qbdSyncWarning = (seller: Omit<StatusFacts, 'authTokenStatus'>, now: Date): boolean =>
  seller.provider === 'QBD' &&
  seller.collectionDate !== null &&
  now.getTime() - seller.collectionDate.getTime() > QBD_SYNC_WARNING_MS;

export type SellerProgress = 'pending' | 'syncing' | 'generating' | 'completed';

/**
 * A tenant's progress (portal.md section 4): pending without sellers, else the least advanced of its
 * sellers, so the dashboard never announces data that one of them does not have yet.
 */
export const tenantSellerProgress = (
  sellers: readonly { collectionDate: Date | null; metricsDate: Date | null }[],
): SellerProgress => {
  if (sellers.length === 0) return 'pending';
  const stages = sellers.map((seller) =>
    sellerProgress({
      collectionDate: seller.collectionDate?.toISOString() ?? null,
      metricsDate: seller.metricsDate?.toISOString() ?? null,
    }),
  );
  if (stages.includes('syncing')) return 'syncing';
  if (stages.includes('generating')) return 'generating';
  return 'completed';
};

export type SellerSyncAction = 'populate' | 'sync' | 'repopulate';

/**
 * admin.md section 4: no CollectionDate offers Populate, one offers Sync and Repopulate (Reset for QBD);
 * QBD sellers sync through the Web Connector, so they offer neither Sync nor Populate.
 */
export const sellerSyncActions = (
  seller: Pick<StatusFacts, 'provider' | 'collectionDate'>,
): SellerSyncAction[] => {
  if (seller.provider === 'QBD') return seller.collectionDate === null ? [] : ['repopulate'];
  return seller.collectionDate === null ? ['populate'] : ['sync', 'repopulate'];
};
