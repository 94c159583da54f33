import type { Db } from 'mongodb';
import type { RecordedEvent } from '../../contracts/events/envelope';
import type { EventStore } from '../../commands/event-store/event-store';
import { keepRunning, transientStoreError } from '../../commands/retry';
import { flushCheckpoints, saveCheckpointSoon } from './checkpoint-batch';
import { checkpointSignal } from './checkpoint-signal';
import { acquireFeed, type EventFeed } from './event-feed';
import type { Projection } from './projection';
import {
  cachedPointerVersion,
  dropVersions,
  ensureIndexes,
  ensurePointer,
  loadCheckpoint,
  physicalNames,
  saveCheckpoint,
} from './read-model-versions';
import { writeSegment } from './segment-writer';
import { decodeShared } from './shared-decode';
import { planBatch } from './write-plan';

/** The slice of a pino logger the processor uses. */
export type ProcessorLogger = {
  info: (fields: object, message: string) => void;
  warn: (fields: object, message: string) => void;
  error: (fields: object, message: string) => void;
};

export type ProcessorOptions = {
  db: Db;
  store: EventStore;
  projection: Projection;
  /**
   * Omit to follow the version queries read (the live processor: it moves to a rebuilt version when
   * a rebuild switches). A number pins one version: a rebuild fills its new version that way.
   */
  version?: number;
  /** Events per read and per round of writes. */
  batchSize?: number;
  logger?: ProcessorLogger;
  /**
   * Turns stored events into what projections read: decrypts personal data and upcasts old schema
   * versions (see event-decoder.ts). Omit to project events as stored.
   */
  decode?: (events: readonly RecordedEvent[]) => Promise<RecordedEvent[]>;
  /**
   * While running live, the least time between two wakes of this process's projectors when events
   * stream in (event-feed.ts, acquireFeed); 0, the default, wakes them once per turn of the event loop.
   */
  wakeSpacingMs?: number;
  /** Fault injection for tests: runs after a batch's writes and before its checkpoint is saved. */
  beforeCheckpoint?: (events: readonly RecordedEvent[]) => Promise<void>;
};

export type ProcessorStatus = {
  name: string;
  version: number | null;
  checkpoint: number;
  running: boolean;
  lastError: string | null;
};

type FetchedBatch = { head: number; events: RecordedEvent[]; decoded: RecordedEvent[] };

const DEFAULT_BATCH_SIZE = 500;

const silentLogger: ProcessorLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * Runs one projection into its read model: reads events after its checkpoint in batches, writes each
 * batch idempotently, then saves the checkpoint. Delivery is at least once: a crash between the writes
 * and the checkpoint replays the batch, which the idempotent writes absorb.
 */
export class ProjectionProcessor {
  private readonly options: ProcessorOptions;
  private readonly batchSize: number;
  private readonly logger: ProcessorLogger;
  private version: number | null = null;
  private checkpoint = -1;
  private running = false;
  private stopped = false;
  private lastError: string | null = null;
  private loop: Promise<void> | undefined;
  /** Ends the wait for new events. */
  private interrupt: (() => void) | undefined;
  /** Ends the background loop, and the pause after a failure at once. */
  private stopping: AbortController | undefined;
  private prefetched: { after: number; version: number; batch: Promise<FetchedBatch> } | undefined;
  /**
   * The process's shared news of new events while running live (event-feed.ts); live processors
   * also save their checkpoint in batches with the others of the process (checkpoint-batch.ts).
   */
  private feed: EventFeed | undefined;

  constructor(options: ProcessorOptions) {
    this.options = options;
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.logger = options.logger ?? silentLogger;
  }

  get name(): string {
    return this.options.projection.name;
  }

  status(): ProcessorStatus {
    const { name, version, checkpoint, running, lastError } = this;
    return { name, version, checkpoint, running, lastError };
  }

