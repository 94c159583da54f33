import type { FastifyRequest } from 'fastify';
import { credentialVaultOf } from './credential-vault-of';

/**
 * Removes from the vault every secret a seller or integration stream ever referred to: after a
 * disconnect or a delete nothing can use them again; after a reconnection only the new one (`keep`) stays. References are not personal data, so the
 * stored events hold them in clear.
 */
export const forgetCredentials = async (
  request: FastifyRequest,
  stream: { streamId: string; keep?: string | null },
): Promise<number> => {
  const { services } = request.server;
  const events = await services.writeSide.store.readStream(stream.streamId);
  const refs = new Set<string>();
  for (const event of events) {
    const ref = (event.data as { credentialsRef?: unknown } | null)?.credentialsRef;
    if (typeof ref === 'string' && ref !== stream.keep) refs.add(ref);
  }
  const vault = credentialVaultOf(services);
  await Promise.all([...refs].map((ref) => vault.remove(ref)));
  return refs.size;
};
