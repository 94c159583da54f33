import type { CommandHandlerDeps } from '../../../commands/command-handler';
import type { CredentialVault, Secret } from '../../../commands/credential-vault';
import { sellerStream } from '../../../contracts/stream-ids';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import { readState, runSystemCommand } from '../../sync/system-commands';
import { failureTypes, userFailure } from './connector-failure';
import { callPlatform, type PlatformHttp } from './platform-http';

/**
 * A seller's OAuth 2.0 tokens for a connector (docs/adr/0043-accounting-connectors.md). The tokens
 * live only in the credential vault, under the reference the seller's latest event names. An access
 * token is renewed five minutes before it expires (or when the platform answers 401): the new pair
 * is sealed under a new reference, `SellerAuthTokenRefreshed` names it, and the old entry goes, so a
 * rotated refresh token is never used twice. A renewal the platform refuses (invalid_grant) records
 * `SellerAuthTokenRevoked` and ends the sync asking the user to reconnect.
 */
export type TokenEndpoint = {
  tokenUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  clientAuth: 'basic' | 'post';
};

export type OAuthTokensDeps = {
  writeSide: CommandHandlerDeps;
  vault: CredentialVault;
  now: () => Date;
  http: PlatformHttp;
  endpoint: TokenEndpoint;
  /** Tokens that never expire (Stripe Connect): never renewed. */
  neverExpire?: boolean;
};

export type SellerTokens = {
  sellerId: number;
  tenantId: number;
  companyName: string | null;
  credentialsRef: string;
  secret: Secret;
  /** Epoch ms. */
  expiresAt: number;
};

export type OAuthTokens = {
  /** Valid tokens for the seller, renewed first when they expire within five minutes. */
  current: (sellerId: number) => Promise<SellerTokens>;
  /** Renews after a 401, unless another call renewed the rejected token already. */
  renewAfterRejection: (sellerId: number, rejectedAccessToken: string) => Promise<SellerTokens>;
  /** Reads the seller's tokens afresh on next use (a sync's first page: a reconnect may have happened). */
  forget: (sellerId: number) => void;
};

const RENEW_BEFORE_MS = 5 * 60_000;
const DEFAULT_LIFETIME_S = 3600;

/** The latest credentials reference of the seller's stream (references are in clear in events). */
const latestCredentialsRef = async (writeSide: CommandHandlerDeps, sellerId: number) => {
  const events = await writeSide.store.readStream(sellerStream(sellerId));
  for (const event of [...events].reverse()) {
    const ref = (event.data as { credentialsRef?: unknown } | null)?.credentialsRef;
    if (typeof ref === 'string') return ref;
  }
  return null;
};

