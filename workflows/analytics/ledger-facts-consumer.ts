import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import { ledgerTopicOf } from '../../contracts/kafka/ledger-records';
import { analyticsGroupId } from '../../contracts/kafka/analytics';
import { insertFactGroups, markSellersDirty } from '../../projections/analytics/analytics-store';
import { ledgerEntities } from '../ledger/ledger-collections';
import { ensureLedgerTopics } from '../outbox/ledger-feed-sender';
import { buildBatch, type BuiltBatch } from './ledger-facts-lines';
import { startFactsThread } from './ledger-facts-thread-client';

/**
 * The analytics consumers (docs/adr/0041-analytics-exactly-once.md): a consumer group on the five
 * ledger topics. Each batch is written as idempotent fact versions and a dirty mark, and only then is
 * its offset committed: a consumer killed in between redelivers the batch (and any written in the
 * last second), which writes the same facts again. The lines are parsed on a second thread and the
 * writes overlap the next fetch (see "Pipelined" below).
 */
export { dayOf, factFieldsOf, factOf } from './ledger-facts-lines';

export type LedgerFactsConsumerOptions = {
  kafka: Kafka;
  db: Db;
  topicPrefix: string;
  /** Another group for benchmarks and tests that must not share offsets with the product's. */
  groupId?: string;
  now?: () => Date;
  /** Called after a batch is written and before its offsets are committed (the kill test stalls here). */
  afterApply?: (batch: { topic: string; partition: number; records: number }) => Promise<void>;
  onError?: (error: unknown) => void;
  /**
   * Write a batch while kafkajs fetches the next (default), committing written offsets once a second
   * itself; `false` writes inside eachBatch and lets kafkajs commit (clients shaped like kafkajs
   * without `commitOffsets` or group events, bench/analytics-confluent.ts).
   */
  pipelined?: boolean;
  /**
   * Pipelined only: parse the lines on the facts thread (default) or in the writer, on the consumer's
   * thread (one core: the thread's hand-off costs about 0.5 us a record of CPU, bench/README.md).
   */
  factsThread?: boolean;
};

export type LedgerFactsConsumer = {
  consumer: Consumer;
  /** Records applied by this consumer since it started (duplicates included). */
  applied: () => number;
  stop: () => Promise<void>;
};

/** A batch handed from eachBatch to the writer: its messages are read only when it is written. */
type PendingBatch = {
  topic: string;
  partition: number;
  messages: EachBatchPayload['batch']['messages'];
  /** Its fact groups, being built on the facts thread; null: built by the writer. */
  built: Promise<BuiltBatch> | null;
  /** The group generation (our count of joins) it was fetched in. */
  generation: number;
};

/** Records fetched and not yet written before eachBatch waits: about two fetches (10 MB each). */
const MAX_PENDING_RECORDS = 50_000;
const COMMIT_INTERVAL_MS = 1000;

