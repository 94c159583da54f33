import type { RecordedEvent } from '../contracts/events/envelope';
import { AppError } from '../contracts/errors';
import type { Decider, DomainEvent } from '../domain/decider';
import { decodeEvents, encodeEvents, toDomainEvent, type EventCodec } from './event-codec';
import {
  WrongExpectedRevisionError,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
} from './event-store/event-store';
import { retry, versionConflict } from './retry';
import { currentRequestContext, runInCapturedContext, type RequestContext } from './request-context';
import { loadStreamState, rememberAppended, type StreamState } from './stream-state';

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

/** The command's answer, and whether it rests on committed events that must be durable before it is given. */
type Decided<Event> = { result: CommandResult<Event>; committed: boolean };

/* eslint-disable @typescript-eslint/no-explicit-any -- a lane holds commands of any decider; a group only ever mixes commands of one */
type Queued = {
  decider: Decider<any, any, any>;
  request: CommandRequest<{ now: Date }>;
  deps: CommandHandlerDeps;
  /** The caller's request context: its events carry the caller's metadata, whoever runs the group. */
  context: RequestContext | undefined;
  resolve: (decided: Decided<any>) => void;
  reject: (error: unknown) => void;
};
/* eslint-enable @typescript-eslint/no-explicit-any */

type Lane = { queued: Queued[]; draining: boolean };

/**
 * Commands on one stream from one process run one after the other: racing each other they could only
 * conflict, and each lost race costs a reload and a retry. Commands that queued up while the ones
 * before them ran are decided together (docs/adr/0054): the stream is loaded once, each is decided
 * in order on the state its predecessors left, and their events are appended in one transaction.
 * Other processes still race, which the expected revision settles.
 */
const lanes = new WeakMap<EventStore, Map<string, Lane>>();

/** The most commands decided and appended together. */
const MAX_GROUP = 64;

/** Consecutive queued commands of one decider and one set of dependencies, each command id once. */
const takeGroup = (queued: Queued[]): Queued[] => {
  const first = queued[0];
  if (!first) return [];
  const ids = new Set<string>();
  let count = 0;
  for (const item of queued) {
    if (count >= MAX_GROUP || item.decider !== first.decider || item.deps !== first.deps) break;
    if (ids.has(item.request.commandId)) break;
    ids.add(item.request.commandId);
    count += 1;
  }
  return queued.splice(0, count);
};

const runAlone = async (item: Queued): Promise<void> => {
  try {
    item.resolve(
      await runInCapturedContext(item.context, () => decideAndAppend(item.decider, item.request, item.deps)),
    );
  } catch (error) {
    item.reject(error);
  }
};

const drain = async (lanesOfStore: Map<string, Lane>, streamId: string, lane: Lane): Promise<void> => {
  lane.draining = true;
  try {
    while (lane.queued.length > 0) {
      const group = takeGroup(lane.queued);
      const [only] = group;
      if (group.length === 1 && only) await runAlone(only);
      else {
        try {
          await decideGroup(streamId, group);
        } catch (error) {
          // Never leave a caller waiting: a command already answered ignores this.
          for (const item of group) item.reject(error);
        }
      }
    }
  } finally {
    lane.draining = false;
    if (lanesOfStore.get(streamId) === lane && lane.queued.length === 0) lanesOfStore.delete(streamId);
  }
};

const enqueue = (item: Queued): void => {
  const { store } = item.deps;
  const { streamId } = item.request;
  let lanesOfStore = lanes.get(store);
  if (!lanesOfStore) {
    lanesOfStore = new Map();
    lanes.set(store, lanesOfStore);
  }
  let lane = lanesOfStore.get(streamId);
  if (!lane) {
    lane = { queued: [], draining: false };
    lanesOfStore.set(streamId, lane);
  }
  lane.queued.push(item);
  if (!lane.draining) void drain(lanesOfStore, streamId, lane);
};

/**
 * Decides and appends; answers once the events are durable. The next commands on the stream start
 * as soon as this one's append is committed, so with a store that syncs in groups (the embedded one,
 * docs/adr/0052) one sync serves a queue of commands instead of each waiting for its own.
 */
export const handleCommand = async <State, Command extends { now: Date }, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
  request: CommandRequest<Command>,
  deps: CommandHandlerDeps,
): Promise<CommandResult<Event>> => {
  const { result, committed } = await new Promise<Decided<Event>>((resolve, reject) =>
    enqueue({
      decider,
      request,
      deps,
      context: currentRequestContext(),
      resolve,
      reject,
    }),
  );
  // Also when answered from an earlier delivery's events: they may be committed but not yet durable.
  if (committed) await deps.store.whenDurable?.();
  return result;
};

/** What the stored copy of an event reads back as (the state a later load folds is made of those). */
const asStored = (event: DomainEvent): DomainEvent => JSON.parse(JSON.stringify(event)) as DomainEvent;

type Planned =
  | { item: Queued; kind: 'appends'; events: DomainEvent[]; from: number; count: number }
  | { item: Queued; kind: 'unchanged'; appendedBefore: number };

