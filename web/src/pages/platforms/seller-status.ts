import type { IntegrationResponse } from '../../../../contracts/api/integrations';
import type { SellerStatus } from '../../../../contracts/api/sellers';

/** The calendar day of an ISO time, in the user's own format. */
export const dayOf = (iso: string): string => new Date(iso).toLocaleDateString();

/**
 * The server's status of a seller (its rules live in projections/sellers/seller-status.ts), with the
 * day of the last sync in the user's own format rather than the server's UTC day.
 */
export const sellerStatusText = (status: SellerStatus): string =>
  status.kind === 'synced' ? `Last sync on ${dayOf(status.lastSync)}` : status.text;

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
