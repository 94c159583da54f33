import type { RecordedEvent } from '../contracts/events/envelope';
import { AppError } from '../contracts/errors';
import type { Decider, DomainEvent } from '../domain/decider';
import { decodeEvents, encodeEvents, toDomainEvent, type EventCodec } from './event-codec';
import {
  WrongExpectedRevisionError,
  type EventStore,
  type ExpectedRevision,
} from './event-store/event-store';
import { retry, versionConflict } from './retry';
import { loadStreamState } from './stream-state';

/**
 * Command handling for any decider (architecture.md, write side): load the stream, fold it, decide,
 * append with the expected revision. A failed command appends nothing; a repeated command id is
 * answered from the events it appended the first time.
 */

export type CommandRequest<Command> = {
  streamId: string;
  /** Unique per command and stream; a retry carries the same id and appends nothing new. */
  commandId: string;
  command: Command;
  /**
   * The stream revision the browser saw (If-Match). When set, a changed stream is refused with
   * 'stale' (412) instead of being decided again; when absent the command is background work and a
   * conflict is retried.
   */
  ifMatch?: number;
};

export type CommandHandlerDeps = EventCodec & {
  store: EventStore;
  /** How often a background command reloads and decides again after a conflict; default 5. */
  maxRetries?: number;
};

export type CommandResult<Event> = {
  /** The events the command appended (none when it changed nothing). */
  events: Event[];
  /** The stream's revision after the command: the new ETag. -1 when the stream does not exist. */
  nextRevision: number;
  /** Global position of the command's last event, for read-your-writes; of the stream's last event if it appended none. */
  position: number;
};

const DEFAULT_MAX_RETRIES = 5;

const staleError = (streamId: string, ifMatch: number, actual: number) =>
  new AppError('stale', 'Someone else changed this since you opened it. Reload to see the latest version.', {
    message: `Stream ${streamId}: If-Match revision ${ifMatch}, current revision ${actual}`,
  });

const conflictError = (streamId: string, attempts: number) =>
  new AppError('conflict', 'Someone else changed this at the same moment. Please try again.', {
    message: `Stream ${streamId}: still conflicting after ${attempts} attempt(s)`,
  });

const expectedRevisionOf = (revision: number): ExpectedRevision =>
  revision < 0 ? { kind: 'no_stream' } : { kind: 'exact', revision };

const lastOf = (events: readonly RecordedEvent[]) => events[events.length - 1];

/** The events an earlier delivery of this command appended: appends are atomic, so all or none. */
const ownEvents = (events: readonly RecordedEvent[], commandId: string) =>
  events.filter((event) => event.metadata.causationId === commandId);

const answerFrom = async <Event>(
  codec: EventCodec,
  recorded: readonly RecordedEvent[],
): Promise<CommandResult<Event>> => {
  const last = lastOf(recorded);
  if (!last) throw new Error('answerFrom needs at least one event');
  const decoded = await decodeEvents(codec, recorded);
  return {
    events: decoded.map(toDomainEvent) as Event[],
    nextRevision: last.revision,
    position: last.position,
  };
};

/**
 * Commands on one stream from one process run one after the other: racing each other they could only
 * conflict, and each lost race costs a reload and a retry. Other processes still race, which the
 * expected revision settles.
 */
const streamQueues = new WeakMap<EventStore, Map<string, Promise<unknown>>>();
const oneAtATime = <T>(store: EventStore, streamId: string, work: () => Promise<T>): Promise<T> => {
  let queues = streamQueues.get(store);
  if (!queues) {
    queues = new Map();
    streamQueues.set(store, queues);
  }
  const before = queues.get(streamId) ?? Promise.resolve();
  const run = before.then(work, work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(streamId, settled);
  void settled.then(() => {
    if (queues.get(streamId) === settled) queues.delete(streamId);
  });
  return run;
};

/**
 * Decides and appends; answers once the events are durable. The next command on the stream starts
 * as soon as this one's append is committed, so with a store that syncs in groups (the embedded one,
 * docs/adr/0052) one sync serves a queue of commands instead of each waiting for its own.
 */
export const handleCommand = async <State, Command extends { now: Date }, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
  request: CommandRequest<Command>,
  deps: CommandHandlerDeps,
): Promise<CommandResult<Event>> => {
  const { result, committed } = await oneAtATime(deps.store, request.streamId, () =>
    decideAndAppend(decider, request, deps),
  );
  // Also when answered from an earlier delivery's events: they may be committed but not yet durable.
  if (committed) await deps.store.whenDurable?.();
  return result;
};

/** The command's answer, and whether it rests on committed events that must be durable before it is given. */
type Decided<Event> = { result: CommandResult<Event>; committed: boolean };

const decideAndAppend = async <State, Command extends { now: Date }, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
  request: CommandRequest<Command>,
  deps: CommandHandlerDeps,
): Promise<Decided<Event>> => {
  const { streamId, commandId, command, ifMatch } = request;
  const { store } = deps;
  const maxRetries = ifMatch === undefined ? (deps.maxRetries ?? DEFAULT_MAX_RETRIES) : 0;
  let current = await loadStreamState(deps, decider, streamId);

  /** A command id seen before: answer from the events its first delivery appended. */
  const answerRetried = async (): Promise<Decided<Event>> => ({
    result: await answerFrom<Event>(deps, ownEvents(await store.readStream(streamId), commandId)),
    committed: true,
  });
  // Visible before durable where the store offers it; handleCommand waits for durability.
  const append = store.appendVisible ? store.appendVisible.bind(store) : store.append.bind(store);

  const attempt = async (): Promise<Decided<Event>> => {
    if (current.appendedBy(commandId)) return answerRetried();

    const { revision } = current;
    if (ifMatch !== undefined && ifMatch !== revision) throw staleError(streamId, ifMatch, revision);

    const decided = decider.decide(command, current.state);
    if (decided.length === 0)
      return { result: { events: [], nextRevision: revision, position: current.position }, committed: false };

    const batch = await encodeEvents(deps, { streamId, commandId, now: command.now, events: decided });
    try {
      const appended = await append(streamId, batch.toAppend, expectedRevisionOf(revision));
      return { result: { events: batch.events as Event[], ...appended }, committed: true };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      current = await loadStreamState(deps, decider, streamId);
      // A concurrent delivery of this same command may be what beat us: answer from its events.
      if (current.appendedBy(commandId)) return answerRetried();
      if (ifMatch !== undefined) throw staleError(streamId, ifMatch, current.revision);
      throw error;
    }
  };
  return retry(versionConflict({ maxAttempts: maxRetries + 1 }), attempt, {
    giveUp: (_error, attempts) => conflictError(streamId, attempts),
  });
};
