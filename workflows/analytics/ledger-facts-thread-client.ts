import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { KafkaMessage } from 'kafkajs';
import type { LedgerEntity } from '../../contracts/ledger';
import type { FactGroupDoc } from '../../projections/analytics/analytics-store';
import { pendingReplies, startTypeScriptThread } from '../threads/request-thread';
import type { BuiltBatch } from './ledger-facts-lines';

/**
 * One partition batch's lines for the facts thread: a buffer holding the values (moved to the thread,
 * not copied again), where each starts and ends in it, and each one's offset. A message without a
 * value (a tombstone at Kafka's level, never sent by the feed) is an empty line, skipped like an
 * unkeyable one.
 */
export type FactsThreadRequest = {
  id: number;
  bytes: Uint8Array<ArrayBuffer>;
  starts: Int32Array<ArrayBuffer>;
  ends: Int32Array<ArrayBuffer>;
  offsets: Float64Array<ArrayBuffer>;
};
/**
 * A batch's fact groups as columns: cloning five arrays costs the threads about a third less than
 * cloning an object per group.
 */
export type FactGroupColumns = {
  ids: string[];
  sellerIds: Float64Array;
  entities: LedgerEntity[];
  epochs: Float64Array;
  facts: string[];
};
export type FactsThreadReply =
  { id: number; columns: FactGroupColumns; records: number } | { id: number; error: string };

export const columnsOf = (groups: readonly FactGroupDoc[]): FactGroupColumns => ({
  ids: groups.map((group) => group._id),
  sellerIds: Float64Array.from(groups, (group) => group.sellerId),
  entities: groups.map((group) => group.entity),
  epochs: Float64Array.from(groups, (group) => group.epoch),
  facts: groups.map((group) => group.facts),
});

const groupsOf = (columns: FactGroupColumns): FactGroupDoc[] => {
  const groups: FactGroupDoc[] = [];
  for (let i = 0; i < columns.ids.length; i += 1)
    groups.push({
      _id: columns.ids[i]!,
      sellerId: columns.sellerIds[i]!,
      entity: columns.entities[i]!,
      epoch: columns.epochs[i]!,
      facts: columns.facts[i]!,
    });
  return groups;
};

export type FactsThread = {
  /** The batch's fact groups, built on the thread; batches are built in the order given. */
  build: (messages: readonly KafkaMessage[]) => Promise<BuiltBatch>;
  close: () => Promise<void>;
};

/**
 * The values of a batch as one buffer. kafkajs decodes a fetch response into slices of one buffer,
 * and a batch's values lie one after the other in it (between them only each record's key, headers
 * and lengths): the span from the first to the last is copied in one call, not each value in its own.
 * Measured on the suite's lines under load 9 to 12, this whole step took 0.17 to 0.35 us a record,
 * offsets included, and a copy per value alone 0.17 to 0.73 us. Values in different buffers (a
 * client that copies them) are copied one by one.
 */
export const linesOf = (messages: readonly KafkaMessage[]): Omit<FactsThreadRequest, 'id'> => {
  const starts = new Int32Array(messages.length);
  const ends = new Int32Array(messages.length);
  const offsets = new Float64Array(messages.length);
  let shared: ArrayBufferLike | null = null;
  let low = Infinity;
  let high = 0;
  let total = 0;
  for (let i = 0; i < messages.length; i += 1) {
    const message = messages[i]!;
    offsets[i] = Number(message.offset);
    const value = message.value;
    if (!value || value.length === 0) continue;
    total += value.length;
    if (shared === null) shared = value.buffer;
    else if (shared !== value.buffer) low = -1;
    if (low === -1) continue;
    if (value.byteOffset < low) low = value.byteOffset;
    if (value.byteOffset + value.length > high) high = value.byteOffset + value.length;
  }
  // One span, unless the values are in several buffers or far apart (at most twice their size).
  if (shared instanceof ArrayBuffer && low !== -1 && high - low <= total * 2) {
    const bytes = new Uint8Array(shared.slice(low, high));
    for (let i = 0; i < messages.length; i += 1) {
      const value = messages[i]!.value;
      if (!value || value.length === 0) continue;
      starts[i] = value.byteOffset - low;
      ends[i] = starts[i]! + value.length;
    }
    return { bytes, starts, ends, offsets };
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (let i = 0; i < messages.length; i += 1) {
    const value = messages[i]!.value;
    starts[i] = at;
    if (value) {
      bytes.set(value, at);
      at += value.length;
    }
    ends[i] = at;
  }
  return { bytes, starts, ends, offsets };
};

/**
 * The analytics consumer's second thread (docs/adr/0041, "Pipelined, on two threads"): parsing and packing the feed
 * lines (JSON.parse and its garbage are about a third of the consumer's CPU) move off the thread that
 * runs kafkajs and the store's writes. Handing a batch over (`linesOf`) and taking its groups back cost
 * the threads about 0.4 to 0.6 us a record together. A thread that died, or did not answer a batch within `BUILD_TIMEOUT_MS`
 * (ended then), is started again on the next batch; the batches it held fail, and the consumer
 * builds them on its own thread instead.
 */
/** Far beyond a batch's build (about 30 ms for 8,000 lines): a thread this late is stuck. */
export const BUILD_TIMEOUT_MS = 20_000;

export const startFactsThread = (): FactsThread => {
  const pending = pendingReplies<BuiltBatch>();
  let thread: Worker | null = null;
  const start = (): Worker => {
    const started = startTypeScriptThread(join(__dirname, 'ledger-facts-thread.ts'));
    started.on('message', (reply: FactsThreadReply) => {
      if ('error' in reply) pending.fail(reply.id, new Error(`The facts thread failed: ${reply.error}`));
      else pending.answer(reply.id, { groups: groupsOf(reply.columns), records: reply.records });
    });
    started.on('error', (error) => {
      if (thread === started) thread = null;
      pending.failAll(error);
    });
    started.on('exit', (code) => {
      if (thread === started) thread = null;
      pending.failAll(new Error(`The facts thread stopped (exit code ${code}).`));
    });
    return started;
  };
  // Started now: loading its modules takes about 0.1 s, which the group join hides.
  thread = start();
  return {
    build: (messages) =>
      new Promise<BuiltBatch>((resolve, reject) => {
        const { bytes, starts, ends, offsets } = linesOf(messages);
        thread ??= start();
        const sentTo = thread;
        const id = pending.add(
          (built) => {
            clearTimeout(timer);
            resolve(built);
          },
          (error) => {
            clearTimeout(timer);
            reject(error);
          },
        );
        const timer = setTimeout(() => {
          if (!pending.has(id)) return;
          // Its exit rejects every batch it held.
          if (thread === sentTo) thread = null;
          void sentTo.terminate();
        }, BUILD_TIMEOUT_MS);
        timer.unref();
        thread.postMessage({ id, bytes, starts, ends, offsets } satisfies FactsThreadRequest, [
          bytes.buffer,
          starts.buffer,
          ends.buffer,
          offsets.buffer,
        ]);
      }),
    close: async () => {
      const stopping = thread;
      thread = null;
      if (stopping) await stopping.terminate();
    },
  };
};
