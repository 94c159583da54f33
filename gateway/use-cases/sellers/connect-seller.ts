import type { FastifyReply } from 'fastify';
import type { CredentialKind, Secret } from '../../../commands/credential-vault';
import type { SellerAuthMethod, SellerProvider } from '../../../contracts/events/seller';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import { listTenantSellers } from '../../../projections/sellers/query-sellers';
import { allocateIdFor, executeCommand } from '../../execute-command';
import { requireCaller } from '../../plugins/access';
import { credentialVaultOf } from '../platforms/credential-vault-of';
import { featureOf, planAllows } from '../platforms/plan-features';
import { tenantFacts } from '../platforms/tenant-facts';
import { sellerStream } from '../../../contracts/stream-ids';

export type SellerConnectionInput = {
  tenantId: number;
  provider: SellerProvider;
  companyName: string | null;
  authMethod: SellerAuthMethod;
  authTokenOwner: string | null;
  /** Sealed in the credential vault; the events get only its reference. */
  secret: { kind: CredentialKind; value: Secret } | null;
  companyFilePath: string | null;
  /** Reconnects this seller instead of creating one (QBD reinstall). */
  sellerId?: number;
};

/**
 * Connects (or reconnects) a seller of the tenant: looks up the facts the decider needs, seals the
 * secret, and appends. A refused connection leaves no secret behind.
 */
export const connectSeller = async (
  reply: FastifyReply,
  input: SellerConnectionInput,
): Promise<{ sellerId: number; position: number; credentialsRef: string | null }> => {
  const { request } = reply;
  const { services } = request.server;
  const caller = requireCaller(request);
  const now = services.now();
  const [tenant, current, allowed] = await Promise.all([
    tenantFacts(services.db, input.tenantId),
    listTenantSellers(services.db, { tenantId: input.tenantId, now, readAfter: request.readAfter }),
    planAllows(services.db, { tenantId: input.tenantId, feature: featureOf(input.provider), now }),
  ]);
  const vault = credentialVaultOf(services);
  const credentialsRef = input.secret
    ? await vault.store({ tenantId: input.tenantId, kind: input.secret.kind, secret: input.secret.value })
    : null;
  try {
    const sellerId = input.sellerId ?? (await allocateIdFor(reply, 'seller'));
    const result = await executeCommand(reply, sellerDecider, {
      streamId: sellerStream(sellerId),
      tenantId: input.tenantId,
      command: {
        type: 'ConnectSeller',
        data: {
          sellerId,
          tenantId: input.tenantId,
          provider: input.provider,
          companyName: input.companyName,
          url: null,
          authMethod: input.authMethod,
          authTokenOwner: input.authTokenOwner,
          credentialsRef,
          companyFilePath: input.companyFilePath,
          actor: caller.actor,
          tenantIsDemo: tenant.isDemo,
          tenantHasConnectedSeller: current.sellers.some(
            (seller) => !seller.disconnected && seller.Id !== input.sellerId,
          ),
          planAllowsProvider: allowed,
        },
        now,
      },
    });
    // A retried request gets its first answer back; the secret sealed for the retry is not used.
    const appended = result.events[0];
    const usedRef = appended && 'credentialsRef' in appended.data ? appended.data.credentialsRef : null;
    if (credentialsRef !== null && usedRef !== credentialsRef) await vault.remove(credentialsRef);
    return { sellerId, position: result.position, credentialsRef: usedRef ?? null };
  } catch (error) {
    if (credentialsRef !== null) await vault.remove(credentialsRef);
    throw error;
  }
};
