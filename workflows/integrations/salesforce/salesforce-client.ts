import { failureTypes, retryAfter, userFailure } from '../../connectors/shared/connector-failure';
import {
  callPlatform,
  type PlatformHttp,
  type PlatformResponse,
} from '../../connectors/shared/platform-http';

export const SALESFORCE_NAME = 'Salesforce';
export const DEFAULT_SALESFORCE_API_VERSION = 'v60.0';

/**
 * The access an integration account gives (core's IntegrationAccessToken in
 * workflows/integrations/crm/integration-tokens.ts, same shape): for Salesforce the instance URL
 * comes with each token answer.
 */
export type SalesforceAccessToken = {
  current: () => Promise<{ accessToken: string; instanceUrl: string | null }>;
  renewAfterRejection: (
    rejectedAccessToken: string,
  ) => Promise<{ accessToken: string; instanceUrl: string | null }>;
};

export type SalesforceClientDeps = {
  http: PlatformHttp;
  /** Used only when the token answer named no instance (it always does in practice). */
  apiBaseUrl: string;
  tokens: SalesforceAccessToken;
  /** SALESFORCE_API_VERSION, e.g. v60.0. */
  apiVersion?: string;
};

/** Salesforce's error body: an array of `{ message, errorCode }` (composite items say statusCode). */
export type SalesforceError = { message: string; errorCode: string };

const word = (value: unknown) => (typeof value === 'string' ? value : null);

export const errorsOf = (text: string): SalesforceError[] => {
  try {
    const body = JSON.parse(text) as unknown;
    const list = Array.isArray(body) ? body : [body];
    return list
      .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
      .map((e) => ({
        message: word(e.message) ?? word(e.error_description) ?? '',
        errorCode: word(e.errorCode) ?? word(e.statusCode) ?? word(e.error) ?? '',
      }))
      .filter((e) => e.errorCode !== '' || e.message !== '');
  } catch {
    return [];
  }
};

const describe = (errors: SalesforceError[]) =>
  errors.map((e) => `${e.errorCode}${e.message ? `: ${e.message}` : ''}`).join('; ');

/** Codes a user (an org administrator) can act on: missing fields, permissions, validation rules. */
const userFixable = new Set([
  'INVALID_FIELD',
  'INVALID_TYPE',
  'INSUFFICIENT_ACCESS',
  'INSUFFICIENT_ACCESS_OR_READONLY',
  'INSUFFICIENT_ACCESS_ON_CROSS_REFERENCE_ENTITY',
  'API_DISABLED_FOR_ORG',
  'API_CURRENTLY_DISABLED',
  'FIELD_CUSTOM_VALIDATION_EXCEPTION',
  'REQUIRED_FIELD_MISSING',
  'INVALID_FIELD_FOR_INSERT_UPDATE',
  'FUNCTIONALITY_NOT_ENABLED',
]);

/**
 * The failure for an answer that is not a success: the daily request limit ends the job in words,
 * a concurrency limit is retried later, a refused session asks to reconnect, an org setting the
 * administrator can change says which; anything else is retryable.
 */
export const salesforceFailure = (response: PlatformResponse, what: string): Error => {
  const errors = errorsOf(response.text);
  const text = describe(errors) || response.text.slice(0, 200);
  if (errors.some((e) => e.errorCode === 'REQUEST_LIMIT_EXCEEDED')) {
    if (errors.some((e) => /TotalRequests/i.test(e.message)))
      return userFailure(
        `${SALESFORCE_NAME} says this org has used up its daily API request allowance (${text}). ` +
          'The sync stopped; it can run again once the allowance renews, within 24 hours.',
        failureTypes.limited,
      );
    return retryAfter(`${SALESFORCE_NAME} is limiting concurrent requests (${text})`, 30_000);
  }
  if (response.status === 401)
    return userFailure(
      `${SALESFORCE_NAME} refused our session even after renewing it (${text}). Reconnect Salesforce on ` +
        'the Platforms page, then sync again.',
      failureTypes.refused,
    );
  if (response.status === 403 || errors.some((e) => userFixable.has(e.errorCode)))
    return userFailure(
      `${SALESFORCE_NAME} refused to ${what} (${text}). An administrator of the Salesforce org can ` +
        'check the integration user’s permissions and the fields named in the CRM settings.',
      failureTypes.refused,
    );
  return new Error(`${SALESFORCE_NAME} answered ${response.status} to ${what}: ${text}`);
};

/**
 * The REST API for one integration account: every path under the instance URL of the current
 * token, Bearer auth, JSON; a 401 (INVALID_SESSION_ID) renews the token once and repeats the call.
 * 429 and 5xx are waited out by callPlatform; other answers go back to the caller.
 */
export const createSalesforceClient = (deps: SalesforceClientDeps) => {
  const version = deps.apiVersion ?? DEFAULT_SALESFORCE_API_VERSION;
  const call = async (
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<PlatformResponse> => {
    const { body, headers = {} } = options;
    let token = await deps.tokens.current();
    for (let attempt = 0; ; attempt += 1) {
      const base = (token.instanceUrl || deps.apiBaseUrl).replace(/\/+$/, '');
      if (!base)
        throw userFailure(
          `We hold no ${SALESFORCE_NAME} instance URL for this account. Reconnect Salesforce on the ` +
            'Platforms page, then sync again.',
          failureTypes.noCredentials,
        );
      const response = await callPlatform(deps.http, `${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token.accessToken}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (response.status === 401 && attempt === 0) {
        token = await deps.tokens.renewAfterRejection(token.accessToken);
        continue;
      }
      return response;
    }
  };
  return {
    version,
    /** A path under /services/data/vXX.X. */
    data: (path: string) => `/services/data/${version}${path}`,
    call,
  };
};

export type SalesforceClient = ReturnType<typeof createSalesforceClient>;

/** A SOQL string literal. */
export const soqlString = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** A SOQL LIKE pattern for a marker of letters, digits, colons and dashes anywhere in a field. */
export const soqlContains = (marker: string) => {
  if (!/^[A-Za-z0-9:-]+$/.test(marker)) throw new Error(`not a marker: ${marker}`);
  return soqlString(`%${marker}%`);
};