  /** Processes batches until the read model has every event the store held when it looked; returns the checkpoint. */
  async catchUp(): Promise<number> {
    for (;;) {
      const { caughtUp } = await this.processNextBatch();
      if (caughtUp) return this.checkpoint;
    }
  }

  /** Runs in the background: catches up, then waits for new events; failures are retried with backoff. */
  start(): void {
    if (this.loop) return;
    this.stopped = false;
    this.running = true;
    this.stopping = new AbortController();
    this.feed = acquireFeed(this.options.store, this.options.wakeSpacingMs);
    // Read-your-writes waiters in this process then hear of each checkpoint instead of polling for it.
    const endProjecting =
      this.options.version === undefined
        ? checkpointSignal.projecting(this.options.db.databaseName, this.name)
        : () => undefined;
    this.loop = this.runLoop(this.stopping.signal).finally(async () => {
      const feed = this.feed;
      this.feed = undefined;
      try {
        // Every position announced is saved before stop resolves (a lease's next holder reads it).
        await flushCheckpoints(this.options.db);
      } catch (error) {
        this.logger.warn({ projection: this.name, err: error }, 'checkpoint not saved at stop');
      } finally {
        this.running = false;
        endProjecting();
        await feed?.release();
      }
    });
  }

  /** Resolves once no batch is in flight; the checkpoint then reflects everything written. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping?.abort();
    this.interrupt?.();
    await this.loop;
    this.loop = undefined;
  }

  private runLoop(signal: AbortSignal): Promise<void> {
    const runBatch = async () => {
      const { caughtUp } = await this.processNextBatch();
      this.lastError = null;
      if (caughtUp && !this.stopped) await this.waitForEventsAfter(this.checkpoint);
    };
    return keepRunning(transientStoreError(), runBatch, {
      signal,
      onFailure: (error, { delayMs }) => {
        this.lastError = error instanceof Error ? error.message : String(error);
        this.logger.error({ projection: this.name, err: error, retryInMs: delayMs }, 'projection failed');
      },
    });
  }

  private async processNextBatch(): Promise<{ caughtUp: boolean }> {
    const { db, projection } = this.options;
    const version = await this.resolveVersion();
    // Live, a projector whose filter skips every event since its checkpoint moves past them unread.
    const skipTo = this.feed?.skippableUpTo(this.checkpoint, projection.filter) ?? null;
    if (skipTo !== null && this.prefetched === undefined) {
      this.moveCheckpoint(version, skipTo);
      return { caughtUp: true };
    }
    const prefetched = this.prefetched;
    this.prefetched = undefined;
    const { head, events, decoded } =
      prefetched?.after === this.checkpoint && prefetched.version === version
        ? await prefetched.batch
        : await this.fetchBatch(this.checkpoint);
    const caughtUp = events.length < this.batchSize;
    const last = events.at(-1)?.position ?? this.checkpoint;
    const names = physicalNames(projection, version);
    const writing = (async () => {
      for (const segment of planBatch(projection, decoded)) await writeSegment(db, names, segment);
    })();
    // While the server writes this batch, read and decode the next one (catch-up is then bounded by
    // the slower of the two, not their sum). Only used if nothing changed by the time it is needed.
    if (!caughtUp) this.prefetch(last, version);
    try {
      await writing;
    } catch (error) {
      this.prefetched = undefined;
      throw error;
    }
    await this.options.beforeCheckpoint?.(events);
    const next = caughtUp ? Math.max(last, head) : last;
    if (next > this.checkpoint) {
      // Caught up (live, small batches) the save waits for the process's next checkpoint write;
      // catching up, each large batch saves its own, so a crash mid-catch-up replays one batch.
      if (this.feed && caughtUp) this.moveCheckpoint(version, next);
      else {
        await saveCheckpoint(db, { name: projection.name, version }, next);
        this.checkpoint = next;
      }
    }
    return { caughtUp };
  }

  /**
   * Live: everything up to `position` is written. Waits in this process hear of it now; the
   * checkpoint is saved with the process's others within CHECKPOINT_SAVE_MS (ADR 52).
   */
  private moveCheckpoint(version: number, position: number): void {
    if (position <= this.checkpoint) return;
    const { db, projection } = this.options;
    this.checkpoint = position;
    saveCheckpointSoon(db, { name: projection.name, version }, position);
    checkpointSignal.moved({ database: db.databaseName, name: projection.name, version, position });
  }

