import { performance } from 'node:perf_hooks';
import {
  categoryOf,
  matchesFilter,
  type EventStore,
  type ReadAllFilter,
  type Subscription,
} from '../../commands/event-store/event-store';

/**
 * One subscription per event store and process for every live projector in it (docs/adr/0052). Each
 * projector used to open its own subscription to learn that an event had arrived, so every event was
 * read and parsed once per projector; and a projector whose filter skips the event then read its
 * filtered batch only to find it empty. The feed reads each event once and remembers the type and
 * category of the recent ones, so such a projector moves past them without reading anything.
 */

type Seen = { position: number; type: string; category: string };
type Waiter = {
  after: number;
  resolve: () => void;
  reject: (error: unknown) => void;
  /** The waiting projector's filter and its way to move past events it skips without waking. */
  skip?: SkipWhileWaiting;
};

/**
 * A waiting projector's filter, and a synchronous move of its checkpoint to a position whose events
 * up from its own it all skips; false when it cannot move that way now (it then wakes as usual).
 */
export type SkipWhileWaiting = { filter: ReadAllFilter | undefined; to: (position: number) => boolean };

/** Types and categories remembered; a projector further behind than this reads its batch as before. */
const REMEMBERED = 4096;

export class EventFeed {
  /** The newest position known to exist. */
  private last = -1;
  /** Every event after this position up to `last` is in `seen`. */
  private coveredFrom = Number.POSITIVE_INFINITY;
  private seen: Seen[] = [];
  private readonly waiters = new Set<Waiter>();
  private subscription: Subscription | undefined;
  private failure: unknown;
  private users = 0;
  /** A wake of the waiters is scheduled for the end of this turn of the event loop. */
  private wakeScheduled = false;
  /** When the waiters were last woken (performance.now()). */
  private lastWakeAt = Number.NEGATIVE_INFINITY;
  /** The least time between two wakes (acquireFeed's `wakeSpacingMs`); 0 wakes once per turn. */
  private wakeSpacingMs = Number.POSITIVE_INFINITY;
  readonly ready: Promise<void>;

  constructor(
    private readonly store: EventStore,
    private readonly onEnd: () => void,
  ) {
    this.ready = this.open();
    this.ready.catch(() => undefined);
  }

  private async open(): Promise<void> {
    const head = await this.store.headPosition();
    this.last = Math.max(this.last, head);
    this.coveredFrom = head;
    const subscription = this.store.subscribe(
      (event) => {
        this.note({ position: event.position, type: event.type, category: categoryOf(event.streamId) });
        return Promise.resolve();
      },
      { after: head },
    );
    this.subscription = subscription;
    subscription.done.then(
      // Stopped from outside (the store closed): waits stay pending, as on a store with no new
      // events, until their projector stops; a projector waiting anew takes a new feed.
      () => this.end(new Error('the event feed stopped'), false),
      (error: unknown) => this.end(error, true),
    );
  }

  private note(event: Seen): void {
    this.seen.push(event);
    this.last = Math.max(this.last, event.position);
    if (this.seen.length > 2 * REMEMBERED) {
      const dropped = this.seen.splice(0, this.seen.length - REMEMBERED);
      this.coveredFrom = dropped.at(-1)?.position ?? this.coveredFrom;
    }
    // Waiting projectors wake once the events of this turn of the event loop are in (docs/adr/0054):
    // the appends of every request that arrived together then make one batch for each projector,
    // with one folded write per document, instead of one batch per append.
    if (this.wakeScheduled) return;
    this.wakeScheduled = true;
    const wake = () => {
      this.wakeScheduled = false;
      this.lastWakeAt = performance.now();
      this.wakeWaiters();
    };
    const wait = this.lastWakeAt + this.wakeSpacingMs - performance.now();
    if (wait <= 0) setImmediate(wake);
    else setTimeout(wake, wait);
  }

  private wakeWaiters(): void {
    for (const waiter of this.waiters) {
      if (waiter.after >= this.last) continue;
      // A projector whose filter skips every new event moves its checkpoint here and keeps waiting:
      // waking it cost a PUT about a tenth of its CPU for a dozen projectors that skip user events.
      const { skip } = waiter;
      if (skip && this.skippableUpTo(waiter.after, skip.filter) !== null && skip.to(this.last)) {
        waiter.after = this.last;
        continue;
      }
      this.waiters.delete(waiter);
      waiter.resolve();
    }
  }

  private end(error: unknown, failed: boolean): void {
    this.failure = error;
    this.onEnd();
    if (!failed) return;
    for (const waiter of this.waiters) waiter.reject(error);
    this.waiters.clear();
  }

  /** True once the subscription ended (stopped or failed): acquire a new feed. */
  get ended(): boolean {
    return this.failure !== undefined;
  }

  /** A user that asks for a smaller spacing than the feed's gets it: none is woken later than it asked. */
  acquire(wakeSpacingMs: number): void {
    this.users += 1;
    this.wakeSpacingMs = Math.min(this.wakeSpacingMs, wakeSpacingMs);
  }

  /** The last user's release stops the subscription. */
  async release(): Promise<void> {
    this.users -= 1;
    if (this.users > 0) return;
    this.onEnd();
    await this.ready.catch(() => undefined);
    await this.subscription?.stop();
  }

  /**
   * Resolves when an event after `position` exists; `interrupt` ends the wait early. With `skip`, new
   * events that its filter skips are handed to `skip.to` instead, and the wait goes on if it took them.
   */
  async waitForEventsAfter(position: number, interrupt: AbortSignal, skip?: SkipWhileWaiting): Promise<void> {
    await this.ready;
    if (this.failure !== undefined)
      throw this.failure instanceof Error ? this.failure : new Error('feed ended');
    if (this.last > position || interrupt.aborted) return;
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { after: position, resolve, reject, ...(skip ? { skip } : {}) };
      this.waiters.add(waiter);
      interrupt.addEventListener(
        'abort',
        () => {
          this.waiters.delete(waiter);
          resolve();
        },
        { once: true },
      );
    });
  }

  /**
   * The newest position when no event after `after` up to it passes `filter` (a projector with that
   * filter may then move its checkpoint there without reading); null when the feed cannot tell.
   */
  skippableUpTo(after: number, filter: ReadAllFilter | undefined): number | null {
    if (!filter || after < this.coveredFrom || this.failure !== undefined) return null;
    if (this.last <= after) return null;
    for (let i = this.seen.length - 1; i >= 0; i -= 1) {
      const event = this.seen[i]!;
      if (event.position <= after) break;
      if (matchesFilter(filter, event)) return null;
    }
    return this.last;
  }
}

const feeds = new WeakMap<EventStore, EventFeed>();

/**
 * The feed of `store` in this process, shared by every live projector; release it when done.
 *
 * `wakeSpacingMs` is the least time between two wakes of its projectors (docs/adr/0054, addendum of
 * the 31st session). 0, the default, wakes them at the end of the turn the events arrived in (a
 * process that also answers reads: its readers wait for nothing more). More, and an event after a
 * quiet spell still wakes them at once, but while events stream in (a scheduled send appends
 * hundreds a second) those of the next milliseconds join one batch per projector, not one batch
 * per append: the projector process, whose readers are in other processes.
 */
export const acquireFeed = (store: EventStore, wakeSpacingMs = 0): EventFeed => {
  let feed = feeds.get(store);
  if (!feed) {
    const created: EventFeed = new EventFeed(store, () => {
      if (feeds.get(store) === created) feeds.delete(store);
    });
    feeds.set(store, created);
    feed = created;
  }
  feed.acquire(wakeSpacingMs);
  return feed;
};
