import { failureTypes, retryAfter, userFailure } from '../../connectors/shared/connector-failure';
import { retryAfterMs } from '../../connectors/shared/platform-http';

/**
 * HTTP to a cloud drive's API (Google Sheets and Drive, Microsoft Graph) for Live Reports
 * (docs/adr/0049-live-reports.md), with the accounting connectors' rules (platform-http.ts): a 429
 * waits out Retry-After (short waits in place, longer ones through Temporal's next-retry delay, past
 * the maximum the job fails in words), a 5xx or dropped connection is retried with back-off, and a
 * 401 renews the access token once through the integration's token provider. Unlike callPlatform it
 * sends binary bodies (an xlsx upload).
 */

/** The integration's access tokens (the type core's integration-tokens.ts exports; crm-common.md). */
export type IntegrationAccessToken = {
  /** A valid access token (renewed first when near expiry). */
  current: () => Promise<{ accessToken: string; instanceUrl: string | null }>;
  /** After a 401: renews unless already renewed; throws a userFailure when the provider refuses. */
  renewAfterRejection: (
    rejectedAccessToken: string,
  ) => Promise<{ accessToken: string; instanceUrl: string | null }>;
};

export type CloudHttp = {
  /** `Google` or `Microsoft`, for messages. */
  platform: string;
  tokens: IntegrationAccessToken;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
  /** The longest Retry-After the job waits for before failing (CONNECTOR_MAX_RETRY_WAIT_SECONDS). */
  maxRetryWaitMs: number;
  /** Waits up to this long in place; longer waits fail the attempt with a next-retry delay. */
  inlineWaitMs?: number;
  serverErrorRetries?: number;
};

export type CloudResponse = { status: number; text: string; json: () => unknown };

export type CloudRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** JSON (sent as application/json) or bytes with their content type. */
  json?: unknown;
  bytes?: { data: Uint8Array; contentType: string };
};

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The words a user reads when the provider refuses the integration's authorisation. */
export const reconnectMessage = (platform: string) =>
  `${platform} refused our access to the account of this integration. Reconnect ${platform} on the ` +
  'Platforms page; the live reports are refreshed after the next sync.';

const refused = (platform: string) => userFailure(reconnectMessage(platform), failureTypes.revoked);

const answerOf = (status: number, text: string, platform: string): CloudResponse => ({
  status,
  text,
  json: () => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`${platform} answered ${status} with something that is not JSON`);
    }
  },
});

/**
 * Calls the API with the integration's bearer token. Answers every status but 401 (renewed once,
 * then a refusal), 429 and 5xx (waited out or failed on).
 */
export const callCloud = async (http: CloudHttp, request: CloudRequest): Promise<CloudResponse> => {
  const doFetch = http.fetch ?? fetch;
  const sleep = http.sleep ?? sleepFor;
  const now = http.now ?? (() => new Date());
  const inline = http.inlineWaitMs ?? 5_000;
  const serverRetries = http.serverErrorRetries ?? 4;
  let serverFailures = 0;
  let throttles = 0;
  let renewed = false;
  let { accessToken } = await http.tokens.current();
  for (;;) {
    const headers: Record<string, string> = {
      authorization: `Bearer ${accessToken}`,
      accept: 'application/json',
    };
    let body: string | Uint8Array | undefined;
    if (request.bytes) {
      headers['content-type'] = request.bytes.contentType;
      body = request.bytes.data;
    } else if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    let response: Response;
    try {
      response = await doFetch(request.url, {
        method: request.method,
        headers,
        body: body as BodyInit | undefined,
        signal: AbortSignal.timeout(120_000),
      });
    } catch (error) {
      serverFailures += 1;
      if (serverFailures > serverRetries)
        throw new Error(`${http.platform} could not be reached: ${(error as Error).message}`);
      await sleep(250 * 2 ** serverFailures);
      continue;
    }
    if (response.status === 401) {
      await response.arrayBuffer().catch(() => undefined);
      // A token renewed just now and refused again: the account no longer lets us in.
      if (renewed) throw refused(http.platform);
      renewed = true;
      ({ accessToken } = await http.tokens.renewAfterRejection(accessToken));
      continue;
    }
    if (response.status === 429) {
      throttles += 1;
      const wait = retryAfterMs(response.headers, now()) ?? Math.min(60_000, 1000 * 2 ** throttles);
      await response.arrayBuffer().catch(() => undefined);
      if (wait > http.maxRetryWaitMs)
        throw userFailure(
          `${http.platform} is limiting how often we may call it and asks us to wait ` +
            `${Math.ceil(wait / 60_000)} minutes. The live reports are refreshed after the next sync.`,
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
    return answerOf(response.status, await response.text(), http.platform);
  }
};

/** A 403 the user can act on (a missing permission, a full drive); other unexpected answers retry. */
export const unexpected = (platform: string, what: string, response: CloudResponse): Error => {
  // Most often a connection made without file access (Google's drive.file, Microsoft's Files.ReadWrite).
  if (response.status === 403)
    return userFailure(
      `${platform} refused to let us ${what} (HTTP 403: ${response.text.slice(0, 200)}). Reconnect ` +
        `${platform} on the Platforms page and allow Ledgerwise to create and edit its own files.`,
      failureTypes.refused,
    );
  if (response.status === 507)
    return userFailure(
      `${platform} could not ${what}: the connected account's storage is full.`,
      failureTypes.refused,
    );
  return new Error(`${platform} answered ${response.status} to ${what}: ${response.text.slice(0, 300)}`);
};
