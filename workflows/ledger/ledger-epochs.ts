import type { Db } from 'mongodb';

/** Per seller, the ledger epoch its records carry: the id of the sync that last (re)populated it. */
const LEDGER_SELLERS = 'ledger_sellers';

type LedgerSellerDoc = { _id: number; epoch: number };

export const recordLedgerEpoch = async (db: Db, entry: { sellerId: number; epoch: number }) => {
  await db
    .collection<LedgerSellerDoc>(LEDGER_SELLERS)
    .updateOne({ _id: entry.sellerId }, { $set: { epoch: entry.epoch } }, { upsert: true });
};

/** 0 for a seller whose ledger was never populated (a sync of such a seller is refused before this). */
export const ledgerEpochOf = async (db: Db, sellerId: number): Promise<number> =>
  (await db.collection<LedgerSellerDoc>(LEDGER_SELLERS).findOne({ _id: sellerId }))?.epoch ?? 0;