/**
 * A group of queued commands on one stream (ADR 54): one load, each decided in order on the state
 * its predecessors left, one append of all their events. A command that is refused, stale or whose
 * events fail validation answers alone and leaves the state as it found it; a conflict with another
 * process sends every command of the group back through the one-at-a-time path, which reloads.
 */
const decideGroup = async (streamId: string, group: readonly Queued[]): Promise<void> => {
  const [first] = group;
  if (!first) return;
  const { decider, deps } = first;
  const { store } = deps;
  let loaded: StreamState<unknown>;
  try {
    loaded = await loadStreamState(deps, decider, streamId);
  } catch (error) {
    for (const item of group) item.reject(error);
    return;
  }
  const planned: Planned[] = [];
  const repeated: Queued[] = [];
  const toAppend: EventToAppend[] = [];
  let state: unknown = loaded.state;
  let revision = loaded.revision;
  for (const item of group) {
    const { commandId, command, ifMatch } = item.request;
    // An earlier delivery already appended it: answered from its own events, after the group.
    if (loaded.appendedBy(commandId)) {
      repeated.push(item);
      continue;
    }
    try {
      if (ifMatch !== undefined && ifMatch !== revision) throw staleError(streamId, ifMatch, revision);
      const decided = decider.decide(command, state) as DomainEvent[];
      if (decided.length === 0) {
        planned.push({ item, kind: 'unchanged', appendedBefore: toAppend.length });
        continue;
      }
      const batch = await runInCapturedContext(item.context, () =>
        encodeEvents(deps, { streamId, commandId, now: command.now, events: decided }),
      );
      const next = batch.events.reduce<unknown>(
        (folded, event) => decider.evolve(folded, asStored(event)),
        state,
      );
      planned.push({
        item,
        kind: 'appends',
        events: batch.events,
        from: toAppend.length,
        count: batch.toAppend.length,
      });
      toAppend.push(...batch.toAppend);
      state = next;
      revision += batch.toAppend.length;
    } catch (error) {
      item.reject(error);
    }
  }

  const append = store.appendVisible ? store.appendVisible.bind(store) : store.append.bind(store);
  let positions: readonly number[] = [];
  if (toAppend.length > 0) {
    try {
      const appended = await append(streamId, toAppend, expectedRevisionOf(loaded.revision));
      positions =
        appended.positions ??
        (await store.readStream(streamId, { fromRevision: loaded.revision + 1 })).map(
          (event) => event.position,
        );
    } catch (error) {
      const waiting = [...planned.map(({ item }) => item), ...repeated];
      if (!(error instanceof WrongExpectedRevisionError)) {
        for (const item of waiting) item.reject(error);
        return;
      }
      // Another process wrote to the stream meanwhile: each command reloads and decides alone.
      for (const item of waiting) await runAlone(item);
      return;
    }
    // The next load of this stream in the process then reads its anchor only (stream-state.ts).
    const folded = state;
    rememberAppended(loaded, {
      fold: () => folded,
      revision: loaded.revision + toAppend.length,
      position: positions.at(-1) ?? -1,
      lastEventId: toAppend.at(-1)?.id ?? '',
      commandIds: planned.flatMap((entry) =>
        entry.kind === 'appends' ? [entry.item.request.commandId] : [],
      ),
    });
  }
  for (const entry of planned) {
    if (entry.kind === 'appends') {
      entry.item.resolve({
        result: {
          events: entry.events,
          nextRevision: loaded.revision + entry.from + entry.count,
          position: positions[entry.from + entry.count - 1] ?? -1,
        },
        committed: true,
      });
    } else {
      const { appendedBefore } = entry;
      entry.item.resolve({
        result: {
          events: [],
          nextRevision: loaded.revision + appendedBefore,
          position: appendedBefore > 0 ? (positions[appendedBefore - 1] ?? -1) : loaded.position,
        },
        committed: appendedBefore > 0,
      });
    }
  }
  for (const item of repeated) await runAlone(item);
};

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
    const decidedOn = current;
    let appended: { nextRevision: number; position: number };
    try {
      appended = await append(streamId, batch.toAppend, expectedRevisionOf(revision));
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      current = await loadStreamState(deps, decider, streamId);
      // A concurrent delivery of this same command may be what beat us: answer from its events.
      if (current.appendedBy(commandId)) return answerRetried();
      if (ifMatch !== undefined) throw staleError(streamId, ifMatch, current.revision);
      throw error;
    }
    const { nextRevision, position } = appended;
    // The next load of this stream in the process then reads its anchor only (stream-state.ts).
    rememberAppended(decidedOn, {
      fold: () =>
        batch.events.reduce(
          (folded, event) => decider.evolve(folded, asStored(event) as Event),
          decidedOn.state,
        ),
      revision: nextRevision,
      position,
      lastEventId: batch.toAppend.at(-1)?.id ?? '',
      commandIds: [commandId],
    });
    return { result: { events: batch.events as Event[], nextRevision, position }, committed: true };
  };
  return retry(versionConflict({ maxAttempts: maxRetries + 1 }), attempt, {
    giveUp: (_error, attempts) => conflictError(streamId, attempts),
  });
};
