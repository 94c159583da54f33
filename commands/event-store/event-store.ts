import type { EventMetadata, RecordedEvent } from '../../contracts/events/envelope';

/**
 * The event-store port (architecture.md, write side). Adapters: embedded SQLite (default) and
 * EventStoreDB. Both pass the one contract suite in event-store.contract.ts.
 */

/** What the caller expects the stream to look like before the append. */
export type ExpectedRevision =
  | { kind: 'no_stream' }
  | { kind: 'stream_exists' }
  | { kind: 'any' }
  /** The revision of the last event the caller saw. */
  | { kind: 'exact'; revision: number };

export type EventToAppend = {
  /** Deterministic id (see commands/event-id.ts): a retried append with the same ids appends nothing. */
  id: string;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: EventMetadata;
};

export type AppendResult = {
  /** Revision of the last event in the stream after the append. */
  nextRevision: number;
  /** Global position of the last appended event (or of the existing duplicate). */
  position: number;
  /**
   * The global position of each event of the append, in order, where the store knows them without
   * another read (the embedded store). The command handler's groups (ADR 54) answer each command
   * with its own events' positions; without this they read them back.
   */
  positions?: readonly number[];
};

export type ReadStreamOptions = {
  direction?: 'forwards' | 'backwards';
  /** Inclusive revision to start from; defaults to the start (forwards) or the end (backwards). */
  fromRevision?: number;
  maxCount?: number;
};

export type ReadAllFilter = {
  /** Stream categories: the part of the stream id before the first dash (`tenant`, `seller`...). */
  categories?: readonly string[];
  eventTypes?: readonly string[];
};

export type ReadAllOptions = {
  /** Exclusive: events after this global position. Omit (or -1) to start at the beginning. */
  after?: number;
  maxCount?: number;
  filter?: ReadAllFilter;
};

export type SubscribeOptions = {
  /** Exclusive checkpoint: deliver events after this position. Omit to start at the beginning. */
  after?: number;
  filter?: ReadAllFilter;
};

export type Subscription = {
  /** Stops delivery; resolves when the handler will not be called again. */
  stop: () => Promise<void>;
  /** Settles when the subscription ends: resolves on stop, rejects if the handler or the store fails. */
  done: Promise<void>;
};

export interface EventStore {
  append(
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): Promise<AppendResult>;
  /**
   * Optional pair (the embedded store, docs/adr/0052): `appendVisible` resolves once the append is
   * committed and readable, maybe before it would survive a power cut; `whenDurable` resolves once
   * everything committed so far would. `append` is the two in one.
   */
  appendVisible?(
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): Promise<AppendResult>;
  whenDurable?(): Promise<void>;
  /**
   * Optional (the embedded store, docs/adr/0054): a number that is the same on two calls only if
   * nothing was committed to the store in between, by this process or any other. Lets a reader skip
   * re-reading what it read at the same number (the stream-state cache checks its copy that way).
   */
  changeToken?(): number;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Position of the newest event in the store, or -1 when it is empty. */
  headPosition(): Promise<number>;
  /**
   * Catch-up subscription: delivers every matching event after the checkpoint in order, then switches
   * to live delivery without gaps or duplicates. The handler is awaited before the next event.
   */
  subscribe(handler: (event: RecordedEvent) => Promise<void>, options?: SubscribeOptions): Subscription;
  /** Removes a stream for good (tenant purge). Appending to it afterwards starts a new stream. */
  deleteStream(streamId: string): Promise<void>;
  /** Hides events before `beforeRevision` from reads of that stream. */
  truncateStream(streamId: string, beforeRevision: number): Promise<void>;
  close(): Promise<void>;
}

/** Thrown when the expected revision does not match the stream. */
export class WrongExpectedRevisionError extends Error {
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  readonly actual: number | 'no_stream';

  constructor(streamId: string, expected: ExpectedRevision, actual: number | 'no_stream') {
    super(`Stream ${streamId}: expected ${JSON.stringify(expected)}, actual revision ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
  }
}

/** The category of a stream id: `seller-12` is in category `seller`. */
export const categoryOf = (streamId: string): string => {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(0, dash);
};

/** Whether an event of this type, in a stream of this category, passes the filter (none passes all). */
export const matchesFilter = (
  filter: ReadAllFilter | undefined,
  event: { type: string; category: string },
): boolean =>
  (!filter?.categories || filter.categories.includes(event.category)) &&
  (!filter?.eventTypes || filter.eventTypes.includes(event.type));