export const startLedgerFactsConsumer = async (
  options: LedgerFactsConsumerOptions,
): Promise<LedgerFactsConsumer> => {
  const now = options.now ?? (() => new Date());
  const pipelined = options.pipelined ?? true;
  await ensureLedgerTopics(options.kafka, options.topicPrefix);
  const consumer = options.kafka.consumer({
    groupId: options.groupId ?? analyticsGroupId(options.topicPrefix),
    // A killed member's partitions move on within the session timeout.
    sessionTimeout: 10_000,
    heartbeatInterval: 1_000,
    maxBytesPerPartition: 4 * 1024 * 1024,
  });
  let applied = 0;
  await consumer.connect();
  const topics = ledgerEntities.map((entity) => ledgerTopicOf(options.topicPrefix, entity));
  await consumer.subscribe({ topics, fromBeginning: true });
  // Started before the group is joined, which hides the thread's start-up.
  const facts = pipelined && options.factsThread !== false ? startFactsThread() : null;

  /** Parses one partition batch on this thread. */
  const buildHere = (messages: PendingBatch['messages']): BuiltBatch =>
    buildBatch(
      messages.length,
      (i) => messages[i]!.value,
      (i) => Number(messages[i]!.offset),
    );
  /** Writes one partition batch's fact groups, then its dirty mark. */
  const write = async (
    { topic, partition, first }: { topic: string; partition: number; first: string },
    built: BuiltBatch,
  ) => {
    await insertFactGroups(options.db, built.groups);
    await markSellersDirty(options.db, {
      id: `${topic}:${partition}:${first}`,
      sellerIds: built.groups.map((group) => group.sellerId),
      now: now(),
    });
    applied += built.records;
    await options.afterApply?.({ topic, partition, records: built.records });
  };

  if (!pipelined) {
    await consumer.run({
      autoCommit: true,
      autoCommitInterval: COMMIT_INTERVAL_MS,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 3,
      eachBatch: async (payload) => {
        const { batch } = payload;
        if (batch.messages.length === 0 || !payload.isRunning() || payload.isStale()) return;
        const { topic, partition, messages } = batch;
        await write({ topic, partition, first: messages[0]!.offset }, buildHere(messages));
        if (payload.isStale()) return;
        payload.resolveOffset(batch.messages[batch.messages.length - 1]!.offset);
        await payload.heartbeat();
      },
    });
    consumer.on(consumer.events.CRASH, (event) => options.onError?.(event.payload.error));
    return { consumer, applied: () => applied, stop: () => consumer.disconnect() };
  }

  /*
   * Pipelined (docs/adr/0041, "Commit after write"): kafkajs fetches from one broker, hands every
   * batch of the response to eachBatch and fetches again only when all have returned, so a consumer
   * that writes inside eachBatch leaves the broker idle while it writes and itself idle while the
   * broker answers. Here eachBatch only queues the batch and resolves its offset (which moves the
   * fetch position, not the group's offset: kafkajs' autoCommit is off), and the writer writes the
   * queued batches one after another, after the next fetch request has gone out. The group's offsets
   * are committed here, once a second, and only up to what was written: a kill before a commit
   * redelivers written batches (idempotent, as before), never skips an unwritten one.
   */
  let generation = 0;
  /** Partitions assigned in the current generation (`topic:partition`). */
  let assigned = new Set<string>();
  /** Per partition of the current generation: the next offset after what is written. */
  let written = new Map<string, { topic: string; partition: number; offset: string }>();
  const queue: PendingBatch[] = [];
  let pendingRecords = 0;
  let writing = false;
  let failure: unknown = null;
  let stopping = false;
  /** Waiters for room in the queue, or for the queue to drain. */
  let waiters: (() => void)[] = [];
  const wake = () => {
    const woken = waiters;
    waiters = [];
    for (const waiter of woken) waiter();
  };
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

  const drainQueue = async () => {
    if (writing) return;
    writing = true;
    try {
      while (queue.length > 0) {
        // Yield first: kafkajs sends the next fetch request before the writes take the thread.
        await nextTurn();
        const batch = queue[0]!;
        if (failure === null) {
          try {
            const { topic, partition, messages } = batch;
            const built = batch.built ? await batch.built : buildHere(messages);
            await write({ topic, partition, first: messages[0]!.offset }, built);
            const key = `${batch.topic}:${batch.partition}`;
            // A batch of an earlier generation, or of a partition no longer ours, is written (the
            // write is idempotent) but not committed: its partition's owner commits its own writes.
            if (batch.generation === generation && assigned.has(key)) {
              const next = (BigInt(batch.messages[batch.messages.length - 1]!.offset) + 1n).toString();
              written.set(key, { topic: batch.topic, partition: batch.partition, offset: next });
            }
          } catch (error) {
            // Nothing after a failed batch is committed; eachBatch throws it, kafkajs restarts
            // from the committed offsets and the batches are delivered again. The batch is
            // fetched again at once, so that eachBatch runs (and throws) even at the feed's end.
            failure = error;
            try {
              consumer.seek({
                topic: batch.topic,
                partition: batch.partition,
                offset: batch.messages[0]!.offset,
              });
            } catch {
              // Not running any more: the next start fetches from the committed offsets anyway.
            }
          }
        }
        queue.shift();
        pendingRecords -= batch.messages.length;
        wake();
      }
    } finally {
      writing = false;
      wake();
    }
  };

  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    // A new generation fetches from the committed offsets again; what is queued from before is
    // written but never committed, and a failure is retried from those offsets.
    generation += 1;
    failure = null;
    written = new Map();
    assigned = new Set(
      Object.entries(event.payload.memberAssignment).flatMap(([topic, partitions]) =>
        partitions.map((partition) => `${topic}:${partition}`),
      ),
    );
  });

  let committing: Promise<void> = Promise.resolve();
  const commitWritten = async () => {
    if (written.size === 0) return;
    const offsets = [...written.values()];
    const committedIn = generation;
    await consumer.commitOffsets(offsets);
    // Forget only what is unchanged since: later writes commit on the next tick.
    if (committedIn !== generation) return;
    for (const done of offsets) {
      const key = `${done.topic}:${done.partition}`;
      if (written.get(key) === done) written.delete(key);
    }
  };
  const commitNow = () => {
    committing = committing.then(commitWritten).catch((error: unknown) => {
      // A commit refused during a rebalance: the written offsets stay for the next tick or, with
      // the partition gone, are dropped at the join.
      if (!stopping) options.onError?.(error);
    });
    return committing;
  };
  const committer = setInterval(() => void commitNow(), COMMIT_INTERVAL_MS);

  const eachBatch = async (payload: EachBatchPayload) => {
    const { batch } = payload;
    if (failure !== null) throw failure as Error;
    if (batch.messages.length === 0 || !payload.isRunning() || payload.isStale() || stopping) return;
    while (pendingRecords >= MAX_PENDING_RECORDS && failure === null)
      await new Promise<void>((resolve) => waiters.push(resolve));
    if (failure !== null) throw failure as Error;
    const { messages } = batch;
    // A thread that failed or hung: the batch is built here instead (the same function).
    const built =
      facts?.build(messages).catch((error: unknown) => {
        options.onError?.(error);
        return buildHere(messages);
      }) ?? null;
    queue.push({
      topic: batch.topic,
      partition: batch.partition,
      messages: batch.messages,
      built,
      generation,
    });
    pendingRecords += batch.messages.length;
    void drainQueue();
    // The fetch position moves on; the group's offset moves only once the batch is written.
    payload.resolveOffset(batch.messages[batch.messages.length - 1]!.offset);
    await payload.heartbeat();
  };
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    // One partition's writes overlap another's fetch and commit round trips.
    partitionsConsumedConcurrently: 3,
    eachBatch,
  });
  consumer.on(consumer.events.CRASH, (event) => options.onError?.(event.payload.error));
  return {
    consumer,
    applied: () => applied,
    stop: async () => {
      // No new batches; the queued ones are written and committed before the group is left.
      stopping = true;
      consumer.pause(topics.map((topic) => ({ topic })));
      while (writing || queue.length > 0) await new Promise<void>((resolve) => waiters.push(resolve));
      clearInterval(committer);
      await commitNow();
      await consumer.disconnect();
      await facts?.close();
    },
  };
};
