import { createHash } from 'node:crypto';

/**
 * The ledger's seller-scoped integer ids (customerId, productId) for a platform's own ids. Numeric
 * ids (QuickBooks) are kept as they are, so the ids shown in the portal are the platform's; other
 * ids (Xero GUIDs, Stripe's cus_...) become a stable 48-bit number from their SHA-256, the same on
 * every sync and worker without any stored mapping (docs/adr/0043-accounting-connectors.md). At
 * 48 bits, a company of a million customers has about one chance in 500,000 of one collision.
 */
export const ledgerIdOf = (providerId: string): number => {
  if (/^[1-9]\d{0,14}$/.test(providerId)) return Number(providerId);
  const hash = createHash('sha256').update(providerId).digest();
  // Above the numeric range, so a hashed id never meets a numeric one.
  return 1e15 + hash.readUIntBE(0, 6);
};
