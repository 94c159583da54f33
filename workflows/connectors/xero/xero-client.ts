import { failureTypes, userFailure } from '../shared/connector-failure';
import type { OAuthTokens } from '../shared/oauth-tokens';
import { callPlatform, jsonOf, type PlatformHttp } from '../shared/platform-http';
import { XeroConnection } from './xero-formats';

export const XERO_NAME = 'Xero';

/** Xero's rate-limit header says which limit was hit: minute, day, concurrent or app minute. */
export const xeroLimitName = (response: Response): string | null => {
  const problem = response.headers.get('x-rate-limit-problem')?.toLowerCase();
  if (problem === 'day') return 'daily';
  if (problem === 'minute') return 'per-minute';
  if (problem === 'appminute') return 'app-wide per-minute';
  if (problem === 'concurrent') return 'concurrent-call';
  return null;
};

/** Xero's error body: `{ Title, Detail }` for auth problems, `{ Message }` for validation ones. */
const problemOf = (text: string): string | null => {
  try {
    const body = JSON.parse(text) as { Detail?: string; Title?: string; Message?: string };
    return body.Detail ?? body.Message ?? body.Title ?? null;
  } catch {
    return null;
  }
};

/**
 * The Xero Accounting API for one seller: the organisation (tenant) comes from the connections
 * endpoint, every call names it in xero-tenant-id, If-Modified-Since asks for changes only. A 401
 * renews the token once; 429 (minute, day, concurrent limits) is waited out by callPlatform.
 */
export const createXeroClient = (deps: { baseUrl: string; tokens: OAuthTokens; http: PlatformHttp }) => {
  const base = deps.baseUrl.replace(/\/+$/, '');

  const authorised = async (
    sellerId: number,
    url: string,
    headers: Record<string, string>,
  ): Promise<unknown> => {
    let tokens = await deps.tokens.current(sellerId);
    for (let attempt = 0; ; attempt += 1) {
      const response = await callPlatform(deps.http, url, {
        headers: {
          ...headers,
          authorization: `Bearer ${tokens.secret.accessToken}`,
          accept: 'application/json',
        },
      });
      if (response.status === 200) return jsonOf(XERO_NAME, response);
      if (response.status === 401 && attempt === 0) {
        tokens = await deps.tokens.renewAfterRejection(sellerId, tokens.secret.accessToken ?? '');
        continue;
      }
      const problem = problemOf(response.text);
      if (response.status === 401 || response.status === 403)
        throw userFailure(
          `${XERO_NAME} refused access to ${tokens.companyName ?? 'the organisation'}` +
            `${problem ? ` (${problem})` : ''}. Reconnect it on the Platforms page.`,
          failureTypes.refused,
        );
      throw new Error(`${XERO_NAME} answered ${response.status}${problem ? `: ${problem}` : ''}`);
    }
  };

  return {
    /** The organisation the seller connected: the one its stored account id names, else the first. */
    tenantOf: async (sellerId: number): Promise<string> => {
      const tokens = await deps.tokens.current(sellerId);
      const answer = await authorised(sellerId, `${base}/connections`, {});
      const connections = XeroConnection.array().parse(answer);
      const organisations = connections.filter((c) => (c.tenantType ?? 'ORGANISATION') === 'ORGANISATION');
      const chosen =
        organisations.find((c) => c.tenantId === tokens.secret.accountId) ??
        (tokens.secret.accountId ? undefined : organisations[0]);
      if (!chosen)
        throw userFailure(
          `${XERO_NAME} no longer gives us access to ${tokens.companyName ?? 'this organisation'}. ` +
            'Reconnect it on the Platforms page and choose the organisation.',
          failureTypes.refused,
        );
      return chosen.tenantId;
    },
    list: async (
      sellerId: number,
      request: {
        tenantId: string;
        endpoint: string;
        params: Record<string, string>;
        modifiedSince: Date | null;
      },
    ): Promise<Record<string, unknown>> => {
      const query = new URLSearchParams(request.params).toString();
      const headers: Record<string, string> = { 'xero-tenant-id': request.tenantId };
      if (request.modifiedSince)
        headers['if-modified-since'] = request.modifiedSince.toISOString().slice(0, 19);
      return (await authorised(
        sellerId,
        `${base}/api.xro/2.0/${request.endpoint}${query ? `?${query}` : ''}`,
        headers,
      )) as Record<string, unknown>;
    },
  };
};

export type XeroClient = ReturnType<typeof createXeroClient>;
