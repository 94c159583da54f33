import type { Db } from 'mongodb';
import type { EventStore } from '../../commands/event-store/event-store';
import type { ProcessorLogger } from '../../projections/framework/projection-processor';
import { startLiveNotifier } from '../../projections/live-notices/live-notifier';
import { projections } from '../../projections/registry';
import { LiveHub } from './live-hub';

/** What the live route needs (GatewayServices.live). */
export type LiveService = {
  hub: LiveHub;
  /** Pings, heartbeats and session checks of every socket; two missed pongs end a socket. */
  heartbeatMs: number;
  maxBufferedBytes: number;
};

export const liveDefaults = {
  /** Under the 30 to 60 s idle timeouts of common proxies and load balancers. */
  heartbeatMs: 25_000,
  /** About a thousand notices: a reader that far behind reconnects and refetches instead. */
  maxBufferedBytes: 256 * 1024,
} as const;

/** The hub of one gateway process and its notifier following the store from its head. */
export const startLive = async (deps: {
  store: EventStore;
  db: Db;
  logger?: ProcessorLogger;
  heartbeatMs?: number;
  waitTimeoutMs?: number;
}): Promise<{ service: LiveService; stop: () => Promise<void> }> => {
  const hub = new LiveHub();
  const notifier = await startLiveNotifier({
    store: deps.store,
    db: deps.db,
    sink: hub,
    projections,
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.waitTimeoutMs === undefined ? {} : { waitTimeoutMs: deps.waitTimeoutMs }),
  });
  return {
    service: {
      hub,
      heartbeatMs: deps.heartbeatMs ?? liveDefaults.heartbeatMs,
      maxBufferedBytes: liveDefaults.maxBufferedBytes,
    },
    stop: notifier.stop,
  };
};
