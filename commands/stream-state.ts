import type { RecordedEvent } from '../contracts/events/envelope';
import type { Decider, DomainEvent } from '../domain/decider';
import { decodeEvents, toDomainEvent, type EventCodec } from './event-codec';
import type { EventStore } from './event-store/event-store';

/**
 * A stream folded into its decider's state, kept per process so that loading it again reads and
 * decodes only the events appended since (ADR 31). Reading the whole stream on every command made a
 * command's cost grow with its stream's length: decrypting the personal data of every past event was
 * the largest cost of a PUT /api/users/:id.
 *
 * The cached copy is checked on every load: the store must still hold, at the cached revision, the
 * very event (by id) the state was folded up to, so a stream deleted, truncated or written by another
 * process is never answered from a stale copy. Where the store offers a change token (ADR 54), a
 * copy checked at the current token is answered without reading: nothing was committed since, so
 * the route's check and the command of one request read the stream once. Entries also expire after
 * a minute, so personal data revealed into a state does not outlive an erased key by more than that.
 */
export type StreamState<State> = {
  state: State;
  /** The stream's last revision; -1 when it does not exist. */
  revision: number;
  /** Global position of the stream's last event; -1 when it does not exist. */
  position: number;
  /** Whether a command with this id appended events to the stream (its retries must append nothing). */
  appendedBy: (commandId: string) => boolean;
};

type Entry = {
  state: unknown;
  revision: number;
  position: number;
  lastEventId: string;
  commandIds: Set<string>;
  cachedAt: number;
  /** The store's change token when the copy was last checked against the store (ADR 54). */
  checkedAt: number | undefined;
};

type Folder<State, Event> = Pick<Decider<State, unknown, Event>, 'evolve' | 'initialState'>;

const MAX_STREAMS = 5000;
const MAX_AGE_MS = 60_000;

/** Per store, per stream, per decider (its `evolve`): one process may fold a stream two ways. */
const caches = new WeakMap<EventStore, Map<string, Map<unknown, Entry>>>();

const cacheOf = (store: EventStore) => {
  let cache = caches.get(store);
  if (!cache) {
    cache = new Map();
    caches.set(store, cache);
  }
  return cache;
};

/**
 * Tests freeze what they cache, so an `evolve` or a `decide` that changed a state in place, which
 * would corrupt the copy every later command starts from, fails loudly there.
 */
const freezeInTests = <T>(value: T): T => {
  if (process.env.NODE_ENV !== 'test' || value === null || typeof value !== 'object') return value;
  if (Object.isFrozen(value) || ArrayBuffer.isView(value)) return value;
  Object.freeze(value);
  for (const item of Object.values(value)) freezeInTests(item);
  return value;
};

const causationIds = (recorded: readonly RecordedEvent[]) =>
  recorded.flatMap((event) => (event.metadata.causationId === null ? [] : [event.metadata.causationId]));

/**
 * The newer events' command ids, added to the cached copy's own set rather than to a copy of it:
 * copying a set of every command the stream ever held made each load of a long stream cost in
 * proportion to its length (5% of a PUT's CPU after a few thousand edits of one user). An older
 * view sharing the set may then also recognise a command appended after its revision, which is
 * still true of the stream: its retry is answered from the command's own events, read afresh.
 * A stream deleted or truncated behind the copy starts over with a new set.
 */
const addAll = (ids: Set<string>, more: readonly string[]): Set<string> => {
  for (const id of more) ids.add(id);
  return ids;
};

const fold = async <State, Event>(
  codec: EventCodec,
  decider: Folder<State, Event>,
  { from, recorded }: { from: State; recorded: readonly RecordedEvent[] },
): Promise<State> => {
  if (recorded.length === 0) return from;
  const decoded = await decodeEvents(codec, recorded);
  return decoded.map(toDomainEvent).reduce((state, event) => decider.evolve(state, event as Event), from);
};

const remember = (store: EventStore, key: { streamId: string; evolve: unknown }, entry: Entry): void => {
  const { streamId } = key;
  const cache = cacheOf(store);
  const byDecider = cache.get(streamId) ?? new Map<unknown, Entry>();
  // Re-inserting keeps the Map in least-recently-used order, so the oldest stream goes first.
  cache.delete(streamId);
  byDecider.set(key.evolve, entry);
  cache.set(streamId, byDecider);
  if (cache.size > MAX_STREAMS) cache.delete(cache.keys().next().value as string);
};

