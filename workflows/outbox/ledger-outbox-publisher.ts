import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import { brokerReconnect, keepRunning, pause } from '../../commands/retry';
import { LEDGER_OUTBOX, type LedgerOutboxEntry } from '../ledger/ledger-outbox';
import { createLedgerFeedSender, type LedgerFeedSender } from './ledger-feed-sender';

/**
 * Publishes the ledger outbox to Kafka, at least once: send an entry's records, wait for the brokers'
 * acknowledgement, then delete the entry. A crash between the two resends that entry's records with
 * the same record ids, which consumers dedupe (docs/kafka-topics.md). Entries go in the order they
 * were written, so a seller's later version of a record follows its earlier one. Syncs send their
 * own entries (send-sync-pages.ts); the publisher takes those only once their lease has passed.
 */
export type LedgerOutboxPublisher = {
  /** Publishes until the outbox is empty; returns how many records it sent. */
  drain: () => Promise<number>;
  /** Polls in the background until stop. */
  start: () => void;
  stop: () => Promise<void>;
};

export type LedgerOutboxOptions = {
  db: Db;
  kafka: Kafka;
  topicPrefix: string;
  /** Outbox entries (pages) read per round. */
  batchSize?: number;
  pollIntervalMs?: number;
  onError?: (error: unknown) => void;
};

/**
 * Whether the publisher may send an entry: one a sync leaves to it, or one a sync meant to send
 * itself whose lease ran out (the sync died, or Kafka failed it). Taking a leased entry early would
 * only duplicate records; the lease keeps the publisher from racing a live sync.
 */
const publishable = (entry: LedgerOutboxEntry, now: number) =>
  entry.sendAfter === undefined || entry.sendAfter.getTime() <= now;

const publishRound = async (
  options: LedgerOutboxOptions & { sender: LedgerFeedSender },
): Promise<{ entries: number; sent: number }> => {
  const outbox = options.db.collection<LedgerOutboxEntry>(LEDGER_OUTBOX);
  // The oldest entries only, no filter and no sort: FerretDB reads just those (natural order is the
  // insertion order), where a filter or a sort would read and parse every entry. An entry still
  // leased to its sync holds back the ones behind it, for at most the lease: the entries are mostly
  // leased ones their syncs delete within a second, and a seller's entries stay in order.
  const head = await outbox
    .find({})
    .limit(options.batchSize ?? 4)
    .toArray();
  const now = Date.now();
  const leased = head.findIndex((entry) => !publishable(entry, now));
  const entries = leased === -1 ? head : head.slice(0, leased);
  let sent = 0;
  // One delete per entry: FerretDB finds an _id by reading the (small) outbox at SQLite level, while
  // deleteMany with $in parses every entry in Go, several times slower (docs/kafka-topics.md).
  for (const entry of entries) {
    sent += await options.sender.send(entry);
    await outbox.deleteOne({ _id: entry._id });
  }
  return { entries: entries.length, sent };
};

export const createLedgerOutboxPublisher = (options: LedgerOutboxOptions): LedgerOutboxPublisher => {
  const sender = createLedgerFeedSender({ kafka: options.kafka, topicPrefix: options.topicPrefix });
  let stopping: AbortController | null = null;
  let loop: Promise<void> | null = null;

  const drain = async () => {
    let sent = 0;
    for (;;) {
      const round = await publishRound({ ...options, sender });
      sent += round.sent;
      if (round.entries === 0) return sent;
    }
  };

  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  // After a failure (Kafka or Mongo away) the next round comes one poll interval later, as after success.
  const poll = (signal: AbortSignal) =>
    keepRunning(
      brokerReconnect({ delayMs: pollIntervalMs }),
      async () => {
        await drain();
        await pause(pollIntervalMs, signal);
      },
      { signal, onFailure: (error) => options.onError?.(error) },
    );

  return {
    drain,
    start: () => {
      if (stopping) return;
      stopping = new AbortController();
      loop = poll(stopping.signal);
    },
    stop: async () => {
      stopping?.abort();
      stopping = null;
      await loop;
      await sender.disconnect();
    },
  };
};
