import type { IntegrationResponse } from '../../../../contracts/api/integrations';
import type { SellerResponse } from '../../../../contracts/api/sellers';

/** portal.md section 9: under 60 minutes is recent; empty or 60 minutes or more is stale. */
export const recencyCutoffMs = 60 * 60 * 1000;
/** portal.md section 9: the QBD sync warning after 10 days without sync. */
export const qbdWarningMs = 10 * 24 * 60 * 60 * 1000;

type StatusFacts = Pick<SellerResponse, 'Provider' | 'AuthToken' | 'CollectionDate'>;

/** The calendar day of an ISO time, in the user's own format. */
export const dayOf = (iso: string): string => new Date(iso).toLocaleDateString();

/**
 * The seller's status text (portal.md section 2.3), in this order: a revoked token, the last sync,
 * a QBD Web Connector not yet installed, else waiting for the first sync.
 */
export const sellerStatusText = (seller: StatusFacts): string => {
  if (seller.AuthToken.Status === 'REVOKED') return 'Authentication Revoked';
  if (seller.CollectionDate !== null) return `Last sync on ${dayOf(seller.CollectionDate)}`;
  if (seller.Provider === 'QBD') return 'Pending installation...';
  return 'Pending sync...';
};

/** portal.md section 4: no CollectionDate is syncing; no MetricsDate is generating; both is completed. */
export const sellerProgressText = (seller: Pick<SellerResponse, 'CollectionDate' | 'MetricsDate'>): string =>
  seller.CollectionDate === null
    ? 'Syncing...'
    : seller.MetricsDate === null
      ? 'Generating metrics...'
      : 'Completed';

export const isRecent = (iso: string | null, now: Date): boolean =>
  iso !== null && now.getTime() - new Date(iso).getTime() < recencyCutoffMs;

/** A QBD seller whose last sync is more than 10 days old (one never synced shows no warning). */
export const qbdSyncWarning = (
  seller: Pick<SellerResponse, 'Provider' | 'CollectionDate'>,
  now: Date,
): boolean =>
  seller.Provider === 'QBD' &&
  seller.CollectionDate !== null &&
  now.getTime() - new Date(seller.CollectionDate).getTime() > qbdWarningMs;

export const qbdWarningText =
  'QuickBooks Desktop has not synced for more than 10 days. Check that the Web Connector is running.';

/** A company URL without an http prefix is shown with http:// added (portal.md section 3). */
export const companyUrlOf = (url: string | null): string | null =>
  url === null || url === '' ? null : /^https?:\/\//i.test(url) ? url : `http://${url}`;

export const integrationStatusText = (
  integration: Pick<IntegrationResponse, 'CredentialsStatus' | 'SyncDate' | 'Active'>,
): string => {
  if (integration.CredentialsStatus === 'REVOKED') return 'Authentication Revoked';
  if (integration.CredentialsStatus === 'INVALID') return 'Credentials Invalid';
  if (integration.SyncDate !== null) return `Last sync on ${dayOf(integration.SyncDate)}`;
  return 'Pending sync...';
};
