import { activeCampaignConnectFailure } from '../../../contracts/api/integrations';
import type { Config } from '../../../contracts/config';
import { AppError } from '../../../contracts/errors';
import { checkConnectorUrl, type ResolveHost } from '../../connectors/connector-url';
import { apiRootOf, problemOf } from './active-campaign-client';
import { pinnedFetch } from './pinned-fetch';

/** What the connect form shows beside the catalogue's text (portal.md sections 2.3 and 8). */
export const activeCampaignConnectTexts = {
  refusedKey: 'ActiveCampaign refused this API key.',
  refusedKeyResolution:
    'Copy the API URL and key from Settings, Developer in your ActiveCampaign account, then connect again.',
  notActiveCampaign:
    'This URL does not answer as an ActiveCampaign API. Use the URL shown under Settings, Developer.',
  unreachable:
    'ActiveCampaign could not be reached at that URL. Please check the URL and try again in a few minutes.',
} as const;

/**
 * The ActiveCampaign connect form's check: the URL and key are tried with GET /api/3/users/me
 * before anything is stored (ADR 48). A refused key answers 422 with the catalogue's text, the field
 * and a resolution; a URL that is not an ActiveCampaign API, or that cannot be reached, answers 422
 * on the URL; ActiveCampaign answering 429 or 5xx answers 503. The call goes to the addresses the URL check found public (ADR 26),
 * or to ACTIVE_CAMPAIGN_API_URL when configured (the local fake in tests).
 */
export const checkActiveCampaignConnect = async (
  config: Pick<Config, 'ACTIVE_CAMPAIGN_API_URL'>,
  input: { url: string; apiKey: string },
  options: { resolveHost?: ResolveHost; fetch?: typeof fetch } = {},
): Promise<void> => {
  let base: string;
  let call: typeof fetch;
  if (config.ACTIVE_CAMPAIGN_API_URL) {
    base = config.ACTIVE_CAMPAIGN_API_URL;
    call = options.fetch ?? fetch;
  } else {
    const verdict = await checkConnectorUrl(input.url, options.resolveHost);
    if (!verdict.ok)
      throw new AppError('validation', activeCampaignConnectFailure, {
        properties: { 'Credentials.URL': verdict.reason },
      });
    base = input.url.trim();
    call = options.fetch ?? (pinnedFetch(verdict.addresses) as unknown as typeof fetch);
  }
  let response: Response;
  let text: string;
  try {
    response = await call(`${apiRootOf(base)}/api/3/users/me`, {
      headers: { 'api-token': input.apiKey, accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    text = await response.text();
  } catch (error) {
    // On the URL field, not a 503: the browser retries a 503 four times, each waiting out the timeout.
    throw new AppError('validation', activeCampaignConnectFailure, {
      message: `ActiveCampaign connect check: ${error instanceof Error ? error.message : String(error)}`,
      properties: { 'Credentials.URL': activeCampaignConnectTexts.unreachable },
    });
  }
  if (response.status === 401 || response.status === 403)
    throw new AppError('validation', activeCampaignConnectFailure, {
      message: `ActiveCampaign refused the key: ${problemOf(text).message}`,
      properties: {
        'Credentials.ApiKey': activeCampaignConnectTexts.refusedKey,
        resolution: activeCampaignConnectTexts.refusedKeyResolution,
      },
    });
  if (response.status === 429 || response.status >= 500)
    throw new AppError('unavailable', activeCampaignConnectTexts.unreachable, {
      message: `ActiveCampaign connect check answered ${response.status}`,
    });
  let user: unknown = null;
  try {
    user = (JSON.parse(text) as { user?: unknown }).user ?? null;
  } catch {
    user = null;
  }
  if (response.status !== 200 || typeof user !== 'object' || user === null)
    throw new AppError('validation', activeCampaignConnectFailure, {
      message: `ActiveCampaign connect check answered ${response.status} without a user`,
      properties: { 'Credentials.URL': activeCampaignConnectTexts.notActiveCampaign },
    });
};
