import { checkConnectorUrl, type ResolveHost } from '../../connectors/connector-url';
import { failureTypes, userFailure } from '../../connectors/shared/connector-failure';
import {
  callPlatform,
  jsonOf,
  type PlatformHttp,
  type PlatformResponse,
} from '../../connectors/shared/platform-http';
import { pinnedFetch } from './pinned-fetch';

export const ACTIVE_CAMPAIGN_NAME = 'ActiveCampaign';

/**
 * The account's access (core's IntegrationAccessToken, same shape): the API key as the access token,
 * the account URL the user typed as the instance URL. The key never renews: a 403 is final.
 */
export type ActiveCampaignAccess = {
  current: () => Promise<{ accessToken: string; instanceUrl: string | null }>;
  renewAfterRejection: (
    rejectedAccessToken: string,
  ) => Promise<{ accessToken: string; instanceUrl: string | null }>;
};

export type ActiveCampaignClientDeps = {
  http: PlatformHttp;
  /**
   * ACTIVE_CAMPAIGN_API_URL when configured (tests, local development): every call goes there.
   * Empty: calls go to the account's own URL, checked public and pinned to its checked addresses.
   */
  apiBaseUrl: string;
  tokens: ActiveCampaignAccess;
  resolveHost?: ResolveHost;
};

/** The API root of a URL as people paste it: with or without a trailing slash or `/api/3`. */
export const apiRootOf = (url: string) =>
  url
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/api\/3$/i, '');

/** The account URL's checked addresses are reused this long before the name is resolved again. */
const RECHECK_MS = 5 * 60_000;

/** ActiveCampaign's error bodies: `{ message }` or `{ errors: [{ title, code }] }`. */
export const problemOf = (text: string): { message: string; codes: string[] } => {
  try {
    const body = JSON.parse(text) as { message?: unknown; errors?: { title?: unknown; code?: unknown }[] };
    const errors = Array.isArray(body.errors) ? body.errors : [];
    const titles = errors.map((e) => (typeof e.title === 'string' ? e.title : '')).filter(Boolean);
    return {
      message: typeof body.message === 'string' ? body.message : titles.join('; '),
      codes: errors.map((e) => (typeof e.code === 'string' ? e.code : '')).filter(Boolean),
    };
  } catch {
    return { message: text.slice(0, 200), codes: [] };
  }
};

/**
 * API v3 for one account: `{base}/api/3/...` with the Api-Token header. 429 (ActiveCampaign allows
 * five requests a second per account) and 5xx are waited out by callPlatform; a refused key (401 or
 * 403) goes to the token holder, which marks the credentials invalid (only a new key helps) and
 * fails the job in words.
 */
export const createActiveCampaignClient = (deps: ActiveCampaignClientDeps) => {
  let pinned: { url: string; until: number; fetch: typeof fetch } | null = null;

  const target = async (accountUrl: string | null): Promise<{ base: string; fetch?: typeof fetch }> => {
    if (deps.apiBaseUrl) return { base: apiRootOf(deps.apiBaseUrl) };
    if (!accountUrl)
      throw userFailure(
        `We hold no ${ACTIVE_CAMPAIGN_NAME} account URL. Connect ActiveCampaign again on the Platforms page.`,
        failureTypes.noCredentials,
      );
    if (!pinned || pinned.url !== accountUrl || pinned.until < Date.now()) {
      const verdict = await checkConnectorUrl(accountUrl, deps.resolveHost);
      if (!verdict.ok)
        throw userFailure(
          `The ${ACTIVE_CAMPAIGN_NAME} URL ${accountUrl} cannot be called: ${verdict.reason} ` +
            'Connect ActiveCampaign again with the URL shown under Settings, Developer.',
          failureTypes.refused,
        );
      pinned = {
        url: accountUrl,
        until: Date.now() + RECHECK_MS,
        fetch: pinnedFetch(verdict.addresses) as unknown as typeof fetch,
      };
    }
    return { base: apiRootOf(accountUrl), fetch: pinned.fetch };
  };

  const send = async (
    token: { accessToken: string; instanceUrl: string | null },
    request: { method: string; path: string; body?: unknown },
  ) => {
    const { method, path, body } = request;
    const { base, fetch } = await target(token.instanceUrl);
    return callPlatform(fetch ? { ...deps.http, fetch } : deps.http, `${base}/api/3${path}`, {
      method,
      headers: {
        'api-token': token.accessToken,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  };

  const call = async (method: string, path: string, body?: unknown): Promise<PlatformResponse> => {
    const token = await deps.tokens.current();
    const response = await send(token, { method, path, body });
    if (response.status !== 401 && response.status !== 403) return response;
    const problem = problemOf(response.text).message;
    // A 403 elsewhere may be the plan or the key's user lacking a feature (accounts are not in every
    // plan): the key is refused only when it cannot even say who it belongs to.
    if (path !== '/users/me' && (await send(token, { method: 'GET', path: '/users/me' })).status === 200)
      throw userFailure(
        `${ACTIVE_CAMPAIGN_NAME} refused to let this key ${method === 'GET' ? 'read' : 'write'} ${path.split('?')[0]} ` +
          `(${problem}). The account's plan or the permissions of the key's user may not include it.`,
        failureTypes.refused,
      );
    // The key never renews: the holder marks the credentials invalid and fails in words itself.
    await deps.tokens.renewAfterRejection(token.accessToken);
    throw userFailure(
      `${ACTIVE_CAMPAIGN_NAME} refused the API key of this account (${problem}). ` +
        'Enter a current key on the Platforms page.',
      failureTypes.refused,
    );
  };

  /** The JSON of an answer with one of `statuses`, else a retryable error naming what failed. */
  const expect = (response: PlatformResponse, what: string, statuses = [200]): unknown => {
    if (!statuses.includes(response.status))
      throw new Error(
        `${ACTIVE_CAMPAIGN_NAME} answered ${response.status} to ${what}: ${problemOf(response.text).message}`,
      );
    return response.text === '' ? {} : jsonOf(ACTIVE_CAMPAIGN_NAME, response);
  };

  return { call, expect };
};
