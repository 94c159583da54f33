import type { Db } from 'mongodb';
import { ledgerCollections, ledgerEntities } from './ledger-collections';
import { CUSTOMER_RECEIVABLES } from '../metrics/metric-store';
import { LEDGER_OUTBOX, type LedgerOutboxEntry } from './ledger-outbox';
import { QBO_CREDIT_APPLICATIONS } from '../connectors/quickbooks-online/qbo-credit-applications';
import { STRIPE_INVOICE_PAYMENTS } from '../connectors/stripe/stripe-invoice-payments';

/**
 * Tenant purge: the company's synced ledger (its customers' names and addresses in plain documents)
 * goes, and so do the outbox entries not yet sent to Kafka, which hold the same records, and the
 * sellers' customers table (metric-store.ts), which holds their names, and what the QuickBooks and
 * Stripe connectors keep between pages about the seller's applications. Entries are
 * keyed by seller: the caller names the tenant's sellers (the sellers read model keeps every seller
 * ever connected, deleted ones included). No extra scan of the ledger for seller ids: on the wire
 * server each is a full pass over every tenant's rows, and the purge is one HTTP request.
 */
export const deleteTenantLedger = async (
  db: Db,
  tenant: { tenantId: number; sellerIds: readonly number[] },
): Promise<void> => {
  const { tenantId, sellerIds } = tenant;
  if (sellerIds.length > 0) {
    await db.collection<LedgerOutboxEntry>(LEDGER_OUTBOX).deleteMany({ sellerId: { $in: [...sellerIds] } });
    // The customers table of the metrics runs holds the customers' names and emails too.
    await db.collection(CUSTOMER_RECEIVABLES).deleteMany({ sellerId: { $in: [...sellerIds] } });
    // What the QuickBooks and Stripe connectors keep between pages (which credit or charge paid what).
    for (const kept of [QBO_CREDIT_APPLICATIONS, STRIPE_INVOICE_PAYMENTS])
      await db.collection(kept).deleteMany({ sellerId: { $in: [...sellerIds] } });
  }
  for (const entity of ledgerEntities)
    await db.collection(ledgerCollections[entity]).deleteMany({ tenantId });
};
