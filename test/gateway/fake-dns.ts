import type { ResolveHost } from '../../workflows/connectors/connector-url';

/**
 * The sandbox has no DNS: the connector URL check (SSRF) resolves host names through this table
 * instead, and a name not in it does not resolve, as an unknown name would not.
 */
export const fakeDns =
  (addresses: Readonly<Record<string, readonly string[]>>): ResolveHost =>
  (host) => {
    const known = addresses[host];
    return known ? Promise.resolve([...known]) : Promise.reject(new Error(`ENOTFOUND ${host}`));
  };