  /**
   * Live and waiting, the feed found only events this projector's filter skips up to `position`: the
   * checkpoint moves there as a batch would have moved it (processNextBatch's skip), without waking
   * the loop. Only while the version it writes is still the one its pointer copy names; otherwise it
   * wakes and resolves the version first.
   */
  private skipWhileWaiting(position: number): boolean {
    const { db, projection } = this.options;
    const version = this.version;
    if (this.stopped || this.prefetched !== undefined || version === null) return false;
    const wanted = this.options.version ?? cachedPointerVersion(db, projection.name);
    if (wanted !== version) return false;
    this.moveCheckpoint(version, position);
    return true;
  }

  private async fetchBatch(after: number): Promise<FetchedBatch> {
    const { store, projection, decode } = this.options;
    // The head is read first: positions commit in order, so if the read comes back short, nothing at
    // or below this head is left unseen, and the checkpoint may pass events the filter skipped.
    const head = await store.headPosition();
    const events = await store.readAll({ after, maxCount: this.batchSize, filter: projection.filter });
    if (!decode) return { head, events, decoded: events };
    // Live, projectors woken together decode each event once between them (shared-decode.ts).
    return { head, events, decoded: this.feed ? await decodeShared(decode, events) : await decode(events) };
  }

  private prefetch(after: number, version: number): void {
    const batch = this.fetchBatch(after);
    batch.catch(() => undefined); // a failed prefetch is retried by the normal read when needed
    this.prefetched = { after, version, batch };
  }

  /** The version to write to, following the pointer when not pinned; switching loads that version's checkpoint. */
  private async resolveVersion(): Promise<number> {
    const { db, projection } = this.options;
    const wanted = this.options.version ?? (await ensurePointer(db, projection.name)).version;
    if (wanted === this.version) return wanted;
    const previous = this.version;
    // The old version's recorded checkpoint is saved first, so it cannot outlive the drop below.
    if (previous !== null && this.feed) await flushCheckpoints(db);
    await ensureIndexes(db, projection, wanted);
    this.checkpoint = await loadCheckpoint(db, projection.name, wanted);
    this.version = wanted;
    if (this.options.version === undefined) {
      // Older versions are no longer read; drop them here too, in case this processor wrote to one
      // after the rebuild that replaced it had already dropped it.
      await dropVersions(db, projection, (v) => v < wanted);
      if (previous !== null) {
        this.logger.info({ projection: projection.name, from: previous, to: wanted }, 'switched version');
      }
    }
    return wanted;
  }

  /**
   * Resolves when any event after `position` exists (or on stop). Unfiltered on purpose: a filtered
   * read model must still move its checkpoint past other events, or a read-your-writes wait for an
   * event it does not read would never end. One subscription of the process serves every projector.
   */
  private async waitForEventsAfter(position: number): Promise<void> {
    if (!this.feed || this.feed.ended) {
      const ended = this.feed;
      this.feed = acquireFeed(this.options.store, this.options.wakeSpacingMs);
      await ended?.release();
    }
    const interrupt = new AbortController();
    this.interrupt = () => interrupt.abort();
    if (this.stopped) interrupt.abort();
    try {
      await this.feed.waitForEventsAfter(position, interrupt.signal, {
        filter: this.options.projection.filter,
        to: (to) => this.skipWhileWaiting(to),
      });
    } finally {
      this.interrupt = undefined;
    }
  }
}
