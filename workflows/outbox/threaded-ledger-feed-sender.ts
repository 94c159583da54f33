import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { KafkaConfig } from 'kafkajs';
import type { LedgerEntity } from '../../contracts/ledger';
import { ledgerEntities } from '../ledger/ledger-collections';
import { outboxRecordIdsOf, outboxValuesOf, type LedgerOutboxEntry } from '../ledger/ledger-outbox';
import { pendingReplies, startTypeScriptThread } from '../threads/request-thread';
import type { LedgerFeedSender } from './ledger-feed-sender';

/** What the feed thread needs to make its own Kafka client (functions do not cross threads). */
export type FeedThreadData = {
  kafka: Pick<KafkaConfig, 'clientId' | 'brokers' | 'logLevel'> & { brokers: string[] };
  topicPrefix: string;
};

export type FeedThreadRequest =
  | {
      type: 'send';
      id: number;
      sellerId: number;
      /** Record ids only when the entry lists them; otherwise the thread reads them from the lines. */
      records: { entity: LedgerEntity; values: string[]; recordIds?: string[] }[];
    }
  | { type: 'disconnect' };

export type FeedThreadReply =
  | { type: 'sent'; id: number; sent: number }
  | { type: 'failed'; id: number; error: string }
  | { type: 'disconnected' };

const requestOf = (id: number, entry: LedgerOutboxEntry): FeedThreadRequest => ({
  type: 'send',
  id,
  sellerId: entry.sellerId,
  records: ledgerEntities
    .map((entity) => ({
      entity,
      values: outboxValuesOf(entry, entity),
      ...(entry.recordIds?.[entity] !== undefined ? { recordIds: outboxRecordIdsOf(entry, entity) } : {}),
    }))
    .filter(({ values }) => values.length > 0),
});

/** How long disconnect waits for the thread's producer before ending the thread. */
const DISCONNECT_MS = 10_000;

/**
 * A LedgerFeedSender whose Kafka producer runs in a worker thread (docs/adr/0055-sync-sends-the-feed-from-a-thread.md):
 * kafkajs encodes every record and its two headers on the thread that sends, which on the sync's own
 * thread took about a fifth of its time, beside the row inserts it could run next to. The records sent
 * are the same as createLedgerFeedSender's (same topics, keys, headers, order, acks); `send` resolves
 * once Kafka acknowledged the entry's records, and rejects if Kafka or the thread failed (a thread
 * that died is started again on the next send).
 */
export const createThreadedLedgerFeedSender = (options: FeedThreadData): LedgerFeedSender => {
  const pending = pendingReplies<number>();
  let thread: Worker | null = null;
  const start = (): Worker => {
    const started = startTypeScriptThread(join(__dirname, 'ledger-feed-thread.ts'), options);
    started.on('message', (reply: FeedThreadReply) => {
      if (reply.type === 'disconnected') return;
      if (reply.type === 'sent') pending.answer(reply.id, reply.sent);
      else pending.fail(reply.id, new Error(reply.error));
      // An idle thread does not keep the process alive.
      if (pending.size === 0) started.unref();
    });
    started.on('error', (error) => {
      if (thread === started) thread = null;
      pending.failAll(error);
    });
    started.on('exit', (code) => {
      if (thread === started) thread = null;
      pending.failAll(new Error(`The ledger feed thread stopped (exit code ${code}).`));
    });
    return started;
  };
  return {
    send: (entry) =>
      new Promise<number>((resolve, reject) => {
        thread ??= start();
        const id = pending.add(resolve, reject);
        thread.ref();
        thread.postMessage(requestOf(id, entry));
      }),
    disconnect: async () => {
      const stopping = thread;
      if (!stopping) return;
      thread = null;
      const stopped = new Promise<void>((resolve) => {
        stopping.on('message', (reply: FeedThreadReply) => {
          if (reply.type === 'disconnected') resolve();
        });
        stopping.once('exit', () => resolve());
      });
      stopping.ref();
      stopping.postMessage({ type: 'disconnect' } satisfies FeedThreadRequest);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([stopped, new Promise((resolve) => (timer = setTimeout(resolve, DISCONNECT_MS)))]);
      clearTimeout(timer);
      await stopping.terminate();
    },
  };
};
