import type { Db } from 'mongodb';
import { categoryOf, type EventStore, type Subscription } from '../../commands/event-store/event-store';
import { brokerReconnect, keepRunning } from '../../commands/retry';
import type { RecordedEvent } from '../../contracts/events/envelope';
import type { LiveNotice } from '../../contracts/live';
import type { ProcessorLogger } from '../framework/projection-processor';
import type { Projection } from '../framework/projection';
import { queryMemberTenantIds } from '../users/query-member-tenant-ids';
import { BoundedCache } from './bounded-cache';
import { jobProgressTracker } from './job-progress';
import { noticeTargetOf, tenantNamedBy, type NoticeAudience } from './notice-target';
import { readModelWaiter } from './read-model-waiter';

/** Where the notifier delivers: the gateway's hub of sockets (gateway/live/live-hub.ts). */
export type LiveSink = {
  /** The notifier follows events after this position; it knows nothing of earlier ones. */
  started: (position: number) => void;
  publish: (notice: LiveNotice) => void;
  /** Every notice of events up to this position has been published. */
  processed: (position: number) => void;
};

export type LiveNotifierOptions = {
  store: EventStore;
  db: Db;
  sink: LiveSink;
  /** The read models whose changes the notices announce (projections/registry.ts). */
  projections: readonly Projection[];
  /** How long a notice waits for a read model before it goes out anyway (a stopped projector). */
  waitTimeoutMs?: number;
  logger?: ProcessorLogger;
};

export type LiveNotifier = { stop: () => Promise<void> };

const DEFAULT_WAIT_MS = 10_000;
const RESUBSCRIBE_MS = 1000;
/** Job lifecycle changes alter job lists; progress only moves a bar, which the progress notice carries. */
const jobListChanges = new Set(['JobCreated', 'JobStarted', 'JobCompleted', 'JobFailed', 'JobCancelled']);

/**
 * Turns events into live notices at the read side: for each new event it waits until the read models
 * that read it have checkpointed past it, then publishes small `invalidate` and `job-progress` notices
 * to the channel of the tenant the event concerns. A browser refetching on a notice therefore sees
 * the change. Each gateway process runs its own notifier from the head of the store at start.
 */
export const startLiveNotifier = async (options: LiveNotifierOptions): Promise<LiveNotifier> => {
  const { store, db, sink, logger } = options;
  const waitForReadModels = readModelWaiter(
    db,
    options.projections,
    options.waitTimeoutMs ?? DEFAULT_WAIT_MS,
  );
  const jobProgress = jobProgressTracker(store);
  const owners = new BoundedCache<string, number | null>(10_000);

  const ownerOf = async (streamId: string): Promise<number | null> => {
    const known = owners.get(streamId);
    if (known !== undefined) return known;
    const [first] = await store.readStream(streamId, { maxCount: 1 });
    const owner = first ? tenantNamedBy(first.data) : null;
    owners.set(streamId, owner);
    return owner;
  };

  /** The tenant channels a notice goes to; null is the platform admins' channel. */
  const channelsOf = async (audience: NoticeAudience, event: RecordedEvent): Promise<(number | null)[]> => {
    switch (audience.kind) {
      case 'tenant':
        return [audience.tenantId];
      case 'platform':
        return [null];
      case 'stream-owner':
        return [await ownerOf(event.streamId)];
      case 'member-tenants': {
        const tenants = await queryMemberTenantIds(db, audience.userId);
        return tenants.length > 0 ? tenants : [null];
      }
    }
  };

  const noticesOf = async (event: RecordedEvent): Promise<LiveNotice[]> => {
    const late = await waitForReadModels(event);
    if (late.length > 0) {
      logger?.warn({ position: event.position, readModels: late }, 'live notice sent before its read models');
    }
    const notices: LiveNotice[] = [];
    const target = noticeTargetOf(event);
    const isJob = categoryOf(event.streamId) === 'job';
    if (target && (!isJob || jobListChanges.has(event.type))) {
      for (const tenantId of await channelsOf(target.audience, event)) {
        notices.push({
          type: 'invalidate',
          entity: target.entity,
          id: target.id,
          tenantId,
          position: event.position,
        });
      }
    }
    if (isJob) {
      const progress = await jobProgress(event);
      if (progress) notices.push(progress);
    }
    return notices;
  };

  let after = await store.headPosition();
  const handle = async (event: RecordedEvent): Promise<void> => {
    try {
      for (const notice of await noticesOf(event)) sink.publish(notice);
    } catch (error) {
      // A notice is a hint: losing one costs a stale table until the next change or reconnect, while
      // stopping here would cost every later notice.
      logger?.error({ err: error, position: event.position }, 'live notice failed');
    }
    after = event.position;
    sink.processed(event.position);
  };

  sink.started(after);
  const stopping = new AbortController();
  let subscription: Subscription | undefined;
  const following = keepRunning(
    brokerReconnect({ delayMs: RESUBSCRIBE_MS }),
    async () => {
      subscription = store.subscribe(handle, { after });
      await subscription.done;
      // Ended without failing: the store closed it (shutting down), so there is nothing left to follow.
      stopping.abort();
    },
    {
      signal: stopping.signal,
      onFailure: (error) => logger?.error({ err: error }, 'live notifier subscription failed; resubscribing'),
    },
  );

  return {
    stop: async () => {
      stopping.abort();
      await subscription?.stop();
      await following;
    },
  };
};
