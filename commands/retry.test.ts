import { WrongExpectedRevisionError } from './event-store/event-store';
import {
  brokerReconnect,
  keepRunning,
  retry,
  transientStoreError,
  upsertRace,
  versionConflict,
  type RetryPolicy,
} from './retry';

const conflict = () => new WrongExpectedRevisionError('tenant-1', { kind: 'exact', revision: 0 }, 1);

/** The same limits and predicate with no pauses, so a test runs as fast as its attempts. */
const withoutPauses = (policy: RetryPolicy): RetryPolicy => ({ ...policy, delayMs: () => 0 });

/** Work that fails with the given errors in turn, then answers `done`. */
const failingWith = (...errors: Error[]) => {
  const attempts: number[] = [];
  const work = (attempt: number) => {
    attempts.push(attempt);
    const error = errors[attempt - 1];
    return error === undefined ? Promise.resolve('done') : Promise.reject(error);
  };
  return { work, attempts };
};

describe('retry policies', () => {
  it('version conflict: retries only a lost append race, six attempts unless told otherwise', () => {
    const policy = versionConflict();
    expect(policy.retries(conflict())).toBe(true);
    expect(policy.retries(new Error('disk full'))).toBe(false);
    expect(policy.maxAttempts).toBe(6);
    expect(versionConflict({ maxAttempts: 100 }).maxAttempts).toBe(100);
  });

  it('version conflict: a random pause below the attempt number in ms, never above 20 ms', () => {
    const policy = versionConflict();
    for (const failures of [1, 3, 20, 50]) {
      const pauses = Array.from({ length: 200 }, () => policy.delayMs(failures));
      expect(Math.min(...pauses)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...pauses)).toBeLessThan(Math.min(failures, 20));
    }
  });

  it('transient store error: retries anything, for ever, doubling from 500 ms to a 30 s ceiling', () => {
    const policy = transientStoreError();
    expect(policy.retries(new Error('connection refused'))).toBe(true);
    expect(policy.maxAttempts).toBe(Infinity);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map((n) => policy.delayMs(n))).toEqual([
      500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('upsert race: retries only the race it is given, at once, five attempts', () => {
    const isRace = (error: unknown) => error instanceof Error && error.message === 'duplicate key';
    const policy = upsertRace(isRace);
    expect(policy.retries(new Error('duplicate key'))).toBe(true);
    expect(policy.retries(new Error('timeout'))).toBe(false);
    expect(policy.maxAttempts).toBe(5);
    expect(policy.delayMs(1)).toBe(0);
  });

  it('broker reconnect: retries anything, for ever, after a steady pause (5 s unless told otherwise)', () => {
    expect(brokerReconnect().maxAttempts).toBe(Infinity);
    expect(brokerReconnect().retries(new Error('ECONNREFUSED'))).toBe(true);
    expect([1, 10, 100].map((n) => brokerReconnect().delayMs(n))).toEqual([5000, 5000, 5000]);
    expect(brokerReconnect({ delayMs: 1000 }).delayMs(3)).toBe(1000);
  });
});

describe('retry', () => {
  it('answers with the first success after retried failures', async () => {
    const { work, attempts } = failingWith(conflict(), conflict());
    await expect(retry(withoutPauses(versionConflict()), work)).resolves.toBe('done');
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('throws an error the policy does not retry at once', async () => {
    const disk = new Error('disk full');
    const { work, attempts } = failingWith(conflict(), disk);
    await expect(retry(withoutPauses(versionConflict()), work)).rejects.toBe(disk);
    expect(attempts).toEqual([1, 2]);
  });

  it('stops after the policy s attempts and throws what giveUp makes of the last error', async () => {
    const { work, attempts } = failingWith(...Array.from({ length: 10 }, conflict));
    const giveUp = (_error: unknown, tried: number) => new Error(`still conflicting after ${tried} attempts`);
    await expect(retry(withoutPauses(versionConflict({ maxAttempts: 3 })), work, { giveUp })).rejects.toThrow(
      'still conflicting after 3 attempts',
    );
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('tells onRetry each failure and the pause before the next attempt', async () => {
    const { work } = failingWith(new Error('a'), new Error('b'));
    const seen: string[] = [];
    const policy: RetryPolicy = { ...transientStoreError(), delayMs: (failures) => failures };
    await retry(policy, work, {
      onRetry: (error, { failures, delayMs }) =>
        seen.push(`${(error as Error).message}:${failures}:${delayMs}`),
    });
    expect(seen).toEqual(['a:1:1', 'b:2:2']);
  });

  it('gives up with the last error when its signal aborts during a pause', async () => {
    const stopping = new AbortController();
    const away = new Error('away');
    const work = () => {
      stopping.abort();
      return Promise.reject(away);
    };
    // An hour's pause: the test would time out if the abort did not end it.
    const policy: RetryPolicy = { ...transientStoreError(), delayMs: () => 3_600_000 };
    await expect(retry(policy, work, { signal: stopping.signal })).rejects.toBe(away);
  });
});

describe('keepRunning', () => {
  it('runs the work again after failures and successes alike until stopped, resetting the count on success', async () => {
    const stopping = new AbortController();
    const outcomes = ['fail', 'fail', 'ok', 'fail', 'ok', 'stop'];
    const failureCounts: number[] = [];
    let runs = 0;
    const work = () => {
      const outcome = outcomes[runs];
      runs += 1;
      if (outcome === 'stop') stopping.abort();
      return outcome === 'fail' ? Promise.reject(new Error('away')) : Promise.resolve();
    };
    await keepRunning(withoutPauses(transientStoreError()), work, {
      signal: stopping.signal,
      onFailure: (_error, { failures }) => failureCounts.push(failures),
    });
    expect(runs).toBe(6);
    expect(failureCounts).toEqual([1, 2, 1]);
  });

  it('ends a pause at once when stopped, and starts no run after it', async () => {
    const stopping = new AbortController();
    let runs = 0;
    const work = () => {
      runs += 1;
      return Promise.reject(new Error('away'));
    };
    // An hour's pause: the test would time out if stopping did not end it.
    const policy: RetryPolicy = { ...brokerReconnect(), delayMs: () => 3_600_000 };
    const running = keepRunning(policy, work, { signal: stopping.signal });
    await new Promise((resolve) => setImmediate(resolve));
    stopping.abort();
    await running;
    expect(runs).toBe(1);
  });

  it('does not report a failure that stopping caused (a subscription cut by stop)', async () => {
    const stopping = new AbortController();
    const reported: unknown[] = [];
    const work = () => {
      stopping.abort();
      return Promise.reject(new Error('subscription closed'));
    };
    await keepRunning(brokerReconnect(), work, {
      signal: stopping.signal,
      onFailure: (e) => reported.push(e),
    });
    expect(reported).toEqual([]);
  });

  it('rejects with an error its policy does not retry, and after its attempts', async () => {
    const stopping = new AbortController();
    const disk = new Error('disk full');
    await expect(
      keepRunning(withoutPauses(versionConflict()), () => Promise.reject(disk), { signal: stopping.signal }),
    ).rejects.toBe(disk);
    let runs = 0;
    const conflicts = () => {
      runs += 1;
      return Promise.reject(conflict());
    };
    await expect(
      keepRunning(withoutPauses(versionConflict({ maxAttempts: 4 })), conflicts, { signal: stopping.signal }),
    ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(runs).toBe(4);
  });
});
