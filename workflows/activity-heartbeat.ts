import { Context } from '@temporalio/activity';

/** The least time between two heartbeats `heartbeatAtMostEverySecond` sends for one activity. */
const LEAST_INTERVAL_MS = 1_000;

const lastBeatAt = new WeakMap<Context, number>();

/**
 * A heartbeat for an activity that beats often (once a job in a scheduled send's batch): at most one a
 * second reaches the SDK. Each heartbeat crosses the SDK's observable pipeline and its native bridge
 * (about 0.3 ms of the worker's main thread in a schedule tick's profile) while Temporal only keeps the
 * last one within its own throttle (80% of the heartbeat timeout, a minute for the report activities),
 * so the ones in between changed nothing. Outside an activity it throws, as `heartbeat` does.
 */
export const heartbeatAtMostEverySecond = (details?: unknown): void => {
  const context = Context.current();
  const now = Date.now();
  const last = lastBeatAt.get(context);
  if (last !== undefined && now - last < LEAST_INTERVAL_MS) return;
  lastBeatAt.set(context, now);
  context.heartbeat(details);
};
