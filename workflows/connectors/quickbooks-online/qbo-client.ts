import { failureTypes, userFailure } from '../shared/connector-failure';
import type { OAuthTokens } from '../shared/oauth-tokens';
import { callPlatform, jsonOf, type PlatformHttp } from '../shared/platform-http';
import {
  faultText,
  QBO_MINOR_VERSION,
  type QboCdcResponse,
  type QboEntity,
  type QboQueryResponse,
} from './qbo-formats';

/**
 * The QuickBooks Online Accounting API for one seller's company (realm): the query endpoint and
 * Change Data Capture, minor version pinned, with the seller's OAuth tokens from the vault. A 401
 * renews the access token once and retries; 429 and 5xx are waited out by callPlatform; a 403 (a
 * lapsed subscription, a user without access) ends the sync with QBO's own reason.
 */
export type QboClient = {
  query: (sellerId: number, statement: string) => Promise<QboQueryResponse>;
  cdc: (sellerId: number, entities: readonly QboEntity[], changedSince: Date) => Promise<QboCdcResponse>;
};

export const QBO_NAME = 'QuickBooks Online';

export const createQboClient = (deps: { baseUrl: string; tokens: OAuthTokens; http: PlatformHttp }) => {
  const base = deps.baseUrl.replace(/\/+$/, '');

  const get = async (sellerId: number, path: string, params: Record<string, string>): Promise<unknown> => {
    let tokens = await deps.tokens.current(sellerId);
    const realmId = tokens.secret.accountId;
    if (!realmId)
      throw userFailure(
        `${QBO_NAME} did not say which company was connected. Reconnect it on the Platforms page.`,
        failureTypes.noCredentials,
      );
    const query = new URLSearchParams({ ...params, minorversion: String(QBO_MINOR_VERSION) });
    const url = `${base}/v3/company/${encodeURIComponent(realmId)}/${path}?${query.toString()}`;
    for (let attempt = 0; ; attempt += 1) {
      const response = await callPlatform(deps.http, url, {
        headers: { authorization: `Bearer ${tokens.secret.accessToken}`, accept: 'application/json' },
      });
      if (response.status === 200) return jsonOf(QBO_NAME, response);
      const fault = faultText(safeJson(response.text));
      if (response.status === 401 && attempt === 0) {
        tokens = await deps.tokens.renewAfterRejection(sellerId, tokens.secret.accessToken ?? '');
        continue;
      }
      if (response.status === 401 || response.status === 403)
        throw userFailure(
          `${QBO_NAME} refused access to ${tokens.companyName ?? 'the company'}` +
            `${fault ? `: ${fault}` : ''}. Check the connected user's access, or reconnect on the Platforms page.`,
          failureTypes.refused,
        );
      throw new Error(`${QBO_NAME} answered ${response.status}${fault ? `: ${fault}` : ''}`);
    }
  };

  return {
    query: async (sellerId, statement) =>
      (await get(sellerId, 'query', { query: statement })) as QboQueryResponse,
    cdc: async (sellerId, entities, changedSince) =>
      (await get(sellerId, 'cdc', {
        entities: entities.join(','),
        changedSince: changedSince.toISOString(),
      })) as QboCdcResponse,
  } satisfies QboClient;
};

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};
