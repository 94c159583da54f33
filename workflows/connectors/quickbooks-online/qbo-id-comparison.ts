import type { Db } from 'mongodb';
import type { LedgerEntity } from '../../../contracts/ledger';
import { ledgerCollections } from '../../ledger/ledger-collections';

/**
 * Deletions Change Data Capture cannot list (docs/adr/0043-accounting-connectors.md, QBO). When an
 * entity changed more than CDC answers, or the last sync is older than CDC looks back, the sync
 * reads the changed records with the query endpoint, which lists no deletions. It then pages the
 * entity's ids (`SELECT Id FROM <Entity> ORDERBY Id`) and compares them, a page at a time, with the
 * ids the ledger holds for the seller: a stored id inside the range a page covers that the page
 * lacks was deleted in QuickBooks. Voided transactions stay in QuickBooks (with zero amounts), so
 * they are in the pages and keep their rows.
 *
 * The stored ids of one comparison are read once and kept here, sorted, as numbers (QBO's ids are
 * numeric: 8 bytes each); a worker restarted mid-comparison reads them again. Rows only leave the
 * ledger meanwhile (this comparison's own deletions), and rows written meanwhile are records
 * QuickBooks has, so a stale copy never deletes a record that is still there.
 */

/** Numeric order of QBO ids, as `ORDERBY Id` pages them. */
export const compareQboIds = (a: string, b: string) => {
  const x = Number(a);
  const y = Number(b);
  if (Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
};

/** The query of one page of ids. */
export const qboIdsStatement = (entity: string, page: { start: number; size: number }) =>
  `SELECT Id FROM ${entity} ORDERBY Id STARTPOSITION ${page.start} MAXRESULTS ${page.size}`;

/** Comparisons kept at once (sellers a worker compares concurrently); the oldest goes first. */
const KEPT = 16;

export const createStoredIds = (db: Db) => {
  const kept = new Map<string, Float64Array>();

  const load = async (sellerId: number, entity: LedgerEntity): Promise<Float64Array> => {
    const rows = await db
      .collection<{ providerId: string }>(ledgerCollections[entity])
      .find({ sellerId }, { projection: { _id: 0, providerId: 1 } })
      .toArray();
    const ids = rows
      .map((row) => Number(row.providerId))
      .filter((id, i) => Number.isSafeInteger(id) && String(id) === rows[i]!.providerId);
    return Float64Array.from(ids).sort();
  };

  /** First index of `ids` whose value is above `value` (ids sorted ascending). */
  const above = (ids: Float64Array, value: number) => {
    let low = 0;
    let high = ids.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (ids[mid]! <= value) low = mid + 1;
      else high = mid;
    }
    return low;
  };

  return {
    /**
     * The stored ids of the seller's `entity` in (after, through] (null: unbounded) that `present`
     * lacks. `key` names one comparison (seller, entity, sync); its stored ids are read on first use.
     */
    missing: async ({
      key,
      sellerId,
      entity,
      after,
      through,
      present,
    }: {
      key: string;
      sellerId: number;
      entity: LedgerEntity;
      after: string | null;
      through: string | null;
      present: ReadonlySet<string>;
    }): Promise<string[]> => {
      let ids = kept.get(key);
      if (!ids) {
        ids = await load(sellerId, entity);
        kept.set(key, ids);
        while (kept.size > KEPT) kept.delete(kept.keys().next().value!);
      }
      const from = after === null ? 0 : above(ids, Number(after));
      const to = through === null ? ids.length : above(ids, Number(through));
      const gone: string[] = [];
      for (let i = from; i < to; i += 1) {
        const id = String(ids[i]);
        if (!present.has(id)) gone.push(id);
      }
      return gone;
    },
    /** The comparison ended: its ids are dropped. */
    done: (key: string) => {
      kept.delete(key);
    },
  };
};

export type StoredIds = ReturnType<typeof createStoredIds>;
