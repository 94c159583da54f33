import { retryAfter, userFailure, failureTypes } from './connector-failure';

/**
 * HTTP to a platform's API with its throttling respected: a 429 waits as long as Retry-After says
 * (short waits here, longer ones by failing the attempt with Temporal's next-retry delay, so the
 * activity's heartbeat never starves), a 5xx or a dropped connection is retried with back-off, and
 * a wait longer than the configured maximum ends the sync with the platform's reason in words.
 */
export type PlatformHttp = {
  /** The platform's name as the portal shows it, for messages. */
  platform: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
  /** The longest Retry-After a sync waits for before failing (CONNECTOR_MAX_RETRY_WAIT_SECONDS). */
  maxRetryWaitMs: number;
  /** Waits up to this long in place; longer waits fail the attempt with a next-retry delay. */
  inlineWaitMs?: number;
  /** 5xx and network failures retried in place before the attempt fails (and Temporal retries it). */
  serverErrorRetries?: number;
  /** Extra words for a 429 the caller can read from the response (Xero's X-Rate-Limit-Problem). */
  limitName?: (response: Response) => string | null;
};

export type PlatformResponse = { status: number; headers: Headers; text: string };

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
export const retryAfterMs = (headers: Headers, now: Date): number | null => {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.ceil(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
};

const minutesText = (ms: number) => {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.round(minutes / 60)} hours`;
};

/** Calls the platform; answers every status but 429 and 5xx, which it waits out or fails on. */
export const callPlatform = async (
  http: PlatformHttp,
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: string },
): Promise<PlatformResponse> => {
  const doFetch = http.fetch ?? fetch;
  const sleep = http.sleep ?? sleepFor;
  const now = http.now ?? (() => new Date());
  const inline = http.inlineWaitMs ?? 5_000;
  const serverRetries = http.serverErrorRetries ?? 4;
  let serverFailures = 0;
  let throttles = 0;
  for (;;) {
    let response: Response;
    try {
      response = await doFetch(url, { ...init, signal: AbortSignal.timeout(120_000) });
    } catch (error) {
      serverFailures += 1;
      if (serverFailures > serverRetries)
        throw new Error(`${http.platform} could not be reached: ${(error as Error).message}`);
      await sleep(250 * 2 ** serverFailures);
      continue;
    }
    if (response.status === 429) {
      throttles += 1;
      const limit = http.limitName?.(response) ?? null;
      const wait = retryAfterMs(response.headers, now()) ?? Math.min(60_000, 1000 * 2 ** throttles);
      await response.arrayBuffer().catch(() => undefined);
      if (wait > http.maxRetryWaitMs)
        throw userFailure(
          `${http.platform} is limiting how often we may call it${limit ? ` (its ${limit} limit)` : ''} and ` +
            `asks us to wait ${minutesText(wait)}. The sync stopped; run it again after that.`,
          failureTypes.limited,
        );
      if (wait > inline || throttles > 20)
        throw retryAfter(`${http.platform} asked to wait ${Math.ceil(wait / 1000)} s (HTTP 429)`, wait);
      await sleep(wait);
      continue;
    }
    if (response.status >= 500) {
      serverFailures += 1;
      const text = await response.text().catch(() => '');
      if (serverFailures > serverRetries)
        throw new Error(
          `${http.platform} answered ${response.status} ${serverFailures} times: ${text.slice(0, 200)}`,
        );
      await sleep(250 * 2 ** serverFailures);
      continue;
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }
};

/** The JSON of an answer, or an error naming the platform when it sent something else. */
export const jsonOf = (platform: string, response: PlatformResponse): unknown => {
  try {
    return JSON.parse(response.text) as unknown;
  } catch {
    throw new Error(`${platform} answered ${response.status} with something that is not JSON`);
  }
};
