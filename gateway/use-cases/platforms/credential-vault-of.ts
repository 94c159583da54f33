import { createCredentialVault, type CredentialVault } from '../../../commands/credential-vault';
import type { GatewayServices } from '../../services';

const vaults = new WeakMap<GatewayServices, CredentialVault>();

/** The credential vault over the gateway's database, keyed from its configured secret; one per services. */
export const credentialVaultOf = (services: GatewayServices): CredentialVault => {
  let vault = vaults.get(services);
  if (!vault) {
    vault = createCredentialVault({ db: services.db, masterSecret: services.config.SESSION_SECRET });
    vaults.set(services, vault);
  }
  return vault;
};
