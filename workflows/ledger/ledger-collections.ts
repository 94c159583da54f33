import type { Db, IndexSpecification } from 'mongodb';
import type { LedgerEntity, LedgerRecordOf } from '../../contracts/ledger';

/** One collection per ledger entity, shared by every seller and keyed `<sellerId>:<providerId>`. */
export const ledgerCollections: Record<LedgerEntity, string> = {
  customers: 'ledger_customers',
  products: 'ledger_products',
  invoices: 'ledger_invoices',
  payments: 'ledger_payments',
  creditMemos: 'ledger_credit_memos',
};

export const ledgerEntities = Object.keys(ledgerCollections) as LedgerEntity[];

/** A stored ledger record; its publication to Kafka goes through the outbox (ledger-outbox.ts). */
export type LedgerDoc<E extends LedgerEntity> = LedgerRecordOf[E] & {
  _id: string;
  tenantId: number;
  /** The sync run that (re)populated the seller; a repopulate starts a new epoch (see docs/kafka-topics.md). */
  epoch: number;
  /** Digest of the record's content: unchanged records are not rewritten nor republished. */
  hash: string;
  changedAt: Date;
};

export const ledgerDocId = (sellerId: number, providerId: string) => `${sellerId}:${providerId}`;

type IndexSpec = { key: IndexSpecification & Record<string, 1 | -1>; name: string };

/** The indexes the portal, admin and metric queries use. */
const ledgerIndexes: Record<LedgerEntity, IndexSpec[]> = {
  customers: [{ key: { sellerId: 1, customerId: 1 }, name: 'seller_customer' }],
  products: [{ key: { sellerId: 1, productId: 1 }, name: 'seller_product' }],
  invoices: [
    { key: { sellerId: 1, transactionDate: 1 }, name: 'seller_date' },
    { key: { sellerId: 1, customerId: 1, transactionDate: 1 }, name: 'seller_customer_date' },
    { key: { sellerId: 1, dueDate: 1 }, name: 'seller_due' },
    // Aging as of a date starts from the invoices still open (workflows/metrics/receivables-queries.ts).
    { key: { sellerId: 1, balance: 1 }, name: 'seller_balance' },
  ],
  payments: [
    { key: { sellerId: 1, date: 1 }, name: 'seller_date' },
    { key: { sellerId: 1, customerId: 1, date: 1 }, name: 'seller_customer_date' },
  ],
  creditMemos: [
    { key: { sellerId: 1, date: 1 }, name: 'seller_date' },
    { key: { sellerId: 1, customerId: 1, date: 1 }, name: 'seller_customer_date' },
  ],
};

/**
 * Creates the missing ledger indexes only: FerretDB drops the connection on a createIndexes of an
 * index that exists (the pattern of projections/framework/read-model-versions.ts).
 */
export const ensureLedgerIndexes = async (db: Db): Promise<void> => {
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const entity of ledgerEntities) {
    const name = ledgerCollections[entity];
    const specs = ledgerIndexes[entity];
    const present = existing.has(name)
      ? new Set(
          (await db.collection(name).listIndexes().toArray()).map((index: { name?: unknown }) =>
            String(index.name),
          ),
        )
      : new Set<string>();
    const missing = specs.filter((spec) => !present.has(spec.name));
    if (missing.length > 0) await db.collection(name).createIndexes(missing);
  }
};
