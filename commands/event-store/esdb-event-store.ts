import {
  ANY,
  BACKWARDS,
  END,
  FORWARDS,
  KurrentDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AppendStreamState,
  type Filter,
  type JSONType,
  type Position,
  type ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import { EventMetadata, type RecordedEvent } from '../../contracts/events/envelope';
import {
  categoryOf,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type ReadAllFilter,
  type ReadAllOptions,
  type ReadStreamOptions,
  type SubscribeOptions,
  type Subscription,
} from './event-store';

/**
 * The EventStoreDB / KurrentDB adapter (production, clusters). Global positions are the commit
 * positions of $all as numbers (exact up to 2^53 bytes of log). System streams and events (`$...`)
 * are never returned.
 */

export type EsdbEventStoreOptions = {
  /** e.g. `esdb://127.0.0.1:2113?tls=false` */
  connectionString: string;
};

/** Events read from $all per request while reading with a filter that the server cannot apply. */
const READ_ALL_PAGE = 500;

/** ESDB reports this commit position on stream reads from servers that do not know it (before 22.6). */
const UNKNOWN_POSITION = 2n ** 64n - 1n;

const toEsdbExpected = (expected: ExpectedRevision): AppendStreamState => {
  switch (expected.kind) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    case 'exact':
      return BigInt(expected.revision);
  }
};

const positionAt = (position: number): Position => ({ commit: BigInt(position), prepare: BigInt(position) });

/** Our metadata plus the schema version, and ESDB's own correlation keys for its system projections. */
type StoredMetadata = EventMetadata & {
  schemaVersion: number;
  $correlationId?: string;
  $causationId?: string;
};

const toStoredMetadata = (event: EventToAppend): StoredMetadata => ({
  ...event.metadata,
  schemaVersion: event.schemaVersion,
  $correlationId: event.metadata.correlationId,
  ...(event.metadata.causationId === null ? {} : { $causationId: event.metadata.causationId }),
});