export const createOAuthTokens = (deps: OAuthTokensDeps): OAuthTokens => {
  const { platform } = deps.http;
  const cached = new Map<number, SellerTokens>();
  /** One renewal at a time per seller: a rotated refresh token works once. */
  const renewals = new Map<number, Promise<SellerTokens>>();

  const load = async (sellerId: number): Promise<SellerTokens> => {
    const seller = await readState(deps.writeSide, sellerDecider, sellerStream(sellerId));
    if (seller.status !== 'known') throw new Error(`seller ${sellerId} is not known`);
    if (seller.authTokenStatus === 'REVOKED')
      throw userFailure(
        `${platform} revoked our access to ${seller.companyName ?? 'this company'}. ` +
          'Reconnect it on the Platforms page, then sync again.',
        failureTypes.revoked,
      );
    const ref = await latestCredentialsRef(deps.writeSide, sellerId);
    const stored = ref ? await deps.vault.read(ref) : null;
    if (!ref || !stored?.secret.accessToken)
      throw userFailure(
        `We hold no ${platform} authorisation for ${seller.companyName ?? 'this company'}. ` +
          'Reconnect it on the Platforms page.',
        failureTypes.noCredentials,
      );
    const obtained = Date.parse(stored.secret.obtainedAt ?? seller.authTokenRefreshedAt ?? '');
    const lifetime = Number(stored.secret.expiresIn ?? DEFAULT_LIFETIME_S);
    return {
      sellerId,
      tenantId: seller.tenantId,
      companyName: seller.companyName,
      credentialsRef: ref,
      secret: stored.secret,
      // Unknown issue time: renew now rather than call with a token that may be stale.
      expiresAt: deps.neverExpire
        ? Number.MAX_SAFE_INTEGER
        : Number.isNaN(obtained)
          ? 0
          : obtained + lifetime * 1000,
    };
  };

  const revoke = async (tokens: SellerTokens, why: string): Promise<never> => {
    await runSystemCommand(
      {
        writeSide: deps.writeSide,
        workflowId: `token-${tokens.sellerId}`,
        tenantId: tokens.tenantId,
        process: 'sync-seller',
      },
      sellerDecider,
      {
        streamId: sellerStream(tokens.sellerId),
        step: `revoke:${tokens.credentialsRef}`,
        command: { type: 'RevokeSellerAuthToken', now: deps.now(), data: {} },
      },
    );
    throw userFailure(
      `${platform} refused to renew our access to ${tokens.companyName ?? 'this company'} (${why}). ` +
        'Reconnect it on the Platforms page, then sync again.',
      failureTypes.revoked,
    );
  };

  const renew = async (tokens: SellerTokens): Promise<SellerTokens> => {
    const { endpoint } = deps;
    const refreshToken = tokens.secret.refreshToken;
    if (!refreshToken) return revoke(tokens, 'no refresh token was granted');
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (endpoint.clientAuth === 'basic')
      headers.authorization = `Basic ${Buffer.from(
        `${encodeURIComponent(endpoint.clientId ?? '')}:${encodeURIComponent(endpoint.clientSecret ?? '')}`,
      ).toString('base64')}`;
    else {
      form.set('client_id', endpoint.clientId ?? '');
      form.set('client_secret', endpoint.clientSecret ?? '');
    }
    const response = await callPlatform(deps.http, endpoint.tokenUrl, {
      method: 'POST',
      headers,
      body: form.toString(),
    });
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(response.text) as Record<string, unknown>;
    } catch {
      body = {};
    }
    if (response.status === 400 || response.status === 401) {
      const error = typeof body.error === 'string' ? body.error : `HTTP ${response.status}`;
      return revoke(tokens, error);
    }
    if (response.status !== 200 || typeof body.access_token !== 'string')
      throw new Error(`${platform}'s token endpoint answered ${response.status}`);
    const now = deps.now();
    const secret: Secret = {
      ...tokens.secret,
      accessToken: body.access_token,
      // Rotation: the platform may hand out a new refresh token; the old one then stops working.
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : refreshToken,
      expiresIn: String(typeof body.expires_in === 'number' ? body.expires_in : DEFAULT_LIFETIME_S),
      obtainedAt: now.toISOString(),
    };
    const credentialsRef = await deps.vault.store({ tenantId: tokens.tenantId, kind: 'oauth', secret });
    await runSystemCommand(
      {
        writeSide: deps.writeSide,
        workflowId: `token-${tokens.sellerId}`,
        tenantId: tokens.tenantId,
        process: 'sync-seller',
      },
      sellerDecider,
      {
        streamId: sellerStream(tokens.sellerId),
        step: `refresh:${credentialsRef}`,
        command: { type: 'RefreshSellerAuthToken', now, data: { credentialsRef } },
      },
    );
    await deps.vault.remove(tokens.credentialsRef);
    return {
      ...tokens,
      credentialsRef,
      secret,
      expiresAt: now.getTime() + Number(secret.expiresIn) * 1000,
    };
  };

  const renewOnce = (sellerId: number, tokens: SellerTokens): Promise<SellerTokens> => {
    const running = renewals.get(sellerId);
    if (running) return running;
    const renewal = renew(tokens)
      .then((fresh) => {
        cached.set(sellerId, fresh);
        return fresh;
      })
      .finally(() => renewals.delete(sellerId));
    renewals.set(sellerId, renewal);
    return renewal;
  };

  const current = async (sellerId: number): Promise<SellerTokens> => {
    const running = renewals.get(sellerId);
    if (running) return running;
    let tokens = cached.get(sellerId);
    // Another worker may have renewed since: the stream names the newest reference.
    if (!tokens || tokens.expiresAt - deps.now().getTime() < RENEW_BEFORE_MS) tokens = await load(sellerId);
    cached.set(sellerId, tokens);
    if (tokens.expiresAt - deps.now().getTime() < RENEW_BEFORE_MS) return renewOnce(sellerId, tokens);
    return tokens;
  };

  return {
    current,
    forget: (sellerId) => {
      if (!renewals.has(sellerId)) cached.delete(sellerId);
    },
    renewAfterRejection: async (sellerId, rejected) => {
      const tokens = await current(sellerId);
      if (tokens.secret.accessToken !== rejected) return tokens;
      return renewOnce(sellerId, tokens);
    },
  };
};
