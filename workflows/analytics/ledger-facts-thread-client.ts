import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { KafkaMessage } from 'kafkajs';
import type { BuiltBatch } from './ledger-facts-lines';

/**
 * One partition batch's lines for the facts thread: the values end to end in one buffer (moved to
 * the thread, not copied again), where each ends, and each one's offset. A message without a value
 * (a tombstone at Kafka's level, never sent by the feed) is an empty line, skipped like an unkeyable one.
 */
export type FactsThreadRequest = { id: number; bytes: Uint8Array; ends: Int32Array; offsets: Float64Array };
export type FactsThreadReply = ({ id: number } & BuiltBatch) | { id: number; error: string };

export type FactsThread = {
  /** The batch's fact groups, built on the thread; batches are built in the order given. */
  build: (messages: readonly KafkaMessage[]) => Promise<BuiltBatch>;
  close: () => Promise<void>;
};

/**
 * The analytics consumer's second thread (docs/adr/0041, "Two threads"): parsing and packing the feed
 * lines (JSON.parse and its garbage are about a third of the consumer's CPU) move off the thread that
 * runs kafkajs and the store's writes. Copying the values costs the consumer's thread about 0.1 us a
 * record. A thread that died is started again on the next batch; the batches it held fail, and the
 * consumer redelivers them from the committed offsets.
 */
export const startFactsThread = (): FactsThread => {
  const pending = new Map<number, { resolve: (built: BuiltBatch) => void; reject: (error: Error) => void }>();
  let thread: Worker | null = null;
  let nextId = 0;
  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  const start = (): Worker => {
    const started = new Worker(join(__dirname, 'ledger-facts-thread.ts'), {
      // The thread loads TypeScript as the process does, whatever started the process (tsx, jest).
      execArgv: ['--require', require.resolve('tsx/cjs')],
    });
    started.on('message', (reply: FactsThreadReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if ('error' in reply) waiting?.reject(new Error(`The facts thread failed: ${reply.error}`));
      else waiting?.resolve({ groups: reply.groups, records: reply.records });
    });
    started.on('error', (error) => {
      if (thread === started) thread = null;
      failAll(error);
    });
    started.on('exit', (code) => {
      if (thread === started) thread = null;
      failAll(new Error(`The facts thread stopped (exit code ${code}).`));
    });
    return started;
  };
  // Started now: loading its modules takes about 0.1 s, which the group join hides.
  thread = start();
  return {
    build: (messages) =>
      new Promise<BuiltBatch>((resolve, reject) => {
        let total = 0;
        for (const message of messages) total += message.value?.length ?? 0;
        const bytes = new Uint8Array(total);
        const ends = new Int32Array(messages.length);
        const offsets = new Float64Array(messages.length);
        let at = 0;
        for (let i = 0; i < messages.length; i += 1) {
          const message = messages[i]!;
          if (message.value) {
            bytes.set(message.value, at);
            at += message.value.length;
          }
          ends[i] = at;
          offsets[i] = Number(message.offset);
        }
        thread ??= start();
        const id = nextId++;
        pending.set(id, { resolve, reject });
        thread.postMessage({ id, bytes, ends, offsets } satisfies FactsThreadRequest, [
          bytes.buffer,
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
