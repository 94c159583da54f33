import { WrongExpectedRevisionError } from './event-store/event-store';

/**
 * When to try an operation again: which errors are worth another attempt, how many attempts in all,
 * and how long to pause before the next one. Every retry in the back end goes through one of the
 * named policies below, so a newcomer finds the limits in one file instead of in a loop per caller.
 */
export type RetryPolicy = {
  readonly name: string;
  /** Attempts in all, the first included; Infinity for a loop that keeps going until stopped. */
  readonly maxAttempts: number;
  readonly retries: (error: unknown) => boolean;
  /** The pause after the n-th consecutive failure, before the next attempt. */
  readonly delayMs: (failures: number) => number;
};

/**
 * An append lost the optimistic-concurrency race (another writer appended to the stream first): read
 * again and decide again. A short random pause growing with the attempt (up to 20 ms) spreads out
 * writers that keep colliding on one stream, instead of letting them collide again in step.
 */
export const versionConflict = (limits: { maxAttempts?: number } = {}): RetryPolicy => ({
  name: 'version conflict',
  maxAttempts: limits.maxAttempts ?? 6,
  retries: (error) => error instanceof WrongExpectedRevisionError,
  delayMs: (failures) => Math.random() * Math.min(failures, 20),
});

/**
 * A store that is away or failing (Mongo, the event store): try again for as long as the process
 * runs, doubling the pause from half a second up to 30 s, so a restart of the server is picked up
 * within seconds and a long outage does not flood the log.
 */
export const transientStoreError = (): RetryPolicy => ({
  name: 'transient store error',
  maxAttempts: Infinity,
  retries: () => true,
  delayMs: (failures) => Math.min(30_000, 250 * 2 ** Math.min(failures, 7)),
});

/**
 * A guarded upsert met a document a concurrent writer inserted between our lookup and our write (a
 * duplicate key): look again at once; the lookup then sees it. Anything else is a real failure.
 */
export const upsertRace = (isRace: (error: unknown) => boolean): RetryPolicy => ({
  name: 'upsert race',
  maxAttempts: 5,
  retries: isRace,
  delayMs: () => 0,
});

/**
 * A connection to a server that pushes or receives (a Kafka broker, Temporal, an event-store
 * subscription) dropped: connect again after a steady pause, for as long as the process runs.
 */
export const brokerReconnect = (pause: { delayMs?: number } = {}): RetryPolicy => ({
  name: 'broker reconnect',
  maxAttempts: Infinity,
  retries: () => true,
  delayMs: () => pause.delayMs ?? 5000,
});

/** Waits `ms`, or less if the signal aborts meanwhile; never rejects. */
export const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    // A process that is otherwise done does not stay up for a pause.
    timer.unref?.();
    signal?.addEventListener('abort', done, { once: true });
  });

export type RetryOptions = {
  /** Called before each pause: log it, count it. */
  onRetry?: (error: unknown, next: { failures: number; delayMs: number }) => void;
  /** The error to throw once the attempts are used up (a user-facing one); the last error otherwise. */
  giveUp?: (error: unknown, attempts: number) => unknown;
  /** Stops retrying: the pause ends at once and the last error is thrown. */
  signal?: AbortSignal;
};

/**
 * Runs `work` until it succeeds, retrying the errors the policy retries; an error it does not retry
 * is thrown at once. `work` gets the attempt number, 1 first.
 */
export const retry = async <T>(
  policy: RetryPolicy,
  work: (attempt: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work(attempt);
    } catch (error) {
      if (!policy.retries(error)) throw error;
      if (attempt >= policy.maxAttempts) throw options.giveUp ? options.giveUp(error, attempt) : error;
      const delayMs = policy.delayMs(attempt);
      options.onRetry?.(error, { failures: attempt, delayMs });
      await pause(delayMs, options.signal);
      if (options.signal?.aborted) throw error;
    }
  }
};

export type KeepRunningOptions = {
  /** Ends the loop: no new run starts, and a pause in progress ends at once. */
  signal: AbortSignal;
  /** Called before each pause after a failure (log it: nothing else sees these errors). */
  onFailure?: (error: unknown, next: { failures: number; delayMs: number }) => void;
};

/**
 * Runs `work` again and again until the signal aborts: a background loop (a projection, a reactor,
 * a publisher). After a failure it pauses as the policy says; a run that succeeds resets the count.
 * Resolves once stopped; rejects only with an error the policy does not retry or after its attempts.
 */
export const keepRunning = async (
  policy: RetryPolicy,
  work: () => Promise<void>,
  options: KeepRunningOptions,
): Promise<void> => {
  const { signal } = options;
  let failures = 0;
  while (!signal.aborted) {
    try {
      await work();
      failures = 0;
    } catch (error) {
      if (signal.aborted) return;
      failures += 1;
      if (!policy.retries(error) || failures >= policy.maxAttempts) throw error;
      const delayMs = policy.delayMs(failures);
      options.onFailure?.(error, { failures, delayMs });
      await pause(delayMs, signal);
    }
  }
};
