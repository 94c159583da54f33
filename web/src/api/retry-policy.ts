/** portal.md section 7: these statuses are retried; everything else fails at once. */
export const retryableStatuses: ReadonlySet<number> = new Set([429, 501, 502, 503, 504]);

export const maxAttempts = 4;

/** A server asking to wait longer than this (a 30-minute login lockout) is not retried but reported. */
const longestWaitMs = 10_000;

/**
 * The wait before retry `attempt` (1-based): exponential backoff with jitter, or the server's
 * Retry-After when it gives one; null when the call should not be retried.
 */
export const retryDelayMs = (input: {
  status: number;
  attempt: number;
  retryAfter: string | null;
  random?: () => number;
}): number | null => {
  if (!retryableStatuses.has(input.status) || input.attempt >= maxAttempts) return null;
  const seconds = input.retryAfter === null ? NaN : Number(input.retryAfter);
  if (Number.isFinite(seconds)) {
    const wait = seconds * 1000;
    return wait > longestWaitMs ? null : wait;
  }
  const base = 300 * 2 ** (input.attempt - 1);
  return Math.round(base + base * (input.random ?? Math.random)() * 0.5);
};