/** Where each view's cached copy lives, so an append on top of a view can extend that very copy. */
type Origin = { entry: Entry; store: EventStore; streamId: string; evolve: unknown };
const origins = new WeakMap<object, Origin>();

const viewOf = <State>(entry: Entry, origin: Omit<Origin, 'entry'>): StreamState<State> => {
  const view: StreamState<State> = {
    state: entry.state as State,
    revision: entry.revision,
    position: entry.position,
    appendedBy: (commandId) => entry.commandIds.has(commandId),
  };
  origins.set(view, { entry, ...origin });
  return view;
};

/**
 * This process appended `appended` on top of `view` (the append expected the view's revision and
 * succeeded): the cached copy moves to the new revision with the state the command handler folded
 * from its own events as stored, so the next load of the stream reads its anchor only, instead of
 * reading and decoding (decrypting) the events this process has just written (docs/adr/0054).
 * Nothing happens unless the cached copy is still the one the view was made of; the copy keeps its
 * age, so revealed personal data still expires with it.
 */
export const rememberAppended = <State>(
  view: StreamState<State>,
  appended: {
    /** The view's state with the appended events folded in as stored (JSON round trip). */
    fold: () => State;
    revision: number;
    position: number;
    lastEventId: string;
    commandIds: readonly string[];
  },
): void => {
  const origin = origins.get(view);
  if (!origin) return;
  const { entry: from, store, streamId, evolve } = origin;
  if (caches.get(store)?.get(streamId)?.get(evolve) !== from || appended.revision <= from.revision) return;
  let state: State;
  try {
    state = appended.fold();
  } catch {
    return; // the next load folds the stored events instead, and meets the same failure there
  }
  remember(
    store,
    { streamId, evolve },
    {
      state: freezeInTests(state),
      revision: appended.revision,
      position: appended.position,
      lastEventId: appended.lastEventId,
      commandIds: addAll(from.commandIds, appended.commandIds),
      cachedAt: from.cachedAt,
      checkedAt: undefined,
    },
  );
};

/** The stream folded into the decider's state, reading only what the process has not seen yet. */
export const loadStreamState = async <State, Event extends DomainEvent>(
  deps: EventCodec & { store: EventStore },
  decider: Folder<State, Event>,
  streamId: string,
): Promise<StreamState<State>> => {
  const { store } = deps;
  const origin = { store, streamId, evolve: decider.evolve as unknown };
  // Taken before reading: a commit after it changes the token, so it is never missed.
  const token = store.changeToken?.();
  const cached = caches.get(store)?.get(streamId)?.get(decider.evolve);
  if (cached && Date.now() - cached.cachedAt < MAX_AGE_MS) {
    if (token !== undefined && cached.checkedAt === token) return viewOf<State>(cached, origin);
    const recorded = await store.readStream(streamId, { fromRevision: cached.revision });
    const [anchor, ...newer] = recorded;
    if (anchor?.id === cached.lastEventId && anchor.revision === cached.revision) {
      if (newer.length === 0) {
        cached.checkedAt = token;
        return viewOf<State>(cached, origin);
      }
      const last = newer[newer.length - 1]!;
      const entry: Entry = {
        state: freezeInTests(await fold(deps, decider, { from: cached.state as State, recorded: newer })),
        revision: last.revision,
        position: last.position,
        lastEventId: last.id,
        commandIds: addAll(cached.commandIds, causationIds(newer)),
        cachedAt: cached.cachedAt,
        checkedAt: token,
      };
      remember(store, { streamId, evolve: decider.evolve }, entry);
      return viewOf<State>(entry, origin);
    }
  }
  const recorded = await store.readStream(streamId);
  const state = await fold(deps, decider, { from: decider.initialState(), recorded });
  const last = recorded[recorded.length - 1];
  const entry: Entry = {
    state: freezeInTests(state),
    revision: last?.revision ?? -1,
    position: last?.position ?? -1,
    lastEventId: last?.id ?? '',
    commandIds: new Set(causationIds(recorded)),
    cachedAt: Date.now(),
    checkedAt: token,
  };
  if (last) remember(store, { streamId, evolve: decider.evolve }, entry);
  else cacheOf(store).delete(streamId);
  return viewOf<State>(entry, origin);
};
