import type { Db } from 'mongodb';
import { ledgerCollections, ledgerEntities } from './ledger-collections';
import { LEDGER_OUTBOX, type LedgerOutboxEntry } from './ledger-outbox';

/**
 * Tenant purge: the company's synced ledger (its customers' names and addresses in plain documents)
 * goes, and so do the outbox entries not yet sent to Kafka, which hold the same records. Entries are
 * keyed by seller, so the tenant's sellers are those the caller knows (the sellers read model) and
 * those its ledger rows name: an entry is written before its page's rows, never after.
 */
export const deleteTenantLedger = async (
  db: Db,
  tenant: { tenantId: number; sellerIds: readonly number[] },
): Promise<void> => {
  const { tenantId } = tenant;
  const named = await Promise.all(
    ledgerEntities.map((entity) =>
      db.collection(ledgerCollections[entity]).distinct('sellerId', { tenantId }),
    ),
  );
  const sellerIds = [
    ...new Set([...tenant.sellerIds, ...named.flat().filter((id) => typeof id === 'number')]),
  ];
  if (sellerIds.length > 0)
    await db.collection<LedgerOutboxEntry>(LEDGER_OUTBOX).deleteMany({ sellerId: { $in: sellerIds } });
  for (const entity of ledgerEntities)
    await db.collection(ledgerCollections[entity]).deleteMany({ tenantId });
};
