import type { Db } from 'mongodb';
import { emptyLedgerPage } from '../../../contracts/ledger';
import { ledgerEpochOf } from '../../ledger/ledger-epochs';
import type { LedgerConnector } from '../../sync/ledger-connector';
import { QBD_RESETS_COLLECTION } from './qbd-session';

/**
 * QuickBooks Desktop in the sync workflow (ADR 44). QuickBooks Desktop cannot be called: the
 * Web Connector calls us, on the schedule of the .qwc file. The only sync the seller decider lets a
 * QBD seller run is Repopulate ("Reset"), which empties the ledger into a new epoch; this connector
 * answers no records and leaves a note that the next Web Connector session must fetch everything
 * into that epoch.
 */
export const createQbdConnector = (deps: { db: Db; now: () => Date }): LedgerConnector => ({
  fetchPage: async (request) => {
    if (request.since === null)
      await deps.db
        .collection<{ _id: number; epoch: number; at: Date }>(QBD_RESETS_COLLECTION)
        .updateOne(
          { _id: request.sellerId },
          { $set: { epoch: await ledgerEpochOf(deps.db, request.sellerId), at: deps.now() } },
          { upsert: true },
        );
    return { page: emptyLedgerPage(), nextCursor: null, done: 0, total: 0 };
  },
});
