import type { FastifyReply } from 'fastify';
import type { Secret } from '../../../commands/credential-vault';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import { listTenantIntegrations } from '../../../projections/integrations/query-integrations';
import { listTenantSellers } from '../../../projections/sellers/query-sellers';
import type { Connection } from '../../auth/connections';
import { allocateIdFor, executeCommand } from '../../execute-command';
import { requireCaller } from '../../plugins/access';
import { credentialVaultOf } from '../platforms/credential-vault-of';
import { forgetCredentials } from '../platforms/forget-credentials';
import { featureOf, planAllows } from '../platforms/plan-features';
import { tenantFacts } from '../platforms/tenant-facts';
import { connectSeller } from '../sellers/connect-seller';
import { integrationStream, sellerStream } from '../../../contracts/stream-ids';

export type AuthorisedConnection = {
  connection: Connection;
  tenantId: number;
  /** The tokens and the provider's account identifiers; sealed in the credential vault, never in events. */
  secret: Secret;
  /** The provider's id of the company or account, when it gives one (QuickBooks' realmId). */
  accountId: string | null;
  /** Who authorised it (the account's email), when the provider says. */
  owner: string | null;
};

/** The stream's latest credentials reference: references are not personal data, so events hold them in clear. */
const latestCredentialsRef = async (reply: FastifyReply, streamId: string): Promise<string | null> => {
  const events = await reply.server.services.writeSide.store.readStream(streamId);
  for (const event of [...events].reverse()) {
    const ref = (event.data as { credentialsRef?: unknown } | null)?.credentialsRef;
    if (typeof ref === 'string') return ref;
  }
  return null;
};

/**
 * The seller a new authorisation belongs to: the tenant's seller of the platform whose stored
 * account id is the same company (QuickBooks realmId); a platform naming no company reconnects the
 * tenant's one seller of that platform. Anything else is a new seller, which the decider allows only
 * to platform admins when one is connected already.
 */
const sellerToReconnect = async (
  reply: FastifyReply,
  input: AuthorisedConnection,
): Promise<number | undefined> => {
  const { services } = reply.server;
  if (input.connection.target.kind !== 'seller') return undefined;
  const provider = input.connection.target.provider;
  const { sellers } = await listTenantSellers(services.db, {
    tenantId: input.tenantId,
    now: services.now(),
    readAfter: reply.request.readAfter,
  });
  const same = sellers.filter((seller) => seller.Provider === provider);
  if (input.accountId === null) return same.length === 1 ? same[0]?.Id : undefined;
  const vault = credentialVaultOf(services);
  for (const seller of same) {
    const ref = await latestCredentialsRef(reply, sellerStream(seller.Id));
    const stored = ref ? await vault.read(ref) : null;
    if (stored?.secret.accountId === input.accountId) return seller.Id;
  }
  return undefined;
};

const connectIntegrationAccount = async (
  reply: FastifyReply,
  input: AuthorisedConnection,
): Promise<{ streamId: string; credentialsRef: string }> => {
  const { request } = reply;
  const { services } = request.server;
  const target = input.connection.target;
  if (target.kind !== 'integration') throw new Error('not an integration connection');
  const now = services.now();
  const [tenant, { integrations }, allowed] = await Promise.all([
    tenantFacts(services.db, input.tenantId),
    listTenantIntegrations(services.db, { tenantId: input.tenantId, readAfter: request.readAfter }),
    planAllows(services.db, {
      tenantId: input.tenantId,
      feature: featureOf(target.provider, target.product),
      now,
    }),
  ]);
  // One account per platform and product in a tenant: connecting again renews its credentials.
  const existing = integrations.find(
    (account) => account.Provider === target.provider && account.ProductIdentifier === target.product,
  );
  const vault = credentialVaultOf(services);
  const credentialsRef = await vault.store({ tenantId: input.tenantId, kind: 'oauth', secret: input.secret });
  try {
    const integrationId = existing?.Id ?? (await allocateIdFor(reply, 'integration'));
    await executeCommand(reply, integrationDecider, {
      streamId: integrationStream(integrationId),
      tenantId: input.tenantId,
      command: {
        type: 'ConnectIntegration',
        data: {
          integrationId,
          tenantId: input.tenantId,
          provider: target.provider,
          productIdentifier: target.product,
          authMethod: 'oauth2',
          credentialsRef,
          credentialsOwner: input.owner,
          url: null,
          actor: requireCaller(request).actor,
          tenantIsDemo: tenant.isDemo,
          planAllowsProvider: allowed,
        },
        now,
      },
    });
    return { streamId: integrationStream(integrationId), credentialsRef };
  } catch (error) {
    await vault.remove(credentialsRef);
    throw error;
  }
};

/**
 * Records an authorised connection: a seller (QBO, XERO, STRIPE) or an integration account (HubSpot,
 * RevOps Pro, Salesforce, Google, Microsoft), then drops the secrets the stream held before, so only
 * the newest tokens remain usable.
 */
export const recordConnection = async (reply: FastifyReply, input: AuthorisedConnection): Promise<void> => {
  const { connection } = input;
  if (connection.target.kind === 'seller') {
    const tenant = await tenantFacts(reply.server.services.db, input.tenantId);
    const sellerId = await sellerToReconnect(reply, input);
    const connected = await connectSeller(reply, {
      tenantId: input.tenantId,
      provider: connection.target.provider,
      // The tenant's name until the first sync records the platform's company details.
      companyName: tenant.name,
      authMethod: 'oauth2',
      authTokenOwner: input.owner,
      secret: { kind: 'oauth', value: input.secret },
      companyFilePath: null,
      ...(sellerId === undefined ? {} : { sellerId }),
    });
    await forgetCredentials(reply.request, {
      streamId: sellerStream(connected.sellerId),
      keep: connected.credentialsRef,
    });
    return;
  }
  const account = await connectIntegrationAccount(reply, input);
  await forgetCredentials(reply.request, { streamId: account.streamId, keep: account.credentialsRef });
};