const toRecordedEvent = (resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null => {
  const event = resolved.event;
  if (!event || event.streamId.startsWith('$') || event.type.startsWith('$')) return null;
  const commit = event.position?.commit;
  if (commit === undefined || commit === UNKNOWN_POSITION) {
    throw new Error(
      'EventStoreDB did not report event positions on stream reads; version 22.6 or later is required',
    );
  }
  const stored = (event.metadata ?? {}) as Partial<StoredMetadata>;
  const { schemaVersion, $correlationId: _correlation, $causationId: _causation, ...metadata } = stored;
  return {
    id: event.id,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: Number(commit),
    type: event.type,
    schemaVersion: schemaVersion ?? 1,
    data: event.data,
    metadata: EventMetadata.parse(metadata),
    recordedAt: event.created.toISOString(),
  };
};

const matches = (event: RecordedEvent, filter: ReadAllFilter | undefined): boolean =>
  (!filter?.categories || filter.categories.includes(categoryOf(event.streamId))) &&
  (!filter?.eventTypes || filter.eventTypes.includes(event.type));

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The server-side filter; the client checks exact categories and types again (prefixes are wider). */
const toEsdbFilter = (filter: ReadAllFilter | undefined): Filter => {
  if (filter?.categories) return streamNameFilter({ prefixes: filter.categories.map((c) => `${c}-`) });
  if (filter?.eventTypes)
    return eventTypeFilter({ regex: `^(?:${filter.eventTypes.map(escapeRegex).join('|')})$` });
  return excludeSystemEvents();
};

/**
 * The client takes esdb:// (what EVENTSTORE_URL has always said) but warns on every start that the
 * scheme is deprecated; kurrentdb:// names the same connection.
 */
const kurrentSchemeOf = (connectionString: string): string =>
  connectionString.replace(/^esdb(\+discover)?:\/\//, 'kurrentdb$1://');

const isStreamNotFound = (error: unknown): boolean => error instanceof StreamNotFoundError;

export class EsdbEventStore implements EventStore {
  private readonly client: KurrentDBClient;
  private readonly subscriptions = new Set<Subscription>();

  constructor(options: EsdbEventStoreOptions) {
    this.client = KurrentDBClient.connectionString(kurrentSchemeOf(options.connectionString));
  }

  async append(
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`Append to ${streamId}: at least one event is required`);
    const data = events.map((event) =>
      jsonEvent({
        id: event.id,
        type: event.type,
        data: event.data as JSONType,
        metadata: toStoredMetadata(event),
      }),
    );
    try {
      const result = await this.client.appendToStream(streamId, data, {
        streamState: toEsdbExpected(expected),
      });
      const nextRevision = Number(result.nextExpectedRevision);
      // An idempotent (retried) append is answered without a position: look up the original event's.
      const position = result.position
        ? Number(result.position.commit)
        : await this.positionOf(streamId, nextRevision);
      return { nextRevision, position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualState === NO_STREAM ? 'no_stream' : Number(error.actualState);
        throw new WrongExpectedRevisionError(streamId, expected, actual);
      }
      throw error;
    }
  }

  private async positionOf(streamId: string, revision: number): Promise<number> {
    const [event] = await this.readStream(streamId, {
      direction: 'backwards',
      fromRevision: revision,
      maxCount: 1,
    });
    if (!event) throw new Error(`Stream ${streamId} has no event at revision ${revision}`);
    return event.position;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    if (options.maxCount === 0) return [];
    const backwards = options.direction === 'backwards';
    const read = this.client.readStream(streamId, {
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision:
        options.fromRevision === undefined ? (backwards ? END : START) : BigInt(options.fromRevision),
      ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
    });
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of read) {
        const event = toRecordedEvent(resolved);
        if (event) events.push(event);
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const wanted = options.maxCount ?? Number.POSITIVE_INFINITY;
    if (wanted === 0) return [];
    const after = options.after ?? -1;
    const events: RecordedEvent[] = [];
    let from: Position | typeof START = after < 0 ? START : positionAt(after);
    for (;;) {
      let seen = 0;
      let last: Position | undefined;
      // $all reads take no server-side filter in this client: page through and filter here.
      for await (const resolved of this.client.readAll({
        fromPosition: from,
        maxCount: READ_ALL_PAGE,
        direction: FORWARDS,
      })) {
        seen += 1;
        last = resolved.event?.position ?? last;
        const event = toRecordedEvent(resolved);
        // fromPosition is inclusive; our `after` is not.
        if (!event || event.position <= after || !matches(event, options.filter)) continue;
        events.push(event);
        if (events.length >= wanted) return events;
      }
      if (seen < READ_ALL_PAGE || !last) return events;
      from = last;
    }
  }

  async headPosition(): Promise<number> {
    for await (const resolved of this.client.readAll({
      fromPosition: END,
      direction: BACKWARDS,
      maxCount: 1,
    })) {
      return Number(resolved.event?.position.commit ?? resolved.commitPosition ?? -1);
    }
    return -1;
  }

  subscribe(handler: (event: RecordedEvent) => Promise<void>, options: SubscribeOptions = {}): Subscription {
    const after = options.after ?? -1;
    const stream = this.client.subscribeToAll({
      fromPosition: after < 0 ? START : positionAt(after),
      filter: toEsdbFilter(options.filter),
    });
    let stopped = false;
    const loop = async (): Promise<void> => {
      try {
        // Async iteration pulls one event at a time, so the handler is awaited before the next.
        for await (const resolved of stream) {
          if (stopped) return;
          const event = toRecordedEvent(resolved);
          if (!event || event.position <= after || !matches(event, options.filter)) continue;
          await handler(event);
        }
      } catch (error) {
        if (!stopped) throw error;
      } finally {
        await stream.unsubscribe().catch(() => undefined);
      }
    };
    const done = loop();
    done.catch(() => undefined); // the caller observes failures through `done`; never an unhandled rejection
    const subscription: Subscription = {
      done,
      stop: async () => {
        stopped = true;
        this.subscriptions.delete(subscription);
        await stream.unsubscribe().catch(() => undefined);
        await done.catch(() => undefined);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async deleteStream(streamId: string): Promise<void> {
    // A soft delete: reads stop at once, the data goes at the next scavenge, and the name can be reused.
    try {
      await this.client.deleteStream(streamId, { expectedRevision: ANY });
    } catch (error) {
      if (!isStreamNotFound(error)) throw error;
    }
  }

  async truncateStream(streamId: string, beforeRevision: number): Promise<void> {
    const { metadata } = await this.client.getStreamMetadata(streamId);
    await this.client.setStreamMetadata(streamId, { ...(metadata ?? {}), truncateBefore: beforeRevision });
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }
}

export const openEsdbEventStore = (options: EsdbEventStoreOptions): Promise<EventStore> =>
  Promise.resolve(new EsdbEventStore(options));
