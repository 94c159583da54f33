import type { Db } from 'mongodb';
import type { LedgerCustomer } from '../../contracts/ledger';
import { ledgerCollections, type LedgerDoc } from './ledger-collections';

/** The most customers one answer lists; the customer sheet report covers larger ledgers. */
export const CUSTOMERS_MAX_ROWS = 5000;

/** A tenant's customers across its sellers' ledgers, by name (GET /api/tenants/{id}/customers). */
export const queryTenantCustomers = async (
  db: Db,
  query: { tenantId: number; sellerIds?: readonly number[] },
): Promise<{ customers: LedgerCustomer[]; total: number }> => {
  const collection = db.collection<LedgerDoc<'customers'>>(ledgerCollections.customers);
  const filter = {
    tenantId: query.tenantId,
    ...(query.sellerIds ? { sellerId: { $in: [...query.sellerIds] } } : {}),
  };
  const [docs, total] = await Promise.all([
    collection.find(filter).sort({ name: 1, _id: 1 }).limit(CUSTOMERS_MAX_ROWS).toArray(),
    collection.countDocuments(filter),
  ]);
  return { customers: docs, total };
};
