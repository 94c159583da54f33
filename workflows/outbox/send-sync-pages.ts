import type { Db } from 'mongodb';
import { LEDGER_OUTBOX, type LedgerOutboxEntry } from '../ledger/ledger-outbox';
import type { LedgerFeedSender } from './ledger-feed-sender';

/**
 * How long the publisher leaves a page's outbox entry to the sync that wrote it. Past that, the sync
 * is taken for dead and the publisher sends the entry; a sync that is only slow then duplicates it.
 */
export const SYNC_SEND_LEASE_MS = 60_000;

/**
 * A sync's own sends of the pages it writes (docs/kafka-topics.md): each page's outbox entries go to
 * Kafka right after the page is written, one page at a time and in order, and are deleted once Kafka
 * acknowledged them. The entries stay the fallback: if the sync dies or Kafka fails it, they remain
 * for the publisher, and from the first failure on this sync leaves the rest to the publisher too,
 * so a seller's entries still reach Kafka in the order they were written.
 */
export const createSyncPageSender = (deps: {
  db: Db;
  feed: LedgerFeedSender;
  onFailure: (error: unknown) => void;
}) => {
  const outbox = deps.db.collection<LedgerOutboxEntry>(LEDGER_OUTBOX);
  let failed = false;
  let inFlight: Promise<void> = Promise.resolve();
  const sendAll = async (entries: LedgerOutboxEntry[]) => {
    for (const entry of entries) {
      if (failed) return;
      try {
        await deps.feed.send(entry);
      } catch (error) {
        failed = true;
        deps.onFailure(error);
        return;
      }
      await outbox.deleteOne({ _id: entry._id });
    }
  };
  return {
    /**
     * Entries an earlier attempt of this sync left (it died before sending them): sent first, in the
     * order they were written, so no later page overtakes them.
     */
    sendLeftovers: async (sellerId: number) => {
      await sendAll(await outbox.find({ sellerId }).toArray());
    },
    /**
     * Queues a written page's entries behind the previous page's, after waiting for the page before
     * that: at most one page is in flight while the next one is written.
     */
    sendPage: async (entries: LedgerOutboxEntry[]) => {
      await inFlight;
      inFlight = sendAll(entries);
      // A rejected delete surfaces in flush; until then it must not count as unhandled.
      inFlight.catch(() => undefined);
    },
    /** Waits for the pages in flight. */
    flush: async () => {
      await inFlight;
    },
  };
};
